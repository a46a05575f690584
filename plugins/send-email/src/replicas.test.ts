// Several `toolshed serve --http --stateless` processes behind no balancer at all:
// each call goes to a random process. With a shared ledger, every call id still
// reaches the SMTP server once, whichever process gets it and however often.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from './harness.fixture.js';
import { messageIdFor } from './ledger.js';
import { POSTGRES_MISSING, startPostgres, type TestPostgres } from './postgres.fixture.js';
import { startSmtpServer, type TestSmtpServer } from './smtp-server.fixture.js';

// The built CLI: turbo builds it before this package's tests (see turbo.json).
const CLI = fileURLToPath(new URL('../../../packages/cli/bin/toolshed.cjs', import.meta.url));
const PLUGIN_DIR = fileURLToPath(new URL('..', import.meta.url));
const FROM = 'bot@example.com';
const PROCESSES = 3;
const UNIQUE = 150;
const REPEATS = 50;

let smtp: TestSmtpServer;
let project: string;
const children: ChildProcess[] = [];
const clients: Client[] = [];

beforeEach(async () => {
  smtp = await startSmtpServer();
  // A reply that takes a moment, so repeated call ids meet their first attempt still in flight.
  smtp.behaviour.afterData = { delayMs: 20 };
  project = await makeTempDir();
  await mkdir(join(project, 'node_modules', '@toolshed'), { recursive: true });
  await symlink(await realpath(PLUGIN_DIR), join(project, 'node_modules', '@toolshed', 'tool-send-email'), 'dir');
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await Promise.all(
    children
      .splice(0)
      .map((child) =>
        child.exitCode !== null || child.signalCode !== null
          ? undefined
          : new Promise((resolve) => (child.once('exit', resolve), child.kill('SIGTERM'))),
      ),
  );
  await smtp.close();
  await rm(project, { recursive: true, force: true });
});

/** Start one `toolshed serve --http --stateless --yes` in the project; its URL once it listens. */
function serve(env: NodeJS.ProcessEnv): Promise<string> {
  const child = spawn(process.execPath, [CLI, 'serve', '--http', '127.0.0.1:0', '--stateless', '--yes'], {
    cwd: project,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /serving \d+ tools? at (\S+)/.exec(out);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`toolshed serve exited with ${code}: ${err}`)));
  });
}

async function replicas(ledger: unknown, env: NodeJS.ProcessEnv = {}): Promise<Client[]> {
  const options = { from: FROM, smtp: { host: '127.0.0.1', port: smtp.port }, allow: ['example.com'], ledger };
  await writeFile(
    join(project, 'toolshed.config.json'),
    JSON.stringify({ plugins: [['@toolshed/tool-send-email', options]], discover: false }),
  );
  const urls = await Promise.all(Array.from({ length: PROCESSES }, () => serve(env)));
  for (const url of urls) {
    const client = new Client({ name: 'replicas-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    clients.push(client);
  }
  return [...clients];
}

/**
 * 200 concurrent calls, 50 of them repeating an earlier call id, each to a random
 * process; returns each call's id and result.
 */
async function storm(replicaClients: Client[]) {
  const ids = Array.from({ length: UNIQUE }, (_, i) => `call-${i}`);
  const calls = [...ids, ...Array.from({ length: REPEATS }, () => ids[Math.floor(Math.random() * UNIQUE)]!)];
  for (let i = calls.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [calls[i], calls[j]] = [calls[j]!, calls[i]!];
  }
  return Promise.all(
    calls.map(async (callId) => {
      const client = replicaClients[Math.floor(Math.random() * replicaClients.length)]!;
      const input = { to: 'alice@example.com', subject: `message ${callId}`, body: `Body of ${callId}.` };
      const result = await client.callTool({ name: 'send_email', arguments: input, _meta: { 'toolshed/callId': callId } }, undefined, {
        timeout: 120_000,
      });
      return { callId, result };
    }),
  );
}

function expectOncePerCallId(results: Awaited<ReturnType<typeof storm>>): void {
  const failed = results.filter((r) => r.result.isError);
  expect(failed.map((r) => JSON.stringify(r.result.content))).toEqual([]);
  // Exactly 150 messages, one per call id, each with the Message-ID derived from its id.
  const received = smtp.received.map((r) => r.mail.messageId).sort();
  expect(received).toHaveLength(UNIQUE);
  expect(received).toEqual(Array.from({ length: UNIQUE }, (_, i) => messageIdFor(FROM, `call-${i}`)).sort());
  // A repeat got the first attempt's result.
  const byId = new Map<string, string>();
  for (const { callId, result } of results) {
    const output = JSON.stringify(result.structuredContent);
    if (byId.has(callId)) expect(output).toBe(byId.get(callId));
    else byId.set(callId, output);
  }
}

describe('three stateless serve processes on one machine sharing the file ledger', { timeout: 180_000 }, () => {
  it('200 concurrent calls to random processes, 50 repeating an earlier call id: the server gets exactly 150 messages, none twice', async () => {
    expectOncePerCallId(await storm(await replicas({ kind: 'file' })));
  });
});

if (POSTGRES_MISSING) console.warn(`Skipping the PostgreSQL replicas test: ${POSTGRES_MISSING}`);

describe.skipIf(POSTGRES_MISSING)('three stateless serve processes sharing one PostgreSQL ledger', { timeout: 180_000 }, () => {
  let db: TestPostgres;
  beforeAll(async () => {
    db = await startPostgres();
  });
  afterAll(async () => {
    await db?.stop();
  });

  it('200 concurrent calls to random processes, 50 repeating an earlier call id: the server gets exactly 150 messages, none twice', async () => {
    // The URL comes from the environment through the host's {"env": NAME} reference, as a deployment would pass it.
    expectOncePerCallId(
      await storm(await replicas({ kind: 'postgres', url: { env: 'TOOLSHED_TEST_DATABASE_URL' } }, { TOOLSHED_TEST_DATABASE_URL: db.url })),
    );
  });
});
