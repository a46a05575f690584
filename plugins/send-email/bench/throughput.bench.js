// Messages per second through send_email (registry.dispatch, pooled SMTP) against
// nodemailer alone (pooled) sending the same messages to the same local server,
// with the default file ledger and, when PostgreSQL is installed, the PostgreSQL
// ledger. All run in this process, interleaved, so the ratios are what matter.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ToolRegistry } from '@toolshed/core';
import { createTransport } from 'nodemailer';
import { SMTPServer } from 'smtp-server';
import { createSendEmailTool } from '../dist/index.js';
import { postgresBin, startPostgres } from './postgres.js';

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 1000);
const IN_FLIGHT = 10;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);

const server = new SMTPServer({
  disabledCommands: ['STARTTLS', 'AUTH'],
  disableReverseLookup: true,
  logger: false,
  onData(stream, _session, callback) {
    stream.on('end', () => callback(null, 'Ok'));
    stream.resume();
  },
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const { port } = server.server.address();

const message = (i) => ({
  to: ['alice@example.com', 'bob@example.com'],
  subject: `Benchmark message ${i}`,
  body: `Hello,\n\nThis is message number ${i}.\n`.repeat(20),
});

/** Run `send(i)` for every message with IN_FLIGHT at a time; messages per second. */
async function measure(send) {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < MESSAGES) await send(next++);
    }),
  );
  return MESSAGES / ((performance.now() - started) / 1000);
}

const cwd = await mkdtemp(join(tmpdir(), 'toolshed-send-email-bench-'));
const pgBin = postgresBin();
const pg = pgBin ? await startPostgres(pgBin) : undefined;

function viaTool(ledger) {
  const tool = createSendEmailTool(
    { from: 'bench@example.com', smtp: { host: '127.0.0.1', port, pool: true }, allow: ['example.com'], ...(ledger ? { ledger } : {}) },
    { cwd },
  );
  const registry = new ToolRegistry({ approve: 'allow-all' }).register(tool).seal();
  let calls = 0;
  const send = async (i) => {
    const outcome = await registry.dispatch({ name: 'send_email', input: message(i), callId: `${ledger ? 'pg' : 'file'}-${calls++}` });
    if (!outcome.ok) throw new Error(outcome.error.message);
  };
  return { send, close: () => tool.close() };
}

const transport = createTransport({ host: '127.0.0.1', port, pool: true, maxRequeues: 0 });
const alone = async (i) => {
  const { to, subject, body } = message(i);
  await transport.sendMail({ from: 'bench@example.com', to, subject, text: body });
};
const fileTool = viaTool(undefined);
const pgTool = pg ? viaTool({ kind: 'postgres', url: pg.url }) : undefined;

const runs = [
  ['alone', alone],
  ['file', fileTool.send],
  ...(pgTool ? [['postgres', pgTool.send]] : []),
];
// Warm up each (imports, pooled connections, JIT, the table) before measuring.
for (const [, send] of runs) await measure(send);

const rates = Object.fromEntries(runs.map(([name]) => [name, []]));
// Rotate which goes first, so none always meets a warmer (or busier) server.
for (let round = 0; round < ROUNDS; round++) {
  for (let k = 0; k < runs.length; k++) {
    const [name, send] = runs[(round + k) % runs.length];
    rates[name].push(await measure(send));
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const [alone_, file_] = [median(rates.alone), median(rates.file)];
console.log(`send_email throughput, ${MESSAGES} messages x ${ROUNDS} rounds, ${IN_FLIGHT} in flight, pooled SMTP on 127.0.0.1`);
console.log(`  nodemailer alone:                 ${alone_.toFixed(0)} msgs/s`);
console.log(`  send_email, file ledger:          ${file_.toFixed(0)} msgs/s`);
console.log(`  ratio file ledger/nodemailer:     ${(file_ / alone_).toFixed(2)} (target >= 0.80)`);
if (pgTool) {
  const pg_ = median(rates.postgres);
  console.log(`  send_email, PostgreSQL ledger:    ${pg_.toFixed(0)} msgs/s`);
  console.log(`  ratio PostgreSQL/file ledger:     ${(pg_ / file_).toFixed(2)}`);
} else {
  console.log('  PostgreSQL ledger: not measured (no PostgreSQL server programs under /usr/lib/postgresql)');
}

await Promise.all([fileTool.close(), pgTool?.close()]);
transport.close();
await pg?.stop();
await new Promise((resolve) => server.close(resolve));
await rm(cwd, { recursive: true, force: true });
