import * as v from 'valibot';
import type { LedgerStore } from './call-record.js';
import { FileLedgerStore } from './file-store.js';
import { PostgresLedgerStore } from './postgres-store.js';

const TABLE = /^[a-z_][a-z0-9_]{0,62}$/;

/** The `ledger` option: a file path (the default store), or a store named by `kind`. */
export const LedgerOption = v.union([
  v.pipe(v.string(), v.nonEmpty()),
  v.variant('kind', [
    v.strictObject({ kind: v.literal('file'), path: v.optional(v.pipe(v.string(), v.nonEmpty())) }),
    v.strictObject({
      kind: v.literal('postgres'),
      /** A connection string; write `{"env": "DATABASE_URL"}` in toolshed.config.json to keep it out of the file. */
      url: v.pipe(v.string(), v.nonEmpty()),
      table: v.optional(v.pipe(v.string(), v.regex(TABLE, 'a lower-case SQL name such as send_email_calls'))),
    }),
  ]),
]);

export type LedgerConfig = { kind: 'file'; path: string } | { kind: 'postgres'; url: string; table: string };

export const DEFAULT_LEDGER_FILE = '.toolshed/send-email/calls.jsonl';

export function resolveLedger(option: v.InferOutput<typeof LedgerOption> | undefined): LedgerConfig {
  if (option === undefined) return { kind: 'file', path: DEFAULT_LEDGER_FILE };
  if (typeof option === 'string') return { kind: 'file', path: option };
  if (option.kind === 'file') return { kind: 'file', path: option.path ?? DEFAULT_LEDGER_FILE };
  return { kind: 'postgres', url: option.url, table: option.table ?? 'send_email_calls' };
}

/** The store a ledger option names; `root` is the project root file paths are inside of. */
export function openStore<T>(config: LedgerConfig, root: string): LedgerStore<T> {
  return config.kind === 'file' ? new FileLedgerStore<T>(root, config.path) : new PostgresLedgerStore<T>(config.url, config.table);
}
