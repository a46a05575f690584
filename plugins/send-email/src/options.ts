import * as v from 'valibot';
import { SmtpOption } from './smtp-option.js';
import { LedgerOption } from './stores.js';

const Count = v.pipe(v.number(), v.integer(), v.minValue(1));

/** Host-side configuration of send_email; never shown to a model. */
export const SendEmailOptionsSchema = v.optional(
  v.pipe(
    v.strictObject({
      /** The sender of every message; the model cannot set it. */
      from: v.optional(v.pipe(v.string(), v.email())),
      smtp: v.optional(SmtpOption),
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
          connectMs: v.optional(Count),
          greetingMs: v.optional(Count),
          socketMs: v.optional(Count),
        }),
      ),
      /** Folder for .eml files when no SMTP server is configured (relative to the host's cwd). */
      outbox: v.optional(v.pipe(v.string(), v.nonEmpty())),
      /** Where call ids are recorded so a retried call is not sent twice: a file path, or a store (see stores.ts). */
      ledger: v.optional(LedgerOption),
    }),
    v.forward(
      v.check(
        (options) => options.smtp === undefined || options.from !== undefined,
        'is required when smtp is configured: it is the fixed sender of every message',
      ),
      ['from'],
    ),
  ),
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
