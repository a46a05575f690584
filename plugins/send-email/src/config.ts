import { resolve } from 'node:path';
import { parseAllowList, type AllowList } from './allow.js';
import { DEFAULTS, type ParsedSendEmailOptions } from './options.js';
import { insideRoot } from './safe-file.js';
import { resolveLedger, type LedgerConfig } from './stores.js';

export interface SmtpConfig {
  host: string;
  port: number;
  secure: boolean;
  user: string | undefined;
  password: string | undefined;
  pool: boolean;
}

/** Options checked and resolved once, when the tool is made. */
export interface SendEmailConfig {
  from: string;
  smtp: SmtpConfig | undefined;
  allow: AllowList | undefined;
  limits: { recipients: number; subjectChars: number; bodyChars: number };
  timeouts: { connectMs: number; greetingMs: number; socketMs: number };
  /** The host's project root: paths shown to a model are relative to it. */
  cwd: string;
  outboxDir: string;
  ledger: LedgerConfig;
}

// The one way a secret comes in: the host resolves {"env": NAME} before the plugin sees its options.
const PASSWORD_HOWTO =
  'set smtp.password: in toolshed.config.json as {"env": "SMTP_PASSWORD"} (the host reads the variable), in code as the password itself';

function fail(message: string): never {
  throw new Error(`send_email options: ${message}`);
}

/**
 * Resolve options the schema has parsed (in core, once): paths against `cwd`, and the rules
 * between fields. Throws an Error that names the option at fault and never quotes a password.
 */
export function resolveConfig(o: ParsedSendEmailOptions, cwd: string): SendEmailConfig {
  // Files are written only inside the project (see safe-file.ts); say so when the options are read.
  if (o.outbox !== undefined && !insideRoot(cwd, o.outbox)) {
    fail(
      `outbox ${JSON.stringify(o.outbox)} is outside the project root; the outbox must be a folder inside the project, such as ".toolshed/outbox".`,
    );
  }
  const ledger = resolveLedger(o.ledger);
  if (ledger.kind === 'file' && !insideRoot(cwd, ledger.path)) {
    fail(
      `ledger ${JSON.stringify(ledger.path)} is outside the project root; the ledger must be a file inside the project, such as ".toolshed/send-email/calls.jsonl".`,
    );
  }
  const smtp = o.smtp ? resolveSmtp(o.smtp) : undefined;
  if (smtp && !o.from) fail('"from" is required when smtp is configured: it is the fixed sender of every message.');
  return {
    from: o.from ?? DEFAULTS.from,
    smtp,
    allow: o.allow ? parseAllowList(o.allow) : undefined,
    limits: { ...DEFAULTS.limits, ...o.limits },
    timeouts: { ...DEFAULTS.timeouts, ...o.timeouts },
    cwd: resolve(cwd),
    outboxDir: resolve(cwd, o.outbox ?? DEFAULTS.outbox),
    ledger,
  };
}

type SmtpOptions = NonNullable<ParsedSendEmailOptions['smtp']>;

function resolveSmtp(smtp: SmtpOptions): SmtpConfig {
  let host = smtp.host;
  let port = smtp.port;
  let secure = smtp.secure;
  let user = smtp.user;
  if (smtp.url !== undefined) {
    if (smtp.host !== undefined) fail('give smtp.url or smtp.host, not both.');
    let url: URL;
    try {
      url = new URL(smtp.url);
    } catch {
      fail('smtp.url is not a URL; write it like smtp://user@mail.example.com:587.');
    }
    if (url.password) {
      fail(`smtp.url contains a password; remove it from the URL and ${PASSWORD_HOWTO}.`);
    }
    if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') {
      fail(`smtp.url must start with smtp:// or smtps://, not ${url.protocol}//.`);
    }
    host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    if (url.port) port ??= Number(url.port);
    secure ??= url.protocol === 'smtps:';
    if (url.username) user ??= decodeURIComponent(url.username);
  }
  if (!host) fail('smtp needs a server: set smtp.url or smtp.host.');
  secure ??= false;
  port ??= secure ? 465 : 587;

  const password = smtp.password;
  if (password !== undefined && user === undefined) fail('a password is configured but no user; set smtp.user.');
  if (user !== undefined && !password) fail(`smtp.user is set but no password; ${PASSWORD_HOWTO}.`);
  return { host, port, secure, user, password, pool: smtp.pool ?? false };
}
