// send_email run isolated: in its own process under the OS sandbox, with only what it declares
// and the config grants. SMTP leaves the sandbox only through its proxy.
import { existsSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Outcome } from '@toolshed/core';
import { isolatedHost, makeProject } from './isolated.fixture.js';
import { messageIdFor } from './ledger.js';
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
});
