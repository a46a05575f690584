import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ToolRegistry } from '@toolshed/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { read, registryFor } from './test-tree.fixture.js';

/**
 * An attacker swaps a folder or a file on the path for a symbolic link (to
 * outside the root, or into .git) while read_file walks and opens it. A child
 * process does the swaps in a tight loop, in parallel with the calls, so the
 * swap lands between the walk and the open as often as the machine allows.
 * Bounded in count: READS_PER_KIND reads of each swap kind, LISTINGS_PER_KIND
 * directory listings.
 */
const READS_PER_KIND = 5_000;
const LISTINGS_PER_KIND = 1_000;
const CONCURRENCY = 8;
// Text and names that exist only outside the root or in .git: none may come back.
const FORBIDDEN = ['OUTSIDE-SECRET', 'GIT-SECRET', 'OUTSIDE-NAME', 'GIT-NAME'];

/** name: what the model asks for; real: its ordinary content; link: what the swapper puts in its place. */
const KINDS = [
  { name: 'd-out', folder: true, link: '../outside' },
  { name: 'd-git', folder: true, link: '.git' },
  { name: 'f-out', folder: false, link: '../outside/config' },
  { name: 'f-git', folder: false, link: '.git/config' },
] as const;

// Each round trip: the real entry out of the way, the link in, then back.
// Renames only, so each step is atomic; between steps the name is briefly missing.
const SWAPPER = `
const fs = require('node:fs');
const path = require('node:path');
const [root, ...names] = process.argv.slice(1);
const until = Date.now() + 300_000; // a safety bound if the test process dies
process.stdout.write('ready\\n');
for (let i = 0; i < 50_000_000 && Date.now() < until; i++) {
  for (const name of names) {
    const at = path.join(root, name);
    fs.renameSync(at, at + '.real');
    fs.renameSync(at + '.link', at);
    fs.renameSync(at, at + '.link');
    fs.renameSync(at + '.real', at);
  }
}
`;

let base: string;
let root: string;
let swapper: ChildProcess;

beforeAll(async () => {
  base = await mkdtemp(path.join(tmpdir(), 'read-file-race-'));
  root = path.join(base, 'project');
  const outside = path.join(base, 'outside');
  await mkdir(path.join(root, '.git'), { recursive: true });
  await mkdir(outside, { recursive: true });
  await writeFile(path.join(outside, 'config'), 'OUTSIDE-SECRET\n');
  await writeFile(path.join(outside, 'OUTSIDE-NAME.txt'), 'x\n');
  await writeFile(path.join(root, '.git', 'config'), '[core] GIT-SECRET\n');
  await writeFile(path.join(root, '.git', 'GIT-NAME'), 'x\n');
  for (const kind of KINDS) {
    if (kind.folder) {
      await mkdir(path.join(root, kind.name));
      await writeFile(path.join(root, kind.name, 'config'), 'SAFE\n');
      await writeFile(path.join(root, kind.name, 'SAFE-NAME.txt'), 'x\n');
    } else {
      await writeFile(path.join(root, kind.name), 'SAFE\n');
    }
    await symlink(kind.link, path.join(root, `${kind.name}.link`));
  }
  swapper = spawn(process.execPath, ['-e', SWAPPER, root, ...KINDS.map((k) => k.name)], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    swapper.once('error', reject);
    swapper.stdout!.once('data', () => resolve());
  });
});

afterAll(async () => {
  if (swapper.exitCode === null) {
    const exited = new Promise((resolve) => swapper.once('exit', resolve));
    // The loop never yields to the event loop, so only SIGKILL stops it.
    swapper.kill('SIGKILL');
    await exited;
  }
  await rm(base, { recursive: true, force: true });
});

type Tally = Record<string, number>;

async function hammer(registry: ToolRegistry, calls: { path: string }[]): Promise<{ tally: Tally; escapes: string[] }> {
  const tally: Tally = {};
  const escapes: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < calls.length) {
      const input = calls[next++]!;
      const outcome = await read(registry, input);
      const text = JSON.stringify(outcome);
      if (FORBIDDEN.some((marker) => text.includes(marker))) escapes.push(`${input.path}: ${text}`);
      const key = outcome.ok ? 'ok' : outcome.error.code;
      tally[key] = (tally[key] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return { tally, escapes };
}

describe('a path swapped for a symbolic link while it is read', () => {
  it(`never returns a file or a listing from outside the root or from .git (${READS_PER_KIND * KINDS.length} reads, ${LISTINGS_PER_KIND * 2} listings)`, async () => {
    const registry = registryFor({ root });
    const calls: { path: string }[] = [];
    for (let i = 0; i < READS_PER_KIND; i++) {
      for (const kind of KINDS) calls.push({ path: kind.folder ? `${kind.name}/config` : kind.name });
    }
    for (let i = 0; i < LISTINGS_PER_KIND; i++) {
      for (const kind of KINDS) if (kind.folder) calls.push({ path: kind.name });
    }
    const { tally, escapes } = await hammer(registry, calls);
    const total = Object.values(tally).reduce((a, b) => a + b, 0);
    console.log(`race: ${total} calls against a live swapper: ${JSON.stringify(tally)}, ${escapes.length} escapes`);
    expect(total).toBe(calls.length);
    expect(escapes.slice(0, 3)).toEqual([]);
    // The swaps really happened under the calls: some reads saw the real file, some were refused.
    expect(tally.ok).toBeGreaterThan(0);
    expect(tally.denied).toBeGreaterThan(0);
    expect(swapper.exitCode).toBeNull();
    // Bounded by its call count; the generous limit only catches a hang on a loaded CI machine.
  }, 240_000);
});
