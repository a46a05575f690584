// send_email through registry.dispatch (pooled SMTP) against nodemailer alone
// (pooled) sending the same messages to the same local smtp-server, with the
// default file ledger and, when PostgreSQL is installed, the PostgreSQL ledger; and send_email
// run isolated (its own process under the OS sandbox, SMTP through the sandbox's proxy) when
// the sandbox can run here.
// Each case is its own function in the same tinybench loop (vitest bench); one
// sample is a batch of 100 messages, 10 in flight. Target (bench/targets.json):
// the file ledger's batch <= 1.25x nodemailer's, i.e. >= 0.80 of its rate.
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ToolRegistry } from '@toolshed/core';
import { createHost } from '@toolshed/host';
import { createTransport } from 'nodemailer';
import { SMTPServer } from 'smtp-server';
import { bench, describe } from 'vitest';
import { createSendEmailTool } from '../dist/index.js';
import { postgresBin, startPostgres } from './postgres.js';

const BATCH = 100;
const IN_FLIGHT = 10;

const server = new SMTPServer({
  disabledCommands: ['STARTTLS', 'AUTH'],
  disableReverseLookup: true,
  logger: false,
  onData(stream, _session, callback) {
    stream.on('end', () => callback(null));
    stream.resume();
  },
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const { port } = server.server.address() as AddressInfo;

const message = (i: number) => ({
  to: ['alice@example.com', 'bob@example.com'],
  subject: `Benchmark message ${i}`,
  body: `Hello,\n\nThis is message number ${i}.\n`.repeat(20),
});

/** Send one batch, IN_FLIGHT at a time. */
let sent = 0;
async function batch(send: (i: number) => Promise<void>) {
  let left = BATCH;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (left-- > 0) await send(sent++);
    }),
  );
}

const cwd = await mkdtemp(join(tmpdir(), 'toolshed-send-email-bench-'));
const pgBin = postgresBin();
const pg = pgBin ? await startPostgres(pgBin) : undefined;

function viaTool(ledger?: { kind: 'postgres'; url: string }) {
  const tool = createSendEmailTool(
    { from: 'bench@example.com', smtp: { host: '127.0.0.1', port, pool: true }, allow: ['example.com'], ...(ledger ? { ledger } : {}) },
    { cwd },
  );
  const registry = new ToolRegistry({ approve: 'allow-all' }).register(tool).seal();
  const prefix = ledger ? 'pg' : 'file';
  const send = async (i: number) => {
    const outcome = await registry.dispatch({ name: 'send_email', input: message(i), callId: `${prefix}-${i}` });
    if (!outcome.ok) throw new Error(outcome.error.message);
  };
  return { send, close: () => tool.close?.() };
}

/** send_email as a project's toolshed.config.json runs it isolated; undefined (and said) when the sandbox cannot run. */
async function viaIsolatedHost() {
  const project = await mkdtemp(join(tmpdir(), 'toolshed-send-email-bench-isolated-'));
  await mkdir(join(project, 'node_modules', '@toolshed'), { recursive: true });
  await symlink(fileURLToPath(new URL('..', import.meta.url)), join(project, 'node_modules', '@toolshed', 'tool-send-email'));
  await writeFile(join(project, 'package.json'), '{"name": "bench", "private": true}');
  const options = { from: 'bench@example.com', smtp: { host: '127.0.0.1', port, pool: true }, allow: ['example.com'] };
  const grant = { net: [`127.0.0.1:${port}`], write: ['.toolshed/outbox', '.toolshed/send-email'] };
  const plugin = { plugin: '@toolshed/tool-send-email', isolate: true, options, grant };
  await writeFile(join(project, 'toolshed.config.json'), JSON.stringify({ plugins: [plugin] }));
  const remove = () => rm(project, { recursive: true, force: true });
  try {
    const host = await createHost({ cwd: project, registry: { approve: 'allow-all' } });
    const send = async (i: number) => {
      const outcome = await host.registry.dispatch({ name: 'send_email', input: message(i), callId: `isolated-${i}` });
      if (!outcome.ok) throw new Error(outcome.error.message);
    };
    return { send, close: () => host.close().finally(remove) };
  } catch (error) {
    console.log(`send_email isolated: not measured (${(error as Error).message.split('\n')[1]?.trim() ?? error})`);
    await remove();
    return undefined;
  }
}

const transport = createTransport({ host: '127.0.0.1', port, pool: true, maxRequeues: 0 });
const alone = async (i: number) => {
  const { to, subject, body } = message(i);
  await transport.sendMail({ from: 'bench@example.com', to, subject, text: body });
};
const fileTool = viaTool();
const pgTool = pg ? viaTool({ kind: 'postgres', url: pg.url }) : undefined;
const isolatedTool = await viaIsolatedHost();
if (!pg) console.log('PostgreSQL ledger: not measured (no PostgreSQL server programs under /usr/lib/postgresql)');

async function closeAll() {
  await Promise.all([fileTool.close(), pgTool?.close(), isolatedTool?.close()]);
  transport.close();
  await pg?.stop();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await rm(cwd, { recursive: true, force: true });
}

// Four rounds of the whole group, each case 5 batches a round: tinybench times a case's
// samples back to back, so each ratio is taken within one round and the report gives the
// median of the rounds' (scripts/bench-report.mjs); load on a shared machine comes and goes.
const ROUNDS = 4;
const options = { time: 0, iterations: 5, warmupTime: 0, warmupIterations: 1 };

for (let round = 1; round <= ROUNDS; round++) {
  const last = {
    ...options,
    teardown: async (_task: unknown, mode?: string) => (mode === 'run' && round === ROUNDS ? closeAll() : undefined),
  };
  describe(`send ${BATCH} messages, ${IN_FLIGHT} in flight, pooled SMTP on 127.0.0.1 (round ${round})`, () => {
    bench('floor: nodemailer alone', () => batch(alone), options);
    bench('send_email, file ledger', () => batch(fileTool.send), pgTool || isolatedTool ? options : last);
    if (pgTool) bench('send_email, PostgreSQL ledger', () => batch(pgTool.send), isolatedTool ? options : last);
    if (isolatedTool) bench('send_email isolated, file ledger', () => batch(isolatedTool.send), last);
  });
}
