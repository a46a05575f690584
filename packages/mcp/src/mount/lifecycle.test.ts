import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { alive, packageDir, scratch, until, type Scratch } from './mount.fixture.js';

const parentScript = path.join(packageDir, 'test-fixtures/mount/parent.mjs');
let s: Scratch;
let parents: ChildProcess[];
beforeEach(() => {
  s = scratch();
  parents = [];
});
afterEach(async () => {
  for (const parent of parents) if (parent.exitCode === null && parent.signalCode === null) parent.kill('SIGKILL');
  await s.cleanup();
});

/**
 * Start a host process that mounts and starts a server which ignores stdin EOF; resolves with the
 * pids of the server, a process it started, and a helper it started by `sh -c "sleep 1000 & ..."`
 * (outside the server's process tree: its shell has exited).
 */
async function host(mode: string): Promise<{
  parent: ChildProcess;
  server: number;
  grandchild: number;
  helper: number;
  output: () => string;
  exited: Promise<[number | null, NodeJS.Signals | null]>;
}> {
  const pidfile = path.join(s.dir, `${mode}.pid`);
  const parent = spawn(process.execPath, [parentScript, mode, s.ctx.cacheDir, pidfile], { stdio: ['ignore', 'pipe', 'inherit'] });
  parents.push(parent);
  let output = '';
  parent.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
    parent.on('exit', (code, signal) => resolve([code, signal])),
  );
  const pidOf = (file: string) => (existsSync(file) ? Number(readFileSync(file, 'utf8')) || undefined : undefined);
  expect(await until(() => output.includes('ready') && [pidfile, `${pidfile}.grandchild`, `${pidfile}.helper`].every(pidOf))).toBe(true);
  const server = pidOf(pidfile)!;
  const grandchild = pidOf(`${pidfile}.grandchild`)!;
  const helper = pidOf(`${pidfile}.helper`)!;
  // Not the server's child any more: found by the guard's mark, not by its process tree.
  expect(readFileSync(`/proc/${helper}/stat`, 'utf8')).not.toContain(` ${server} `);
  // In "exit" and "close" modes the host may already have ended it.
  if (mode !== 'close' && mode !== 'exit') expect(alive(server)).toBe(true);
  return { parent, server, grandchild, helper, output: () => output, exited };
}

describe('a server process never outlives its host', () => {
  it('the host is killed with SIGKILL (no handler runs): the guard ends the server', async () => {
    const { parent, server, grandchild, helper, exited } = await host('wait');
    expect(alive(grandchild)).toBe(true);
    expect(alive(helper)).toBe(true);
    parent.kill('SIGKILL');
    expect(await exited).toEqual([null, 'SIGKILL']);
    expect(await until(() => !alive(server))).toBe(true);
    // And what the server started itself, in its tree or not.
    expect(await until(() => !alive(grandchild))).toBe(true);
    expect(await until(() => !alive(helper))).toBe(true);
  });

  it.each(['SIGTERM', 'SIGINT'] as const)(
    'the host gets %s and has no handler of its own: the server ends, the host still ends by the signal',
    async (signal) => {
      const { parent, server, grandchild, helper, exited } = await host('wait');
      parent.kill(signal);
      expect(await exited).toEqual([null, signal]);
      expect(await until(() => !alive(server))).toBe(true);
      expect(await until(() => !alive(grandchild))).toBe(true);
      expect(await until(() => !alive(helper))).toBe(true);
    },
  );

  it('the host handles SIGTERM itself: the server ends, the host decides to stay', async () => {
    const { parent, server, helper, output } = await host('own-handler');
    parent.kill('SIGTERM');
    expect(await until(() => output().includes('handled'))).toBe(true);
    expect(await until(() => !alive(server))).toBe(true);
    expect(await until(() => !alive(helper))).toBe(true);
    expect(parent.exitCode).toBeNull();
    expect(parent.signalCode).toBeNull();
  });

  it('the host calls process.exit() without close(): the server ends', async () => {
    const { server, helper, exited } = await host('exit');
    expect(await exited).toEqual([0, null]);
    expect(await until(() => !alive(server))).toBe(true);
    expect(await until(() => !alive(helper))).toBe(true);
  });

  it('close() ends the server and leaves nothing holding the host open', async () => {
    const { server, grandchild, helper, exited, output } = await host('close');
    expect(await exited).toEqual([0, null]);
    expect(output()).toContain('closed');
    expect(alive(server)).toBe(false);
    expect(await until(() => !alive(grandchild))).toBe(true);
    expect(await until(() => !alive(helper))).toBe(true);
  });

  it.each(['SIGKILL', 'SIGSEGV'] as const)(
    'the server crashes (%s) while the host runs on: what it started, in its tree or not, goes with it',
    async (signal) => {
      const { parent, server, grandchild, helper } = await host('wait');
      process.kill(server, signal);
      expect(await until(() => !alive(server))).toBe(true);
      expect(await until(() => !alive(grandchild))).toBe(true);
      expect(await until(() => !alive(helper))).toBe(true);
      expect(parent.exitCode).toBeNull();
    },
  );
});

describe('the light entry', () => {
  it('loads neither the MCP SDK, nor ajv, nor zod, nor valibot when mounting and reading the cache', async () => {
    const run = spawn(process.execPath, [path.join(packageDir, 'test-fixtures/mount/light-entry.mjs'), s.ctx.cacheDir], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    run.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise((resolve) => run.on('exit', resolve));
    expect(code).toBe(0);
    const loaded = JSON.parse(output) as { esm: string[]; cjs: string[] };
    expect(loaded.esm).toContain(`file://${path.join(packageDir, 'dist/mount/index.js')}`);
    const heavy = [...loaded.esm, ...loaded.cjs].filter((url) => /@modelcontextprotocol|\/ajv|\/zod|valibot|providers/.test(url));
    expect(heavy).toEqual([]);
  });
});
