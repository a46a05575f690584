import { link, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isSafeFileError, openDirInRoot, openInRoot, type SafeFileProblem, walkMode } from './safe-file.js';

let root: string;
let outside: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'toolshed-safe-root-'));
  outside = await mkdtemp(join(tmpdir(), 'toolshed-safe-outside-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

async function problem(promise: Promise<unknown>): Promise<SafeFileProblem> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isSafeFileError(error)) throw new Error(`expected a SafeFileError, got ${String(error)}`);
  // The message names the project-relative path, never the host's folders.
  expect(error.message).not.toContain(root);
  expect(error.message).not.toContain(outside);
  return error.problem;
}

/** Make `dir` and its missing folders as the outbox does, and return its project-relative path. */
async function mkdirInRoot(root: string, dir: string): Promise<string> {
  const opened = await openDirInRoot(root, dir, true);
  await opened.close();
  return opened.display;
}

describe('openDirInRoot, making missing folders', () => {
  it('makes every missing folder and returns the real path', async () => {
    expect(await mkdirInRoot(root, join(root, '.toolshed/send-email/deep'))).toBe('.toolshed/send-email/deep');
    expect(await readdir(join(root, '.toolshed/send-email'))).toEqual(['deep']);
  });

  it('refuses .toolshed as a symbolic link to a folder outside, and makes nothing there', async () => {
    await symlink(outside, join(root, '.toolshed'));
    expect(await problem(mkdirInRoot(root, '.toolshed/outbox'))).toEqual({ kind: 'symlink', path: '.toolshed' });
    expect(await readdir(outside)).toEqual([]);
  });

  it('refuses a link even when it points inside the root', async () => {
    await mkdir(join(root, 'real'));
    await symlink(join(root, 'real'), join(root, 'alias'));
    expect(await problem(mkdirInRoot(root, 'alias/outbox'))).toEqual({ kind: 'symlink', path: 'alias' });
    expect(await readdir(join(root, 'real'))).toEqual([]);
  });

  it('refuses a path that leaves the root, relative or absolute', async () => {
    expect(await problem(mkdirInRoot(root, '../elsewhere'))).toMatchObject({ kind: 'outside' });
    expect(await problem(mkdirInRoot(root, join(outside, 'x')))).toMatchObject({ kind: 'outside' });
    expect(await readdir(outside)).toEqual([]);
  });

  it('refuses a file where a folder should be', async () => {
    await writeFile(join(root, 'blocked'), 'x');
    expect(await problem(mkdirInRoot(root, 'blocked/outbox'))).toEqual({ kind: 'not_directory', path: 'blocked' });
  });
});

describe('openInRoot', () => {
  it('appends to a file, creating it and its folders', async () => {
    for (const text of ['one\n', 'two\n']) {
      const handle = await openInRoot(root, '.toolshed/send-email/calls.jsonl', 'append');
      await handle.write(text);
      await handle.close();
    }
    expect(await readFile(join(root, '.toolshed/send-email/calls.jsonl'), 'utf8')).toBe('one\ntwo\n');
  });

  it('refuses a ledger file that is a link to a file outside, and leaves that file alone', async () => {
    await mkdir(join(root, '.toolshed/send-email'), { recursive: true });
    await writeFile(join(outside, 'victim'), 'untouched');
    await symlink(join(outside, 'victim'), join(root, '.toolshed/send-email/calls.jsonl'));
    expect(await problem(openInRoot(root, '.toolshed/send-email/calls.jsonl', 'append'))).toEqual({
      kind: 'symlink',
      path: '.toolshed/send-email/calls.jsonl',
    });
    expect(await problem(openInRoot(root, '.toolshed/send-email/calls.jsonl', 'read'))).toMatchObject({ kind: 'symlink' });
    expect(await readFile(join(outside, 'victim'), 'utf8')).toBe('untouched');
  });

  it('refuses a ledger file that is a hard link to a file outside, and leaves that file alone', async () => {
    await mkdir(join(root, '.toolshed/send-email'), { recursive: true });
    await writeFile(join(outside, 'victim'), 'untouched');
    await link(join(outside, 'victim'), join(root, '.toolshed/send-email/calls.jsonl'));
    expect(await problem(openInRoot(root, '.toolshed/send-email/calls.jsonl', 'append'))).toEqual({
      kind: 'hard_link',
      path: '.toolshed/send-email/calls.jsonl',
    });
    expect(await problem(openInRoot(root, '.toolshed/send-email/calls.jsonl', 'read'))).toMatchObject({ kind: 'hard_link' });
    expect(await readFile(join(outside, 'victim'), 'utf8')).toBe('untouched');
  });

  it('refuses a named pipe at the ledger path at once instead of waiting for a writer', async () => {
    await mkdir(join(root, '.toolshed/send-email'), { recursive: true });
    execFileSync('mkfifo', [join(root, '.toolshed/send-email/calls.jsonl')]);
    // Without O_NONBLOCK both opens block until another process opens the pipe, and this test times out.
    expect((await problem(openInRoot(root, '.toolshed/send-email/calls.jsonl', 'read'))).path).toBe('.toolshed/send-email/calls.jsonl');
    expect((await problem(openInRoot(root, '.toolshed/send-email/calls.jsonl', 'append'))).path).toBe('.toolshed/send-email/calls.jsonl');
  });

  it('refuses to create a name that is a dangling link, and creates nothing at its target', async () => {
    await symlink(join(outside, 'made-through-link.eml'), join(root, 'a.eml'));
    expect(await problem(openInRoot(root, 'a.eml', 'create'))).toEqual({ kind: 'symlink', path: 'a.eml' });
    expect(await readdir(outside)).toEqual([]);
  });

  it('refuses to create a name that exists', async () => {
    await writeFile(join(root, 'a.eml'), 'first');
    expect(await problem(openInRoot(root, 'a.eml', 'create'))).toEqual({ kind: 'exists', path: 'a.eml' });
    expect(await readFile(join(root, 'a.eml'), 'utf8')).toBe('first');
  });

  it('reports a missing file to read as io ENOENT with its relative path', async () => {
    expect(await problem(openInRoot(root, 'no/such.jsonl', 'read'))).toEqual({ kind: 'io', path: 'no', errno: 'ENOENT' });
    expect(await readdir(root)).toEqual([]);
  });

  it('refuses a folder as a file', async () => {
    await mkdir(join(root, 'dir'));
    expect(await problem(openInRoot(root, 'dir', 'append'))).toMatchObject({ kind: 'not_file', path: 'dir' });
  });
});

