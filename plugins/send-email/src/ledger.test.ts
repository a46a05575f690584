import { appendFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { CallRecord } from './call-record.js';
import { FileLedgerStore } from './file-store.js';
import { makeTempDir } from './harness.fixture.js';
import { DeliveryInDoubt } from './in-doubt.js';
import { CallLedger, fingerprintOf, messageIdFor } from './ledger.js';
import { decodeLine, encodeLine } from './ledger-line.js';

let dir: string;
const FILE = 'nested/calls.jsonl';
const never = new AbortController().signal;
beforeEach(async () => {
  dir = await makeTempDir();
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const open = () => new CallLedger<string>(new FileLedgerStore<string>(dir, FILE), (id) => messageIdFor('bot@example.com', id));
const text = () => readFile(join(dir, FILE), 'utf8');
const records = async () =>
  (await text())
    .split('\n')
    .filter(Boolean)
    .map((line) => decodeLine<string>(line))
    .map((d) => (d.kind === 'record' ? d.record : undefined));
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.fail('expected a failure'),
    (e: unknown) => e as Error & { code: string },
  );

it('claims, sends, records the outcome, and answers a retry from the record without sending', async () => {
  const ledger = open();
  let sends = 0;
  const send = async (messageId: string) => `sent ${++sends} as ${messageId}`;
  const first = await ledger.run('a', { n: 1 }, send, never);
  expect(first).toBe(`sent 1 as ${messageIdFor('bot@example.com', 'a')}`);
  expect(await ledger.run('a', { n: 1 }, send, never)).toBe(first);
  await ledger.close();
  const again = open();
  expect(await again.run('a', { n: 1 }, send, never)).toBe(first);
  await again.close();
  expect(sends).toBe(1);
  expect((await records()).map((r) => [r?.id, r?.attempt, r?.state])).toEqual([
    ['a', 1, 'claimed'],
    ['a', 1, 'sent'],
  ]);
});

it('derives the Message-ID from the call id and the sender domain: same id, same Message-ID', () => {
  expect(messageIdFor('bot@example.com', 'call-1')).toBe(messageIdFor('other@example.com', 'call-1'));
  expect(messageIdFor('bot@example.com', 'call-1')).not.toBe(messageIdFor('bot@example.com', 'call-2'));
  expect(messageIdFor('bot@example.com', 'call-1')).toMatch(/^<[0-9a-f]{32}\.send_email@example\.com>$/);
});

it('lets a failed call be sent again under the next attempt, and remembers the second outcome after a restart', async () => {
  const ledger = open();
  const error = await failure(ledger.run('a', { n: 1 }, async () => Promise.reject(new Error('server said no')), never));
  expect(error.message).toBe('server said no');
  expect(await ledger.run('a', { n: 1 }, async () => 'second try', never)).toBe('second try');
  await ledger.close();
  const reopened = open();
  expect(await reopened.run('a', { n: 1 }, async () => 'third', never)).toBe('second try');
  await reopened.close();
  expect((await records()).map((r) => [r?.attempt, r?.state])).toEqual([
    [1, 'claimed'],
    [1, 'failed'],
    [2, 'claimed'],
    [2, 'sent'],
  ]);
});

it('never sends an in-doubt call again, and says so with its Message-ID', async () => {
  const ledger = open();
  const lost = async () => Promise.reject(new DeliveryInDoubt('no_final_reply', 'the server gave no final reply'));
  const first = await failure(ledger.run('a', { n: 1 }, lost, never));
  let sent = false;
  const retry = await failure(ledger.run('a', { n: 1 }, async () => ((sent = true), 'x'), never));
  await ledger.close();
  const restarted = open();
  const later = await failure(restarted.run('a', { n: 1 }, async () => ((sent = true), 'x'), never));
  await restarted.close();
  expect(sent).toBe(false);
  for (const error of [first, retry, later]) {
    expect(error.code).toBe('execution_failed');
    expect(error.message).toContain('may have been delivered');
    expect(error.message).toContain('A person must check');
    expect(error.message).toContain(messageIdFor('bot@example.com', 'a'));
  }
});

it('writes only the class of an unknown error to the ledger, never its text: a marker in its message, stack, cause, name or code stays out', async () => {
  const MARKER = 'sk_live_MARKER_9f3c2a';
  const errors = [
    new Error(`upstream said: password=${MARKER}`),
    Object.assign(new TypeError(`bad ${MARKER}`), { code: 'ERR_INVALID_ARG_TYPE', cause: new Error(MARKER) }),
    Object.assign(new Error('x'), { name: `${MARKER}Error`, code: MARKER }),
    Object.assign(new Error('y'), { code: 'ECONNRESET', detail: MARKER }),
    MARKER,
    { message: MARKER },
  ];
  const ledger = open();
  const waiter = open();
  const seen: string[] = [];
  for (const [i, thrown] of errors.entries()) {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const first = failure(ledger.run(`u${i}`, {}, async () => (await held, Promise.reject(thrown)), never));
    // Another ledger (another process) waits on the claim and is told how the attempt ended.
    await new Promise((resolve) => setTimeout(resolve, 20));
    const second = failure(waiter.run(`u${i}`, {}, async () => 'never', never));
    await new Promise((resolve) => setTimeout(resolve, 20));
    release();
    expect(await first).toBe(thrown); // the caller still gets its own error
    seen.push((await second).message);
  }
  await Promise.all([ledger.close(), waiter.close()]);
  const file = await text();
  expect(file).not.toContain(MARKER);
  expect(file.toLowerCase()).not.toContain('marker');
  for (const message of seen) expect(message).not.toContain(MARKER);
  expect(seen[0]).toContain('send_email failed with an unexpected error (Error).');
  expect(seen[1]).toContain('an unexpected error (TypeError ERR_INVALID_ARG_TYPE)');
  expect(seen[2]).toContain('send_email failed with an unexpected error.');
  expect(seen[4]).toContain('send_email failed with an unexpected error.');
  expect(seen[3]).toContain('an unexpected error (Error ECONNRESET)');
  expect((await records()).filter((r) => r?.state === 'failed')).toHaveLength(errors.length);
});

it('refuses a call id reused with different input, before sending', async () => {
  const ledger = open();
  await ledger.run('a', { n: 1 }, async () => 'first', never);
  let sent = false;
  const error = await failure(ledger.run('a', { n: 2 }, async () => ((sent = true), 'x'), never));
  expect(error.code).toBe('invalid_input');
  expect(error.message).toContain('"a" was already used for a different message');
  expect(sent).toBe(false);
  await ledger.close();
});

it('reports a ledger that cannot be made as execution_failed naming its project-relative path, and sends nothing', async () => {
  await writeFile(join(dir, 'nested'), 'a file where the folder should be');
  const ledger = open();
  let sent = false;
  const error = await failure(ledger.run('a', {}, async () => ((sent = true), 'x'), never));
  expect(error.code).toBe('execution_failed');
  expect(error.message).toContain('ledger file nested/calls.jsonl');
  expect(error.message).not.toContain(dir);
  expect(sent).toBe(false);
  await ledger.close();
});

it('claims each of many concurrent calls before its send, and a restart knows them all', async () => {
  const ledger = open();
  const claimedAtSend: boolean[] = [];
  const ids = Array.from({ length: 50 }, (_, i) => `c${i}`);
  await Promise.all(
    ids.map((id) =>
      ledger.run(
        id,
        { id },
        async () => {
          // The claim must be in the file before the message goes out.
          claimedAtSend.push((await records()).some((r) => r?.id === id && r.state === 'claimed'));
          return `sent ${id}`;
        },
        never,
      ),
    ),
  );
  await ledger.close();
  expect(claimedAtSend).toEqual(ids.map(() => true));
  const written = await records();
  expect(written).toHaveLength(100);
  expect(new Set(written.map((r) => r?.id))).toEqual(new Set(ids));

  const restarted = open();
  let sends = 0;
  expect(await restarted.run('c7', { id: 'c7' }, async () => `again ${++sends}`, never)).toBe('sent c7');
  expect(sends).toBe(0);
  await restarted.close();
});

function record(id: string, state: 'sent' | 'failed', input: unknown = { n: 1 }): CallRecord<string> {
  const base = {
    id,
    attempt: 1,
    fingerprint: fingerprintOf(input),
    messageId: messageIdFor('bot@example.com', id),
    owner: undefined,
    at: 1,
  };
  return state === 'sent'
    ? { ...base, state, output: `first ${id}` }
    : { ...base, state, error: { code: 'execution_failed', message: 'refused' } };
}

it('starts a new record on a fresh line after a torn one, and takes the torn call id as in doubt', async () => {
  const torn = encodeLine(record('cut', 'sent'));
  await open().run('before', { n: 1 }, async () => 'first before', never);
  await appendFile(join(dir, FILE), torn.slice(0, 40));
  const ledger = open();
  let sends = 0;
  const send = async () => `sent ${++sends}`;
  // The torn record names "cut": it may have been sent, so it is not sent now.
  const error = await failure(ledger.run('cut', { n: 1 }, send, never));
  expect(error.message).toContain('may have been delivered');
  expect(error.message).toContain('is damaged');
  expect(await ledger.run('after', { n: 1 }, send, never)).toBe('sent 1');
  await ledger.close();
  // Nothing glued: the torn line stays alone, the records on either side read back.
  const lines = (await text()).split('\n');
  expect(lines).toContain(torn.slice(0, 40));
  const reopened = open();
  expect(await reopened.run('before', { n: 1 }, send, never)).toBe('first before');
  expect(await reopened.run('after', { n: 1 }, send, never)).toBe('sent 1');
  expect((await failure(reopened.run('cut', { n: 1 }, send, never))).message).toContain('may have been delivered');
  await reopened.close();
  expect(sends).toBe(1);
});

it('skips garbage lines (null, bad checksums, glued records, binary) without losing the records around them', async () => {
  const good = encodeLine(record('good', 'sent'));
  const flipped = encodeLine(record('flipped', 'sent')).replace('first flipped', 'first FLIPPED');
  const glued = encodeLine(record('glued-a', 'sent')).trimEnd() + encodeLine(record('glued-b', 'sent'));
  await mkdir(join(dir, 'nested'));
  await writeFile(
    join(dir, FILE),
    ['null\n', good, '\u0000\u00ff garbage \u0007\n', flipped, '{"id":5}\n', glued, '[]\n', 'v1 9999999999 zz x\n'].join(''),
  );
  const ledger = open();
  let sends = 0;
  const send = async () => `sent ${++sends}`;
  expect(await ledger.run('good', { n: 1 }, send, never)).toBe('first good');
  for (const id of ['flipped', 'glued-a', 'glued-b']) {
    expect((await failure(ledger.run(id, { n: 1 }, send, never))).message).toContain('may have been delivered');
  }
  // A call id the damage does not name is sent normally, and the `null` line breaks nothing.
  expect(await ledger.run('fresh', { n: 1 }, send, never)).toBe('sent 1');
  expect(await ledger.run('fresh', { n: 1 }, send, never)).toBe('sent 1');
  await ledger.close();
  expect(sends).toBe(1);
});

it('reads the JSON Lines of send_email 1.0: done is sent, pending is in doubt, failed may be retried', async () => {
  const input = fingerprintOf({ n: 1 });
  await mkdir(join(dir, 'nested'));
  await writeFile(
    join(dir, FILE),
    [
      { id: 'old-done', state: 'done', input, output: 'old output' },
      { id: 'old-pending', state: 'pending', input },
      { id: 'old-failed', state: 'failed' },
    ]
      .map((e) => `${JSON.stringify(e)}\n`)
      .join(''),
  );
  const ledger = open();
  let sends = 0;
  const send = async () => `sent ${++sends}`;
  expect(await ledger.run('old-done', { n: 1 }, send, never)).toBe('old output');
  expect((await failure(ledger.run('old-pending', { n: 1 }, send, never))).message).toContain('may have been delivered');
  expect(await ledger.run('old-failed', { n: 1 }, send, never)).toBe('sent 1');
  await ledger.close();
  expect(sends).toBe(1);
});

it('two ledgers on one file (as two processes have) racing one call id send it once, 50 rounds', async () => {
  const a = open();
  const b = open();
  let sends = 0;
  for (let round = 0; round < 50; round++) {
    const send = async () => {
      sends++;
      await new Promise((resolve) => setTimeout(resolve, 2));
      return `round ${round}`;
    };
    const outcomes = await Promise.all([a.run(`r${round}`, { round }, send, never), b.run(`r${round}`, { round }, send, never)]);
    expect(outcomes).toEqual([`round ${round}`, `round ${round}`]);
  }
  expect(sends).toBe(50);
  await Promise.all([a.close(), b.close()]);
});

it('waits for a last line another process is still writing instead of taking it as damaged', async () => {
  await open().run('before', { n: 1 }, async () => 'first before', never);
  const base = {
    id: 'live',
    attempt: 1,
    fingerprint: fingerprintOf({ n: 1 }),
    messageId: messageIdFor('bot@example.com', 'live'),
    owner: { host: 'elsewhere', pid: 1, run: 'other' },
    at: 1,
  };
  const claim = encodeLine({ ...base, state: 'claimed' });
  await appendFile(join(dir, FILE), claim.slice(0, 60)); // through the call id
  const rest = new Promise((resolve) => setTimeout(resolve, 10)).then(() => appendFile(join(dir, FILE), claim.slice(60)));
  const outcome = new Promise((resolve) => setTimeout(resolve, 150)).then(() =>
    appendFile(join(dir, FILE), encodeLine({ ...base, state: 'sent', output: 'their output' })),
  );
  const ledger = open();
  let sends = 0;
  expect(await ledger.run('live', { n: 1 }, async () => `sent ${++sends}`, never)).toBe('their output');
  await Promise.all([rest, outcome, ledger.close()]);
  expect(sends).toBe(0);
});
