// Each fault a send can meet, and what a retry with the same call id then does.
// The promise under test: every call id reaches the server at most once, and its
// outcome is the one the README states (sent / failed / in doubt).
import { appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FailureOutcome, Outcome, SuccessOutcome } from '@toolshed/core';
import { runChild } from './child-sender.fixture.js';
import { makeHarness, makeTempDir, type Harness } from './harness.fixture.js';
import { messageIdFor } from './ledger.js';
import type { SendEmailOptions } from './options.js';
import { freePort, startSmtpServer, type FakeBehaviour, type TestSmtpServer } from './smtp-server.fixture.js';

const FROM = 'bot@example.com';
let server: TestSmtpServer;
let harness: Harness | undefined;
let cwd: string;

beforeEach(async () => {
  server = await startSmtpServer();
  cwd = await makeTempDir();
});
afterEach(async () => {
  await harness?.dispose();
  harness = undefined;
  await server.close();
});

function options(extra: Partial<SendEmailOptions> = {}, port = server.port): SendEmailOptions {
  return {
    from: FROM,
    smtp: { host: '127.0.0.1', port },
    allow: ['example.com'],
    timeouts: { connectMs: 2000, greetingMs: 2000, socketMs: 2000 },
    ...extra,
  };
}
const message = { to: 'alice@example.com', subject: 'Fault matrix', body: 'Hello.' };

function success(outcome: Outcome): SuccessOutcome {
  if (!outcome.ok) throw new Error(`expected success, got ${outcome.error.code}: ${outcome.error.message}`);
  return outcome;
}
function failure(outcome: Outcome): FailureOutcome['error'] {
  if (outcome.ok) throw new Error(`expected failure, got success: ${JSON.stringify(outcome.output)}`);
  return outcome.error;
}
async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(check()).toBe(true);
}
const IN_DOUBT = 'may have been delivered';

type Case = [label: string, fault: FakeBehaviour, outcome: 'failed' | 'in_doubt', receivedByFirst: 0 | 1];
const cases: Case[] = [
  ['4xx at MAIL FROM', { refuseMailFrom: { code: 451, text: '4.3.0 Try again later' } }, 'failed', 0],
  ['5xx at RCPT TO', { refuseRcpt: () => ({ code: 550, text: '5.1.1 No such user' }) }, 'failed', 0],
  ['5xx after the content (final reply)', { refuseData: { code: 554, text: '5.7.1 Rejected' } }, 'failed', 0],
  ['drop before DATA (at RCPT TO)', { dropAtRcpt: true }, 'failed', 0],
  ['silent before DATA', { slowMailFromMs: 5000 }, 'failed', 0],
  ['drop during the content', { dropDuringData: true }, 'in_doubt', 0],
  ['drop after the whole content, before the reply', { afterData: 'drop' }, 'in_doubt', 1],
  ['silent after the whole content', { afterData: 'silent' }, 'in_doubt', 1],
];

describe.each([false, true])('fault matrix, pooled connection: %s', (pool) => {
  it.each(cases)(
    '%s: first attempt %s; a retry with the same call id sends at most once',
    async (_label, fault, outcome, receivedByFirst) => {
      Object.assign(server.behaviour, fault);
      harness = await makeHarness(
        options({ smtp: { host: '127.0.0.1', port: server.port, pool }, timeouts: { connectMs: 2000, greetingMs: 2000, socketMs: 300 } }),
        cwd,
      );
      const first = failure(await harness.send(message, 'call-1'));
      expect(first.code).toBe('execution_failed');
      expect(server.received).toHaveLength(receivedByFirst);
      for (const key of Object.keys(fault)) delete server.behaviour[key as keyof FakeBehaviour];

      const retry = await harness.send(message, 'call-1');
      const again = await harness.send(message, 'call-1');
      if (outcome === 'failed') {
        expect(first.message).not.toContain(IN_DOUBT);
        expect(success(retry).output).toEqual(success(again).output);
        expect(server.received).toHaveLength(1);
      } else {
        expect(first.message).toContain(IN_DOUBT);
        expect(first.message).toContain(messageIdFor(FROM, 'call-1'));
        expect(first.message).not.toMatch(/retry/i);
        expect(failure(retry).message).toContain(IN_DOUBT);
        expect(failure(again).message).toContain(IN_DOUBT);
        expect(server.received).toHaveLength(receivedByFirst);
      }
      // Whatever reached the server carries the Message-ID derived from the call id.
      for (const got of server.received) expect(got.mail.messageId).toBe(messageIdFor(FROM, 'call-1'));
    },
  );
});

