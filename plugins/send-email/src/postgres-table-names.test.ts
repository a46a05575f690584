import { createHost } from '@toolshed/host';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FailureOutcome, SuccessOutcome } from '@toolshed/core';
import { makeHostHarness } from './harness.fixture.js';
import plugin from './index.js';
import { POSTGRES_MISSING, startPostgres, type TestPostgres } from './postgres.fixture.js';
import { startSmtpServer, type TestSmtpServer } from './smtp-server.fixture.js';

if (POSTGRES_MISSING) console.warn(`Skipping the PostgreSQL table name tests: ${POSTGRES_MISSING}`);

let db: TestPostgres;
let smtp: TestSmtpServer;

/** Every relation outside PostgreSQL's own schemas, with its row count: what a refused name must leave as it was. */
async function everything(): Promise<string> {
  const relations = await db.query(
    `SELECT n.nspname, c.relname, c.relkind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname NOT IN ('pg_catalog', 'information_schema', 'pg_toast') ORDER BY 1, 2`,
  );
  const counts = await db.query(`SELECT count(*)::int AS rows FROM send_email_calls`);
  return JSON.stringify({ relations, counts });
}

const options = (table: unknown) => ({
  from: 'bot@example.com',
  smtp: { host: '127.0.0.1', port: smtp.port },
  allow: ['example.com'],
  ledger: { kind: 'postgres', url: { env: 'DATABASE_URL' }, table },
});

const LOWER_CASE =
  'has a "table" that is not a lower-case SQL name: give 1 to 63 lower-case letters, digits and _, not starting with a digit';
const refused: [string, unknown, string][] = [
  ['a catalog name', 'pg_class', `has "table" "pg_class", which starts with pg_, the prefix of PostgreSQL's own catalogs`],
  ["a name in the catalogs' prefix", 'pg_send_email', `has "table" "pg_send_email", which starts with pg_`],
  ['upper case', 'Calls', LOWER_CASE],
  ['a quoted name', '"calls"', LOWER_CASE],
  ['a quote that ends the name', 'calls"; DROP TABLE send_email_calls; --', LOWER_CASE],
  ['a statement after the name', 'calls; DELETE FROM send_email_calls', LOWER_CASE],
  ['a comment', 'calls--', LOWER_CASE],
  ['a schema-qualified name', 'public.send_email_calls', LOWER_CASE],
  ['a space', 'send email', LOWER_CASE],
  ['a leading digit', '1calls', LOWER_CASE],
  ['a letter outside ASCII', 'cälls', LOWER_CASE],
  ['a NUL', 'calls\u0000', LOWER_CASE],
  ['64 characters, longer than PostgreSQL keeps', 'a'.repeat(64), LOWER_CASE],
  ['an empty name', '', LOWER_CASE],
  ['a number', 42, LOWER_CASE],
];

describe.skipIf(POSTGRES_MISSING)('the PostgreSQL ledger table name', () => {
  beforeAll(async () => {
    [db, smtp] = await Promise.all([startPostgres(), startSmtpServer()]);
    // Something to lose: a ledger with a row in the default table.
    await db.query(`CREATE TABLE send_email_calls (call_id text PRIMARY KEY)`);
    await db.query(`INSERT INTO send_email_calls VALUES ('keep me')`);
  }, 60_000);
  afterAll(async () => {
    await smtp?.close();
    await db?.stop();
  });

  it.each(['user', 'order', 'select', 'table', 'a'.repeat(63)])(
    'takes %s, which SQL reserves or which is as long as a name can be, as a ledger table',
    async (table) => {
      const before = smtp.received.length;
      const harness = await makeHostHarness(options(table), { DATABASE_URL: db.url });
      try {
        const input = { to: 'alice@example.com', subject: `table ${table.slice(0, 10)}`, body: 'once' };
        const first = await harness.send(input, `call-${table}`);
        expect((first as FailureOutcome).error?.message).toBeUndefined();
        const again = await harness.send(input, `call-${table}`);
        expect((again as SuccessOutcome).output).toEqual((first as SuccessOutcome).output);
        expect(smtp.received.length - before).toBe(1);
      } finally {
        await harness.dispose();
      }
      expect(await db.query(`SELECT call_id, state FROM ${pg.escapeIdentifier(table)}`)).toEqual([
        { call_id: `call-${table}`, state: 'sent' },
      ]);
    },
  );

  it.each(refused)(
    'refuses %s when the host loads the plugin, naming the option, and changes nothing in the database',
    async (_label, table, said) => {
      const before = await everything();
      const error = (await createHost({
        plugins: [[plugin, options(table)]],
        env: { DATABASE_URL: db.url },
        cwd: '/project',
      } as never).catch((e: unknown) => e)) as Error;
      expect(error.message).toContain('@toolshed/tool-send-email [options]');
      expect(error.message).toContain(`option ledger: ${said}`);
      expect(error.message).not.toContain(db.url);
      expect(await everything()).toBe(before);
      expect(await db.query(`SELECT call_id FROM send_email_calls`)).toEqual([{ call_id: 'keep me' }]);
    },
  );

  it('refuses every relation name PostgreSQL itself searches first (pg_catalog), because each starts with pg_', async () => {
    const names = (await db.query(`SELECT relname FROM pg_class WHERE relnamespace = 'pg_catalog'::regnamespace`)).map(
      (r) => r.relname as string,
    );
    expect(names.length).toBeGreaterThan(50);
    expect(names.filter((name) => /^[a-z_][a-z0-9_]{0,62}$/.test(name) && !name.startsWith('pg_'))).toEqual([]);
  });
});