// A worker swaps `.toolshed` between a real folder and a link to `outside` as fast as it can,
// while this thread keeps opening files under it. Whatever the interleaving, nothing may be
// left outside: a file made there through a swapped folder is found and removed again.
describe('a folder swapped for a link while files are opened', () => {
  // The promise below holds only for the descriptor walk; on Linux a missing /proc must fail
  // here, loudly, rather than quietly run the weaker path walk (README: a hope, not a promise).
  it.runIf(process.platform === 'linux')('walks through open descriptors on Linux, and says why when it cannot', () => {
    expect(walkMode()).toEqual({ kind: 'descriptor' });
  });

  it.skipIf(walkMode().kind !== 'descriptor')('never leaves a file outside the root (bounded loop)', async () => {
    const swapper = new Worker(
      `
      const { workerData, parentPort } = require('node:worker_threads');
      const fs = require('node:fs');
      const { root, outside } = workerData;
      const name = root + '/.toolshed';
      fs.mkdirSync(name);
      let stop = false, swaps = 0, n = 0;
      parentPort.on('message', () => { stop = true; });
      // Each step may lose a race with the main thread (which makes .toolshed when missing),
      // so each is tried on its own; a fresh aside name each time keeps the loop unstuck.
      const attempt = (step) => { try { step(); return true; } catch { return false; } };
      const loop = () => {
        for (let i = 0; i < 50 && !stop; i++) {
          const aside = root + '/.aside-' + n++;
          attempt(() => fs.renameSync(name, aside));
          if (attempt(() => fs.symlinkSync(outside, name))) swaps++;
          attempt(() => fs.unlinkSync(name));
          attempt(() => fs.renameSync(aside, name));
        }
        if (stop) parentPort.postMessage(swaps); else setImmediate(loop);
      };
      parentPort.postMessage('ready');
      loop();
      `,
      { eval: true, workerData: { root, outside } },
    );
    const crashed = new Promise<never>((_, reject) => swapper.once('error', reject));
    await Promise.race([new Promise((resolve) => swapper.once('message', resolve)), crashed]);
    const ROUNDS = 400;
    const kinds = new Map<string, number>();
    for (let i = 0; i < ROUNDS; i++) {
      const mode = i % 2 === 0 ? 'append' : 'create';
      const file = mode === 'append' ? '.toolshed/send-email/calls.jsonl' : `.toolshed/outbox/${i}.eml`;
      try {
        const handle = await openInRoot(root, file, mode);
        await handle.write(`${i}\n`);
        await handle.close();
        kinds.set('written', (kinds.get('written') ?? 0) + 1);
      } catch (error) {
        if (!isSafeFileError(error)) throw error;
        kinds.set(error.problem.kind, (kinds.get(error.problem.kind) ?? 0) + 1);
      }
    }
    const swaps = await Promise.race([
      new Promise<number>((resolve) => {
        swapper.once('message', resolve);
        swapper.postMessage('stop');
      }),
      crashed,
    ]);
    await swapper.terminate();
    expect(swaps).toBeGreaterThan(0);
    // The race was real: some rounds met the link and were refused.
    expect(ROUNDS - (kinds.get('written') ?? 0)).toBeGreaterThan(0);
    // Every round either wrote inside or was refused with a reason; nothing landed outside.
    expect([...kinds.values()].reduce((a, b) => a + b, 0)).toBe(ROUNDS);
    expect(await readdir(outside)).toEqual([]);
  });
});
