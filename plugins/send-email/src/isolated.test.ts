// send_email run isolated: in its own process under the OS sandbox, with only what it declares
// and the config grants. SMTP leaves the sandbox only through its proxy.
import { readFileSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Outcome } from '@toolshed/core';
import { secretForms } from './harness.fixture.js';
import { isolatedHost, makeProject } from './isolated.fixture.js';
import { messageIdFor } from './ledger.js';
import { POSTGRES_MISSING, startPostgres, type TestPostgres } from './postgres.fixture.js';
import { startSmtpServer, type TestSmtpServer } from './smtp-server.fixture.js';

const FROM = 'bot@example.com';
const message = { to: 'alice@example.com', subject: 'Isolated', body: 'Hello from the sandbox.' };
let server: TestSmtpServer;
let cwd: string;
const closing: (() => Promise<void>)[] = [];

beforeEach(async () => {
  server = await startSmtpServer();
  cwd = await makeProject();
});
afterEach(async () => {
  for (const close of closing.splice(0)) await close();
  await server.close();
  await rm(cwd, { recursive: true, force: true });
});

function options(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    from: FROM,
    smtp: { host: '127.0.0.1', port: server.port },
    allow: ['example.com'],
    timeouts: { connectMs: 2000, greetingMs: 2000, socketMs: 2000 },
    ...extra,
  };
}
const grant = () => ({ net: [`127.0.0.1:${server.port}`], write: ['.toolshed/send-email', '.toolshed/outbox'] });

async function open(...args: Parameters<typeof isolatedHost>) {
  const made = await isolatedHost(...args);
  closing.push(() => made.host.close());
  return made;
}
function failure(outcome: Outcome): string {
  if (outcome.ok) throw new Error(`expected failure, got success: ${JSON.stringify(outcome.output)}`);
  return outcome.error.message;
}
function output(outcome: Outcome): unknown {
  if (!outcome.ok) throw new Error(`expected success, got ${outcome.error.code}: ${outcome.error.message}`);
  return outcome.output;
}

describe('send_email isolated', () => {
  it('sends over SMTP through the sandbox, recording the call in its ledger on the first run of a fresh project', async () => {
    const { host, send } = await open(cwd, options(), grant());
    expect(host.plugins[0]).toMatchObject({ status: 'loaded', isolated: true, permissions: { net: [`127.0.0.1:${server.port}`] } });
    const sent = output(await send(message, 'call-1'));
    expect(sent).toMatchObject({ messageId: messageIdFor(FROM, 'call-1'), accepted: ['alice@example.com'], delivery: { via: 'smtp' } });
    expect(server.received.map((r) => r.mail.messageId)).toEqual([messageIdFor(FROM, 'call-1')]);
    // The ledger is in the project, written from inside the sandbox: a retry answers from it.
    expect(readFileSync(join(cwd, '.toolshed/send-email/calls.jsonl'), 'utf8')).toContain('call-1');
    expect(output(await send(message, 'call-1'))).toEqual(sent);
    expect(server.received).toHaveLength(1);
  });

  it('writes to the outbox of a fresh project (the granted folder is made before the sandbox starts)', async () => {
    const { send } = await open(cwd, { allow: ['example.com'] }, { write: ['.toolshed/outbox', '.toolshed/send-email'] });
    const sent = output(await send(message, 'call-outbox')) as { delivery: { via: string; file: string } };
    const files = await readdir(join(cwd, '.toolshed/outbox'));
    expect(files).toHaveLength(1);
    expect(sent.delivery).toEqual({ via: 'outbox', file: `.toolshed/outbox/${files[0]!}` });
    expect(readFileSync(join(cwd, sent.delivery.file), 'utf8')).toContain('Hello from the sandbox.');
  });

  it('logs in with the password the host read from {"env": NAME}; no form of it leaves the host', async () => {
    server.behaviour.auth = { user: 'bot', pass: 'isolated-secret-9' };
    const smtp = { host: '127.0.0.1', port: server.port, user: 'bot', password: { env: 'SMTP_PASSWORD' } };
    const { host, send } = await open(cwd, options({ smtp }), grant(), { SMTP_PASSWORD: 'isolated-secret-9' });
    const outcome = await send(message, 'call-auth');
    output(outcome);
    expect(server.logins).toEqual([{ user: 'bot', pass: 'isolated-secret-9' }]);
    const reported = JSON.stringify({ outcome, plugins: host.plugins, warnings: host.warnings });
    for (const form of secretForms('bot', 'isolated-secret-9')) expect(reported).not.toContain(form);
  });

  it('lost reply (the connection drops after the whole content): in doubt, and a retry with the same call id sends nothing', async () => {
    server.behaviour.afterData = 'drop';
    const { send } = await open(cwd, options(), grant());
    const first = failure(await send(message, 'call-lost'));
    expect(first).toContain('may have been delivered');
    expect(first).toContain(messageIdFor(FROM, 'call-lost'));
    server.behaviour.afterData = undefined;
    expect(failure(await send(message, 'call-lost'))).toContain('may have been delivered');
    expect(server.received.map((r) => r.mail.messageId)).toEqual([messageIdFor(FROM, 'call-lost')]);
  });

  it('two hosts, each with send_email isolated, sending the same call ids at once: each id reaches the server once', async () => {
    server.behaviour.afterData = { delayMs: 15 };
    const a = await open(cwd, options(), grant());
    const b = await open(cwd, options(), grant());
    const rounds = 8;
    const outcomes = await Promise.all(
      Array.from({ length: rounds }, (_, i) => {
        const input = { ...message, subject: `round ${i}` };
        return Promise.all([a.send(input, `round-${i}`), b.send(input, `round-${i}`)]);
      }),
    );
    for (const [first, second] of outcomes) expect(output(first!)).toEqual(output(second!));
    const ids = server.received.map((r) => r.mail.messageId);
    expect(ids).toHaveLength(rounds);
    expect(new Set(ids).size).toBe(rounds);
  });
});

