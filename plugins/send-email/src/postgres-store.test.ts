import { spawnSync } from 'node:child_process';
import { hostname } from 'node:os';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FailureOutcome, Outcome, SuccessOutcome } from '@toolshed/core';
import { makeHarness, type Harness } from './harness.fixture.js';
import { DeliveryInDoubt } from './in-doubt.js';
import { CallLedger, fingerprintOf, messageIdFor } from './ledger.js';
import { PostgresLedgerStore } from './postgres-store.js';
import { POSTGRES_MISSING, startPostgres, type TestPostgres } from './postgres.fixture.js';
import { startSmtpServer } from './smtp-server.fixture.js';

if (POSTGRES_MISSING) console.warn(`Skipping the PostgreSQL ledger tests: ${POSTGRES_MISSING}`);

const never = new AbortController().signal;
let db: TestPostgres;
let table: string;
let tableNumber = 0;
const stores: PostgresLedgerStore<string>[] = [];

describe.skipIf(POSTGRES_MISSING)('the PostgreSQL ledger store', () => {
  beforeAll(async () => {
    db = await startPostgres();
  });
  afterAll(async () => {
    await Promise.all(stores.map((s) => s.close()));
    await db?.stop();
  });
  beforeEach(() => {
    table = `calls_${++tableNumber}`;
  });

  const open = () => {
    const store = new PostgresLedgerStore<string>(db.url, table);
    stores.push(store);
    return new CallLedger<string>(store, (id) => messageIdFor('bot@example.com', id));
  };
  const rows = () =>
    db.query<{ call_id: string; attempt: number; state: string }>(`SELECT call_id, attempt, state FROM ${table} ORDER BY call_id`);
  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => expect.fail('expected a failure'),
      (e: unknown) => e as Error & { code: string },
    );

  it('creates its table, claims with INSERT … ON CONFLICT, and answers a retry (from another process too) without sending', async () => {
    const ledger = open();
    let sends = 0;
    const send = async (messageId: string) => `sent ${++sends} ${messageId}`;
    const first = await ledger.run('a', { n: 1 }, send, never);
    expect(await ledger.run('a', { n: 1 }, send, never)).toBe(first);
    expect(await open().run('a', { n: 1 }, send, never)).toBe(first);
    expect(sends).toBe(1);
    expect(await rows()).toEqual([{ call_id: 'a', attempt: 1, state: 'sent' }]);
  });

  it('lets a failed call be claimed again as the next attempt, refuses another input, never resends an in-doubt one', async () => {
    const ledger = open();
    await failure(ledger.run('f', { n: 1 }, async () => Promise.reject(new Error('4xx')), never));
    expect(await open().run('f', { n: 1 }, async () => 'second', never)).toBe('second');
    expect((await failure(open().run('f', { n: 2 }, async () => 'other', never))).code).toBe('invalid_input');
    await failure(ledger.run('d', { n: 1 }, async () => Promise.reject(new DeliveryInDoubt('no_final_reply', 'no final reply')), never));
    let sent = false;
    const error = await failure(open().run('d', { n: 1 }, async () => ((sent = true), 'x'), never));
    expect(error.message).toContain('may have been delivered');
    expect(error.message).toContain(messageIdFor('bot@example.com', 'd'));
    expect(sent).toBe(false);
    expect(await rows()).toEqual([
      { call_id: 'd', attempt: 1, state: 'in_doubt' },
      { call_id: 'f', attempt: 2, state: 'sent' },
    ]);
  });

  it('answers a same-call-id retry made the moment the first call returned with its result, while the database is slow to record it', async () => {
    const ledger = open();
    await ledger.run('warm', {}, async () => 'x', never); // creates the table
    // A busy database: each UPDATE statement (an outcome, not a claim's INSERT … ON CONFLICT) waits 200 ms before it touches a row.
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    await client.query(
      `CREATE FUNCTION ${table}_slow() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF current_query() ILIKE 'UPDATE%' THEN PERFORM pg_sleep(0.2); END IF; RETURN NULL; END $$`,
    );
    await client.query(`CREATE TRIGGER slow BEFORE UPDATE ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION ${table}_slow()`);
    await client.end();
    let sends = 0;
    for (let round = 0; round < 5; round++) {
      const send = async () => `round ${round} send ${++sends}`;
      const first = await ledger.run(`now-${round}`, { round }, send, never);
      // The retry gives up after 50 ms: it must not have to wait for the database to catch up.
      const again = await ledger.run(`now-${round}`, { round }, send, AbortSignal.timeout(50)).catch((e: Error) => e.message);
      expect(again).toBe(first);
    }
    await ledger.close();
    expect(sends).toBe(5);
    const states = (await rows()).filter((row) => row.call_id.startsWith('now-')).map((row) => row.state);
    expect(states).toEqual(Array.from({ length: 5 }, () => 'sent'));
  });

  it('two stores (two machines) racing the same call ids send each once, and both get its outcome (50 rounds)', async () => {
    const a = open();
    const b = open();
    let sends = 0;
    for (let round = 0; round < 50; round++) {
      const send = async () => {
        sends++;
        await new Promise((resolve) => setTimeout(resolve, 2));
        return `round ${round}`;
      };
      expect(await Promise.all([a.run(`r${round}`, { round }, send, never), b.run(`r${round}`, { round }, send, never)])).toEqual([
        `round ${round}`,
        `round ${round}`,
      ]);
    }
    expect(sends).toBe(50);
  });

  it('takes a claim whose process on this machine has stopped as in doubt, and waits on one from another machine', async () => {
    const ledger = open();
    await ledger.run('warm', {}, async () => 'x', never); // creates the table
    const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    const claim = (id: string, owner: unknown) =>
      client.query(
        `INSERT INTO ${table} (call_id, attempt, state, fingerprint, message_id, owner, at) VALUES ($1, 1, 'claimed', $2, $3, $4, 0)`,
        [id, fingerprintOf({ n: 1 }), messageIdFor('bot@example.com', id), JSON.stringify(owner)],
      );
    await claim('crashed', { host: hostname(), pid: dead, run: 'gone' });
    await claim('elsewhere', { host: 'another-machine', pid: 1, run: 'other' });
    await client.end();
    let sent = false;
    const crashed = await failure(ledger.run('crashed', { n: 1 }, async () => ((sent = true), 'x'), never));
    expect(crashed.message).toContain('stopped before it recorded an outcome');
    const waiting = await failure(ledger.run('elsewhere', { n: 1 }, async () => ((sent = true), 'x'), AbortSignal.timeout(300)));
    expect(waiting.message).toContain('is being sent by another attempt (process 1 on another-machine)');
    expect(sent).toBe(false);
  });

  it('reports an unreachable database as execution_failed naming the table, and sends nothing', async () => {
    const store = new PostgresLedgerStore<string>('postgres://toolshed:hunter2@127.0.0.1:1/postgres', 'calls');
    const ledger = new CallLedger<string>(store, (id) => messageIdFor('bot@example.com', id));
    let sent = false;
    const error = await failure(ledger.run('a', {}, async () => ((sent = true), 'x'), never));
    expect(error.code).toBe('execution_failed');
    expect(error.message).toContain('could not record the call in its PostgreSQL table calls');
    expect(error.message).toContain('Nothing was sent');
    expect(error.message).not.toContain('hunter2');
    expect(sent).toBe(false);
    await store.close();
  });

  it('serves the plugin through its ledger option, with mail going out once per call id', async () => {
    const server = await startSmtpServer();
    const harnesses: Harness[] = [];
    try {
      for (let i = 0; i < 2; i++) {
        harnesses.push(
          await makeHarness({
            from: 'bot@example.com',
            smtp: { host: '127.0.0.1', port: server.port },
            allow: ['example.com'],
            ledger: { kind: 'postgres', url: db.url, table },
          }),
        );
      }
      const input = { to: 'alice@example.com', subject: 'hi', body: 'once' };
      const outcomes = await Promise.all(harnesses.flatMap((h) => [h.send(input, 'call-pg'), h.send(input, 'call-pg')]));
      const outputs = outcomes.map((o: Outcome) => (o as SuccessOutcome).output);
      expect(outcomes.filter((o) => !o.ok).map((o) => (o as FailureOutcome).error.message)).toEqual([]);
      expect(new Set(outputs.map((o) => JSON.stringify(o))).size).toBe(1);
      expect(server.received).toHaveLength(1);
      const bad = await harnesses[0]!.send({ ...input, subject: 'another' }, 'call-pg');
      expect((bad as FailureOutcome).error.code).toBe('invalid_input');
    } finally {
      await Promise.all(harnesses.map((h) => h.dispose()));
      await server.close();
    }
  });
});
