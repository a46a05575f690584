import { isRecord } from '@toolshed/core/contract';
import * as v from 'valibot';
import type { LedgerStore } from './call-record.js';
import { FileLedgerStore } from './file-store.js';
import { PostgresLedgerStore } from './postgres-store.js';

// PostgreSQL keeps 63 bytes of a name; the store quotes it, so key words (user, order) are fine.
const TABLE = /^[a-z_][a-z0-9_]{0,62}$/;
const SHAPES = 'a file path inside the project, {"kind": "file", "path"?} or {"kind": "postgres", "url", "table"?}';

type LedgerInput = string | { kind: 'file'; path?: string } | { kind: 'postgres'; url: string; table?: string };

/** What is wrong with a `ledger` option, worded to follow "ledger ", or undefined. */
function ledgerProblem(value: unknown): string | undefined {
  if (typeof value === 'string') return value === '' ? `must not be empty: give ${SHAPES}` : undefined;
  if (!isRecord(value)) return `must be ${SHAPES}`;
  const { kind, ...rest } = value;
  const extra = (allowed: string[]) => Object.keys(rest).find((key) => !allowed.includes(key));
  if (kind === 'file') {
    const unknown = extra(['path']);
    if (unknown) return `has "${unknown}", which a file ledger does not take (only "path")`;
    if (rest.path !== undefined && (typeof rest.path !== 'string' || rest.path === '')) return 'has a "path" that is not a file path';
    return undefined;
  }
  if (kind === 'postgres') {
    const unknown = extra(['url', 'table']);
    if (unknown) return `has "${unknown}", which a PostgreSQL ledger does not take (only "url" and "table")`;
    if (typeof rest.url !== 'string' || rest.url === '') {
      return 'needs "url": a PostgreSQL connection string (postgres://user@host:5432/db); write {"env": "DATABASE_URL"} in toolshed.config.json to take it from the environment';
    }
    return rest.table === undefined ? undefined : tableProblem(rest.table);
  }
  return `has "kind" ${JSON.stringify(kind) ?? 'missing'}: it must be "file" or "postgres"`;
}

/** What is wrong with a PostgreSQL ledger's `table`, or undefined. */
function tableProblem(table: unknown): string | undefined {
  if (typeof table !== 'string' || !TABLE.test(table)) {
    return (
      'has a "table" that is not a lower-case SQL name: give 1 to 63 lower-case letters, digits and _, not starting with a digit ' +
      '(such as send_email_calls); no schema, quotes, spaces or other characters'
    );
  }
  // An unqualified name is looked up in pg_catalog first, so pg_class would name the catalog, never the ledger.
  if (table.startsWith('pg_'))
    return `has "table" "${table}", which starts with pg_, the prefix of PostgreSQL's own catalogs: choose another name, such as send_email_calls`;
  return undefined;
}

/** The `ledger` option: a file path (the default store), or a store named by `kind`. */
export const LedgerOption = v.pipe(
  // Typed for callers; the check below does the work, as a check (not a schema) so that
  // the host and resolveConfig both show its own words.
  v.custom<LedgerInput>(() => true),
  v.check(
    (value) => ledgerProblem(value) === undefined,
    (issue) => ledgerProblem(issue.input) ?? `must be ${SHAPES}`,
  ),
);

export type LedgerConfig = { kind: 'file'; path: string } | { kind: 'postgres'; url: string; table: string };

export const DEFAULT_LEDGER_FILE = '.toolshed/send-email/calls.jsonl';

export function resolveLedger(option: LedgerInput | undefined): LedgerConfig {
  if (option === undefined) return { kind: 'file', path: DEFAULT_LEDGER_FILE };
  if (typeof option === 'string') return { kind: 'file', path: option };
  if (option.kind === 'file') return { kind: 'file', path: option.path ?? DEFAULT_LEDGER_FILE };
  return { kind: 'postgres', url: option.url, table: option.table ?? 'send_email_calls' };
}

/** The store a ledger option names; `root` is the project root file paths are inside of. */
export function openStore<T>(config: LedgerConfig, root: string): LedgerStore<T> {
  return config.kind === 'file' ? new FileLedgerStore<T>(root, config.path) : new PostgresLedgerStore<T>(config.url, config.table);
}
