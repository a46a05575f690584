import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Outcome } from '@toolshed/core';
import type { SendEmailOptions } from './options.js';

const DIST = fileURLToPath(new URL('../dist/index.js', import.meta.url));
const PLUGIN_DIR = fileURLToPath(new URL('..', import.meta.url));

// Runs in a separate Node process on the built plugin: waits until `startAt`, then
// dispatches each call in order and prints every outcome as one JSON line.
const SCRIPT = `
import { ToolRegistry } from '@toolshed/core';
import { createSendEmailTool } from ${JSON.stringify(DIST)};
const job = JSON.parse(process.argv[1]);
const tool = createSendEmailTool(job.options, { cwd: job.cwd });
const registry = new ToolRegistry({ approve: 'allow-all' }).register(tool).seal();
process.stdout.write('ready\\n');
await new Promise((resolve) => setTimeout(resolve, Math.max(0, job.startAt - Date.now())));
for (const call of job.calls) {
  const outcome = await registry.dispatch({ name: 'send_email', callId: call.callId, input: call.input });
  process.stdout.write(JSON.stringify(outcome) + '\\n');
}
await tool.close();
`;

export interface ChildJob {
  cwd: string;
  options: SendEmailOptions;
  calls: { callId: string; input: unknown }[];
  /** Epoch milliseconds at which to start dispatching, so several children start together. */
  startAt?: number;
  /** Extra environment for the child (read at its start, such as NODE_EXTRA_CA_CERTS). */
  env?: Record<string, string>;
}

export interface ChildSender {
  child: ChildProcess;
  /** Resolves once the tool is made and the child waits for startAt. */
  ready: Promise<void>;
  /** Every outcome, once the child exits. */
  outcomes: Promise<Outcome[]>;
}

/** Run send_email calls in another Node process (the built plugin in dist/). */
export function runChild({ env, ...job }: ChildJob): ChildSender {
  const child = spawn(process.execPath, ['--input-type=module', '-e', SCRIPT, JSON.stringify({ startAt: 0, ...job })], {
    cwd: PLUGIN_DIR,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  child.stdout!.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    if (out.startsWith('ready\n')) markReady();
  });
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const outcomes = new Promise<Outcome[]>((resolve, reject) => {
    child.on('exit', (code, signal) => {
      markReady();
      if (code !== 0 && signal === null) return reject(new Error(`child sender exited with ${code}: ${err}`));
      resolve(
        out
          .split('\n')
          .slice(1)
          .filter(Boolean)
          .map((line) => JSON.parse(line) as Outcome),
      );
    });
  });
  return { child, ready, outcomes };
}
