import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CallLedger, fingerprintOf, messageIdFor } from './ledger.js';
import { startPgProxy, type PgProxy } from './pg-proxy.fixture.js';
import { PostgresLedgerStore } from './postgres-store.js';
import { POSTGRES_MISSING, startPostgres, type TestPostgres } from './postgres.fixture.js';

if (POSTGRES_MISSING) console.warn(`Skipping the PostgreSQL fault tests: ${POSTGRES_MISSING}`);

const never = new AbortController().signal;
let db: TestPostgres;
let proxy: PgProxy;
let table: string;
let tableNumber = 0;
const stores: PostgresLedgerStore<string>[] = [];

/** A promise that must settle: a generous limit, so a hang fails the test instead of the run (it measures nothing). */
function bounded<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} was still waiting after 20 s`)), 20_000);
  });
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer));
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.fail('expected a failure'),
    (e: unknown) => e as Error & { code: string },
  );

describe.skipIf(POSTGRES_MISSING)('the PostgreSQL ledger when the connection fails', () => {
  beforeAll(async () => {
    db = await startPostgres();
  }, 60_000);
  afterAll(async () => {
    await Promise.all(stores.map((s) => s.close()));
    await db?.stop();
  });
  beforeEach(async () => {
    table = `faults_${++tableNumber}`;
    proxy = await startPgProxy(db.url);
  });
  afterEach(async () => {
    await proxy.close();
  });

  /** A ledger (one process, as far as the ledger can tell) reaching the database through the proxy, or directly. */
  const open = (url = proxy.url) => {
    const store = new PostgresLedgerStore<string>(url, table);
    stores.push(store);
    return new CallLedger<string>(store, (id) => messageIdFor('bot@example.com', id));
  };
  const row = async (id: string) =>
    (await db.query(`SELECT attempt, state, owner FROM ${table} WHERE call_id = $1`, [id]))[0] as
      | { attempt: number; state: string; owner: { run: string; claim?: string } }
      | undefined;

  it('a claim that committed but whose reply was lost: the call says nothing was sent, and its retry here takes the claim over and sends once', async () => {
    const ledger = open();
    await ledger.run('warm', {}, async () => 'x', never); // creates the table through the proxy
    let sends = 0;
    const send = async (messageId: string) => `sent ${++sends} ${messageId}`;
    const lost = proxy.loseReplyTo('INSERT INTO', 'lost');
    const first = await failure(ledger.run('lost', { n: 1 }, send, never));
    await lost;
    expect(first.code).toBe('execution_failed');
    expect(first.message).toBe(
      `send_email could not record the call in its PostgreSQL table ${table} (an unexpected error (Error)). Nothing was sent; ` +
        'check that it is reachable and writable, or set the ledger option to another one, then retry with the same call id.',
    );
    // The claim is really in the database, as this process's: the reply alone was lost.
    const claimed = await row('lost');
    expect(claimed).toMatchObject({ attempt: 1, state: 'claimed' });
    expect(claimed?.owner.claim).toMatch(/^[0-9a-f-]{36}$/);
    const retry = await bounded(ledger.run('lost', { n: 1 }, send, never), 'the retry with the same call id');
    expect(retry).toBe(`sent 1 ${messageIdFor('bot@example.com', 'lost')}`);
    expect(sends).toBe(1);
    expect(await ledger.run('lost', { n: 1 }, send, never)).toBe(retry);
    await ledger.close();
    expect(await row('lost')).toMatchObject({ attempt: 2, state: 'sent' });
  });

  it('a sent message whose outcome never reached the database: a later retry here is in doubt at once, and sends nothing', async () => {
    const ledger = open();
    await ledger.run('warm', {}, async () => 'x', never);
    let sends = 0;
    const send = async () => `sent ${++sends}`;
    const lost = proxy.loseStatement(`UPDATE "${table}"`, 'unnoted');
    expect(await ledger.run('unnoted', { n: 1 }, send, never)).toBe('sent 1');
    await lost;
    await ledger.close(); // the outcome's write has failed by now
    const again = await failure(bounded(ledger.run('unnoted', { n: 1 }, send, never), 'the retry'));
    expect(again.message).toContain('may have been delivered: this process claimed it and could not record its outcome');
    expect(sends).toBe(1);
    expect(await row('unnoted')).toMatchObject({ attempt: 1, state: 'in_doubt' });
  });

  it('a retry whose own claim reply was lost, with another input, is refused and leaves the claim for the right retry', async () => {
    const ledger = open();
    await ledger.run('warm', {}, async () => 'x', never);
    let sends = 0;
    const send = async () => `sent ${++sends}`;
    const lost = proxy.loseReplyTo('INSERT INTO', 'mixed');
    await failure(ledger.run('mixed', { n: 1 }, send, never));
    await lost;
    expect((await failure(bounded(ledger.run('mixed', { n: 2 }, send, never), 'the other input'))).code).toBe('invalid_input');
    expect(await bounded(ledger.run('mixed', { n: 1 }, send, never), 'the retry')).toBe('sent 1');
    expect(sends).toBe(1);
  });

  it("never takes over another process's claim that is in flight, even after its own claim for that call id was lost", async () => {
    const mine = open();
    const other = open(db.url); // another process, straight to the database
    await mine.run('warm', {}, async () => 'x', never);
    // This process's claim never reaches the server; the other process claims and is sending.
    const lost = proxy.loseStatement('INSERT INTO', 'shared');
    await failure(mine.run('shared', { n: 1 }, async () => 'mine', never));
    await lost;
    expect(await row('shared')).toBeUndefined();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let sends = 0;
    const theirs = other.run(
      'shared',
      { n: 1 },
      async () => {
        sends++;
        await held;
        return 'theirs';
      },
      never,
    );
    while ((await row('shared'))?.state !== 'claimed') await new Promise((resolve) => setTimeout(resolve, 10));
    const waiting = await failure(mine.run('shared', { n: 1 }, async () => (sends++, 'mine'), AbortSignal.timeout(300)));
    expect(waiting.message).toContain('is being sent by another attempt');
    const answer = mine.run('shared', { n: 1 }, async () => (sends++, 'mine'), never);
    release();
    expect(await theirs).toBe('theirs');
    expect(await bounded(answer, 'the wait for the other process')).toBe('theirs');
    expect(sends).toBe(1);
  });

  it('a call waiting on another machine whose database goes away says the ledger could not be reached, and to retry with the same call id', async () => {
    const ledger = open();
    await ledger.run('warm', {}, async () => 'x', never);
    await db.query(
      `INSERT INTO ${table} (call_id, attempt, state, fingerprint, message_id, owner, at) VALUES ($1, 1, 'claimed', $2, $3, $4, 0)`,
      [
        'away',
        fingerprintOf({ n: 1 }),
        messageIdFor('bot@example.com', 'away'),
        JSON.stringify({ host: 'another-machine', pid: 7, run: 'r' }),
      ],
    );
    let sent = false;
    const waiting = failure(ledger.run('away', { n: 1 }, async () => ((sent = true), 'x'), never));
    await new Promise((resolve) => setTimeout(resolve, 200));
    await proxy.close();
    const error = await bounded(waiting, 'the waiting call');
    expect(error.code).toBe('execution_failed');
    expect(error.message).toBe(
      `send_email could not reach its PostgreSQL table ${table} (an unexpected error (Error ECONNREFUSED)) while waiting for the outcome of call id "away", ` +
        'which another attempt (process 7 on another-machine) is sending. This call sent nothing; that attempt may or may not deliver the message ' +
        `(Message-ID ${messageIdFor('bot@example.com', 'away')}). Retry later with the same call id to get its outcome; do not send it again under a new call id.`,
    );
    expect(error.message).not.toContain('127.0.0.1');
    expect(sent).toBe(false);
    expect(await row('away')).toMatchObject({ state: 'claimed' });
  });
});
