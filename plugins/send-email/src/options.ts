import * as v from 'valibot';
import { LedgerOption } from './stores.js';

const Millis = v.pipe(v.number(), v.integer(), v.minValue(1));
const Count = v.pipe(v.number(), v.integer(), v.minValue(1));

// Worded to follow the option's path, as core prints it (`option smtp.passwordEnv: ...`). It does
// not quote the value given.
const PASSWORD_ENV_REMOVED =
  'is no longer an option: in toolshed.config.json write "password": {"env": "<the variable>"} in smtp instead ' +
  '(the host reads the variable); in code pass the password itself as smtp.password';

const Smtp = v.strictObject({
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

/** Host-side configuration of send_email; never shown to a model. */
export const SendEmailOptionsSchema = v.optional(
  v.strictObject({
    /** The sender of every message; the model cannot set it. */
    from: v.optional(v.pipe(v.string(), v.email())),
    smtp: v.optional(Smtp),
    /** Recipient addresses (`alice@example.com`) and domains (`example.com`) mail may go to. */
    allow: v.optional(v.array(v.pipe(v.string(), v.nonEmpty()))),
    limits: v.optional(
      v.strictObject({
        recipients: v.optional(Count),
        subjectChars: v.optional(Count),
        bodyChars: v.optional(Count),
      }),
    ),
    timeouts: v.optional(
      v.strictObject({
        connectMs: v.optional(Millis),
        greetingMs: v.optional(Millis),
        socketMs: v.optional(Millis),
      }),
    ),
    /** Folder for .eml files when no SMTP server is configured (relative to the host's cwd). */
    outbox: v.optional(v.pipe(v.string(), v.nonEmpty())),
    /** Where call ids are recorded so a retried call is not sent twice: a file path, or a store (see stores.ts). */
    ledger: v.optional(LedgerOption),
  }),
  {},
);

export type SendEmailOptions = v.InferInput<typeof SendEmailOptionsSchema>;
export type ParsedSendEmailOptions = v.InferOutput<typeof SendEmailOptionsSchema>;

export const DEFAULTS = {
  from: 'toolshed@localhost',
  outbox: '.toolshed/outbox',
  limits: { recipients: 20, subjectChars: 255, bodyChars: 100_000 },
  timeouts: { connectMs: 10_000, greetingMs: 10_000, socketMs: 30_000 },
} as const;
