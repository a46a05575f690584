import { resolve } from 'node:path';
import { parseAllowList, type AllowList } from './allow.js';
import { DEFAULTS, type ParsedSendEmailOptions } from './options.js';
import { insideRoot } from './safe-file.js';
import type { SmtpConfig } from './smtp-option.js';
import { resolveLedger, type LedgerConfig } from './stores.js';

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

function fail(message: string): never {
  throw new Error(`send_email options: ${message}`);
}

/**
 * Resolve options the schema has checked (in core, once) against `cwd`: files stay inside the
 * project. Throws an Error that names the option at fault.
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
  return {
    from: o.from ?? DEFAULTS.from,
    smtp: o.smtp,
    allow: o.allow ? parseAllowList(o.allow) : undefined,
    limits: { ...DEFAULTS.limits, ...o.limits },
    timeouts: { ...DEFAULTS.timeouts, ...o.timeouts },
    cwd: resolve(cwd),
    outboxDir: resolve(cwd, o.outbox ?? DEFAULTS.outbox),
    ledger,
  };
}