describe('fault matrix, the rest', () => {
  it('SMTP down: failed, and the same call id is sent once when the server is back', async () => {
    const before = await makeHarness(options({}, await freePort()), cwd);
    expect(failure(await before.send(message, 'call-down')).message).toContain('ECONNREFUSED');
    await before.dispose();
    harness = await makeHarness(options(), cwd);
    const sent = success(await harness.send(message, 'call-down'));
    expect(success(await harness.send(message, 'call-down')).output).toEqual(sent.output);
    expect(server.received).toHaveLength(1);
  });

  it('caller gives up after the content: the send runs on to its reply, and a retry gets that first outcome', async () => {
    server.behaviour.afterData = { delayMs: 1000 };
    harness = await makeHarness(options(), cwd);
    const caller = new AbortController();
    const pending = harness.registry.dispatch({ name: 'send_email', callId: 'call-slow', input: message }, { signal: caller.signal });
    // The server has the whole message and has not replied yet: now the caller gives up.
    await until(() => server.received.length === 1);
    caller.abort();
    expect(failure(await pending).code).toBe('aborted');
    // A retry while the first is still out waits for it instead of sending.
    const retry = success(await harness.send(message, 'call-slow'));
    expect(retry.output).toMatchObject({ messageId: messageIdFor(FROM, 'call-slow') });
    // And after a restart, the ledger has it as sent.
    await harness.dispose();
    harness = await makeHarness(options(), cwd);
    expect(success(await harness.send(message, 'call-slow')).output).toEqual(retry.output);
    expect(server.received).toHaveLength(1);
  });

  it('caller timeout (the dispatch timeoutMs) while the server holds its reply: one message, and a retry gets its result', async () => {
    harness = await makeHarness(options(), cwd);
    success(await harness.send(message, 'call-warm')); // nodemailer loaded, so the content goes out well within the timeout
    server.behaviour.afterData = { delayMs: 1500 };
    const timedOut = await harness.registry.dispatch({ name: 'send_email', callId: 'call-timeout', input: message }, { timeoutMs: 500 });
    expect(failure(timedOut).code).toBe('timeout');
    // The message goes on to the server: the outcome says it may still be delivered, and to retry only under this call id.
    expect(failure(timedOut).message).toBe(
      'send_email did not finish within 500 ms and was stopped, but what it was doing may still have happened or may still happen: ' +
        'send_email acts outside the host and is not idempotent. Do not call it again as a new call: check whether it took effect first, ' +
        'and retry only with the same call id ("call-timeout").',
    );
    const retry = success(await harness.send(message, 'call-timeout'));
    expect(retry.output).toMatchObject({ messageId: messageIdFor(FROM, 'call-timeout') });
    expect(server.received.map((r) => r.mail.messageId)).toEqual([messageIdFor(FROM, 'call-warm'), messageIdFor(FROM, 'call-timeout')]);
  });

  it('caller timeout before DATA: the send is cancelled, recorded as failed, and the same call id is sent once later', async () => {
    server.behaviour.slowMailFromMs = 400;
    harness = await makeHarness(options(), cwd);
    const timedOut = await harness.registry.dispatch({ name: 'send_email', callId: 'call-early', input: message }, { timeoutMs: 100 });
    expect(failure(timedOut).code).toBe('timeout');
    server.behaviour.slowMailFromMs = undefined;
    let retried = await harness.send(message, 'call-early');
    for (let i = 0; i < 100 && !retried.ok; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      retried = await harness.send(message, 'call-early');
    }
    success(retried);
    success(await harness.send(message, 'call-early'));
    expect(server.received).toHaveLength(1);
  });

  it.each([
    ['after the content reached the server', { afterData: 'silent' } as FakeBehaviour, 1],
    ['before DATA', { slowMailFromMs: 60_000 } as FakeBehaviour, 0],
  ])('crash mid-send (the process is killed %s): a retry is in doubt and sends nothing', async (_label, fault, received) => {
    Object.assign(server.behaviour, fault);
    const sender = runChild({
      cwd,
      options: options({ timeouts: { connectMs: 60_000, greetingMs: 60_000, socketMs: 60_000 } }),
      calls: [{ callId: 'call-crash', input: message }],
    });
    await sender.ready;
    if (received) await until(() => server.received.length === 1);
    else await until(() => server.connectionCount() > 0);
    sender.child.kill('SIGKILL');
    expect(await sender.outcomes).toEqual([]);
    for (const key of Object.keys(fault)) delete server.behaviour[key as keyof FakeBehaviour];

    harness = await makeHarness(options(), cwd);
    const error = failure(await harness.send(message, 'call-crash'));
    expect(error.message).toContain(IN_DOUBT);
    expect(error.message).toContain('stopped before it recorded an outcome');
    expect(error.message).toContain(messageIdFor(FROM, 'call-crash'));
    expect(failure(await harness.send(message, 'call-crash')).message).toContain(IN_DOUBT);
    expect(server.received).toHaveLength(received);
  });

  it('torn and garbage ledger lines: later calls work, earlier outcomes still answer retries, damaged ids are in doubt', async () => {
    const before = await makeHarness(options(), cwd);
    const first = success(await before.send(message, 'call-early'));
    await before.dispose();
    const file = join(cwd, '.toolshed/send-email/calls.jsonl');
    await appendFile(file, 'null\n\u0000\u0001 not a record\n{"id":"call-torn","attempt":1,"sta');
    harness = await makeHarness(options(), cwd);
    const later = success(await harness.send(message, 'call-later'));
    expect(success(await harness.send(message, 'call-early')).output).toEqual(first.output);
    expect(failure(await harness.send(message, 'call-torn')).message).toContain(IN_DOUBT);
    await harness.dispose();
    harness = await makeHarness(options(), cwd);
    expect(success(await harness.send(message, 'call-later')).output).toEqual(later.output);
    expect(server.received.map((r) => r.mail.messageId)).toEqual([messageIdFor(FROM, 'call-early'), messageIdFor(FROM, 'call-later')]);
  });

  it('two processes sending the same call ids at the same moment: each id reaches the server once, both get its outcome (20 rounds)', async () => {
    server.behaviour.afterData = { delayMs: 15 };
    const rounds = 20;
    const calls = Array.from({ length: rounds }, (_, i) => ({ callId: `round-${i}`, input: { ...message, subject: `round ${i}` } }));
    const startAt = Date.now() + 1500;
    const children = [runChild({ cwd, options: options(), calls, startAt }), runChild({ cwd, options: options(), calls, startAt })];
    const [a, b] = await Promise.all(children.map((c) => c.outcomes));
    expect(a!.map((o) => success(o).output)).toEqual(b!.map((o) => success(o).output));
    const ids = server.received.map((r) => r.mail.messageId);
    expect(ids).toHaveLength(rounds);
    expect(new Set(ids).size).toBe(rounds);
  });
});
