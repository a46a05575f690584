import * as v from 'valibot';

/** The SMTP server as the sender uses it: the `smtp` option checked and resolved. */
export interface SmtpConfig {
  host: string;
  port: number;
  secure: boolean;
  user: string | undefined;
  password: string | undefined;
  pool: boolean;
}

// Worded to follow the option's path, as core prints it (`option smtp.passwordEnv: ...`). It does
// not quote the value given.
const PASSWORD_ENV_REMOVED =
  'is no longer an option: in toolshed.config.json write "password": {"env": "<the variable>"} in smtp instead ' +
  '(the host reads the variable); in code pass the password itself as smtp.password';

// The one way a secret comes in: the host resolves {"env": NAME} before the plugin sees its options.
const PASSWORD_HOWTO =
  'set smtp.password: in toolshed.config.json as {"env": "SMTP_PASSWORD"} (the host reads the variable), in code as the password itself';

const Fields = v.strictObject({
  /** `smtp://user@host:port` or `smtps://host` (implicit TLS). Never put the password here. */
  url: v.optional(v.pipe(v.string(), v.nonEmpty())),
  host: v.optional(v.pipe(v.string(), v.nonEmpty())),
  port: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(65535))),
  /** Implicit TLS from the first byte (port 465); otherwise STARTTLS is used when offered. */
  secure: v.optional(v.boolean()),
  user: v.optional(v.pipe(v.string(), v.nonEmpty())),
  /**
   * The password. In toolshed.config.json write `{"env": "SMTP_PASSWORD"}`: the host puts the
   * variable's value here, so the secret is never in the file. In code, pass the value itself.
   */
  password: v.optional(v.string()),
  /**
   * @deprecated Removed: secrets have one way in, `password` (above). Kept in the schema only so
   * that an old config gets an error saying what to write instead, not just "unknown option".
   */
  passwordEnv: v.optional(
    v.pipe(
      v.custom<never>(() => true),
      v.check(() => false, PASSWORD_ENV_REMOVED),
    ),
  ),
  /** Keep connections open between messages (for long-running harnesses); call close() when done. */
  pool: v.optional(v.boolean()),
});

/** The server the fields name, or what is wrong with them (never quoting the URL or password). */
function resolveSmtp(smtp: v.InferOutput<typeof Fields>): SmtpConfig | string {
  let { host, port, secure, user } = smtp;
  if (smtp.url !== undefined) {
    if (smtp.host !== undefined) return 'give smtp.url or smtp.host, not both';
    let url: URL;
    try {
      url = new URL(smtp.url);
    } catch {
      return 'smtp.url is not a URL; write it like smtp://user@mail.example.com:587';
    }
    if (url.password) return `smtp.url contains a password; remove it from the URL and ${PASSWORD_HOWTO}`;
    if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') return `smtp.url must start with smtp:// or smtps://, not ${url.protocol}//`;
    host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    if (url.port) port ??= Number(url.port);
    secure ??= url.protocol === 'smtps:';
    if (url.username) user ??= decodeURIComponent(url.username);
  }
  if (!host) return 'smtp needs a server: set smtp.url or smtp.host';
  secure ??= false;
  port ??= secure ? 465 : 587;
  const { password } = smtp;
  if (password !== undefined && user === undefined) return 'a password is configured but no user; set smtp.user';
  if (user !== undefined && !password) return `smtp.user is set but no password; ${PASSWORD_HOWTO}`;
  return { host, port, secure, user, password, pool: smtp.pool ?? false };
}

/** The `smtp` option: its fields checked one by one, then together, and resolved to the server to use. */
export const SmtpOption = v.pipe(
  Fields,
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    const resolved = resolveSmtp(dataset.value);
    if (typeof resolved !== 'string') return resolved;
    addIssue({ message: resolved });
    return NEVER;
  }),
);