if (POSTGRES_MISSING) console.warn(`Skipping the isolated PostgreSQL ledger tests: ${POSTGRES_MISSING}`);

describe.skipIf(POSTGRES_MISSING)('send_email isolated, its ledger in PostgreSQL', () => {
  let db: TestPostgres;
  let tables = 0;
  beforeAll(async () => {
    db = await startPostgres();
  }, 60_000);
  afterAll(async () => {
    await db?.stop();
  });

  const dbPort = () => new URL(db.url).port;
  const ledger = () => ({ kind: 'postgres', url: { env: 'DATABASE_URL' }, table: `isolated_${++tables}` });
  const pgGrant = () => ({ ...grant(), net: [...grant().net, `127.0.0.1:${dbPort()}`] });

  it('does not load until the database host:port taken from the ledger URL is granted, saying the line to add', async () => {
    const failed = await isolatedHost(cwd, options({ ledger: ledger() }), grant(), { DATABASE_URL: db.url }).catch((error: Error) => error);
    expect(String(failed)).toContain(
      `it asks to connect to 127.0.0.1:${dbPort()}, which is not granted: add "127.0.0.1:${dbPort()}" to "net" in "plugins[0].grant" of toolshed.config.json`,
    );
  });

  it('sends, recording the call in its table through the sandbox; a retry answers from the row', async () => {
    const options_ = options({ ledger: ledger() });
    const { send } = await open(cwd, options_, pgGrant(), { DATABASE_URL: db.url });
    const sent = output(await send(message, 'call-pg'));
    const table = (options_.ledger as { table: string }).table;
    // The outcome is noted after the call answers (the ledger does not hold the reply for it).
    const state = async () => (await db.query<{ state: string }>(`SELECT state FROM ${table} WHERE call_id = 'call-pg'`))[0]?.state;
    for (let i = 0; i < 200 && (await state()) !== 'sent'; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await state()).toBe('sent');
    expect(output(await send(message, 'call-pg'))).toEqual(sent);
    expect(server.received).toHaveLength(1);
  });

  it('lost reply: in doubt, and a retry with the same call id sends nothing', async () => {
    server.behaviour.afterData = 'drop';
    const { send } = await open(cwd, options({ ledger: ledger() }), pgGrant(), { DATABASE_URL: db.url });
    expect(failure(await send(message, 'call-lost-pg'))).toContain('may have been delivered');
    server.behaviour.afterData = undefined;
    expect(failure(await send(message, 'call-lost-pg'))).toContain('may have been delivered');
    expect(server.received).toHaveLength(1);
  });

  it('two hosts sending the same call ids at once: each id reaches the server once, both get its outcome', async () => {
    server.behaviour.afterData = { delayMs: 15 };
    const shared = options({ ledger: ledger() });
    const a = await open(cwd, shared, pgGrant(), { DATABASE_URL: db.url });
    const b = await open(cwd, shared, pgGrant(), { DATABASE_URL: db.url });
    const rounds = 8;
    const outcomes = await Promise.all(
      Array.from({ length: rounds }, (_, i) => {
        const input = { ...message, subject: `round ${i}` };
        return Promise.all([a.send(input, `pg-round-${i}`), b.send(input, `pg-round-${i}`)]);
      }),
    );
    for (const [first, second] of outcomes) expect(output(first!)).toEqual(output(second!));
    expect(new Set(server.received.map((r) => r.mail.messageId)).size).toBe(rounds);
    expect(server.received).toHaveLength(rounds);
  });
});
