// Messages per second through send_email (registry.dispatch, pooled SMTP) against
// nodemailer alone (pooled) sending the same messages to the same local server.
// Both run in this process, interleaved, so the ratio is what matters.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ToolRegistry } from '@toolshed/core';
import { createTransport } from 'nodemailer';
import { SMTPServer } from 'smtp-server';
import { createSendEmailTool } from '../dist/index.js';

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
const tool = createSendEmailTool(
  { from: 'bench@example.com', smtp: { host: '127.0.0.1', port, pool: true }, allow: ['example.com'] },
  { cwd },
);
// The bench measures sending, not approval: send_email is open-world, which core denies unless approved.
const registry = new ToolRegistry({ approve: 'allow-all' }).register(tool).seal();
const viaTool = async (i) => {
  const outcome = await registry.dispatch({ name: 'send_email', input: message(i) });
  if (!outcome.ok) throw new Error(outcome.error.message);
};

const transport = createTransport({ host: '127.0.0.1', port, pool: true, maxRequeues: 0 });
const alone = async (i) => {
  const { to, subject, body } = message(i);
  await transport.sendMail({ from: 'bench@example.com', to, subject, text: body });
};

// Warm up both (imports, pooled connections, JIT) before measuring.
await measure(viaTool);
await measure(alone);

const rates = { tool: [], alone: [] };
// Alternate which goes first, so neither always meets a warmer (or busier) server.
for (let round = 0; round < ROUNDS; round++) {
  if (round % 2 === 0) {
    rates.alone.push(await measure(alone));
    rates.tool.push(await measure(viaTool));
  } else {
    rates.tool.push(await measure(viaTool));
    rates.alone.push(await measure(alone));
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const tool_ = median(rates.tool);
const alone_ = median(rates.alone);
console.log(`send_email throughput, ${MESSAGES} messages x ${ROUNDS} rounds, ${IN_FLIGHT} in flight, pooled SMTP on 127.0.0.1`);
console.log(`  nodemailer alone:          ${alone_.toFixed(0)} msgs/s`);
console.log(`  send_email via dispatch:   ${tool_.toFixed(0)} msgs/s`);
console.log(`  ratio send_email/nodemailer: ${(tool_ / alone_).toFixed(2)} (target >= 0.80)`);

await tool.close();
transport.close();
await new Promise((resolve) => server.close(resolve));
await rm(cwd, { recursive: true, force: true });
