// The cost one read_file call adds on a small file, against reading the same
// file with fs.promises.readFile: an ordinary file, a hard-linked file deep in
// a pnpm-style node_modules (where the hard-link check looks its inode up in
// the kept walk); and the content sniff (secret-content.ts) alone on the bytes
// a read of 110 KiB looks at, against reading that file. Each case is its own
// function in the same tinybench loop (vitest bench), in rounds;
// scripts/bench-report.mjs prints the ratios.
import { link, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ToolRegistry } from '@toolshed/core';
import { afterAll, bench, describe } from 'vitest';
import { createReadFileTool } from '../dist/index.js';
import { secretIn } from '../dist/secret-content.js';

const base = await mkdtemp(path.join(tmpdir(), 'read-file-small-bench-'));
const root = path.join(base, 'project');
const source = `${'export const line = "some ordinary source code";\n'.repeat(80)}`;
const PNPM_FILE = 'node_modules/.pnpm/left-pad@1.3.0/node_modules/left-pad/index.js';
await mkdir(path.join(root, 'src'), { recursive: true });
await writeFile(path.join(root, 'src', 'index.ts'), source);
await writeFile(path.join(root, '.env'), 'SECRET=1\n');
// A store outside the project, hard-linked into node_modules/.pnpm beside 300 other packages.
await mkdir(path.join(base, 'store'), { recursive: true });
await writeFile(path.join(base, 'store', 'left-pad.js'), source);
await mkdir(path.join(root, path.dirname(PNPM_FILE)), { recursive: true });
await link(path.join(base, 'store', 'left-pad.js'), path.join(root, PNPM_FILE));
for (let i = 0; i < 300; i++) await mkdir(path.join(root, 'node_modules', '.pnpm', `package-${i}@1.0.0`));
// 110 KiB of source: a read from line 1 returns 100 KiB (maxBytes), the sniff looks at the first 10 KiB and those.
const large = `${'export const line = "some ordinary source code";\n'.repeat(2300)}`;
await writeFile(path.join(root, 'src', 'large.ts'), large);
const head = Buffer.from(large)
  .subarray(0, 10 * 1024)
  .toString('latin1');
const returned = Buffer.from(large)
  .subarray(0, 100 * 1024)
  .toString('latin1');
// The sniff's worst case: a marker on every line, none followed by key data.
const nearMisses = '-----BEGIN PRIVATE KEY----- is how a key starts; this line is prose.\n'.repeat(1500);
afterAll(() => rm(base, { recursive: true, force: true }));
// Past the clock slack, the kept walk answers for the linked file (see the README's Hard links).
await new Promise((resolve) => setTimeout(resolve, 2100));

const registry = new ToolRegistry().register(createReadFileTool({ root }));
async function read(input: { path: string }) {
  const outcome = await registry.dispatch({ name: 'read_file', input });
  if (!outcome.ok) throw new Error(`read_file failed: ${outcome.error.message}`);
}

for (let round = 1; round <= 3; round++) {
  describe(`one read of a small file (round ${round})`, () => {
    bench('floor: fs.promises.readFile', async () => {
      await readFile(path.join(root, 'src', 'index.ts'), 'utf8');
    });
    bench('read_file, small file', () => read({ path: 'src/index.ts' }));
    bench('read_file, pnpm hard link', () => read({ path: PNPM_FILE }));
  });
}

for (let round = 1; round <= 3; round++) {
  describe(`the content sniff on a read of 110 KiB (round ${round})`, () => {
    bench('floor: fs.promises.readFile', async () => {
      await readFile(path.join(root, 'src', 'large.ts'));
    });
    bench('read_file, 100 KiB from line 1', () => read({ path: 'src/large.ts' }));
    bench('the sniff alone, on the bytes that read looks at', () => {
      if (secretIn(head) || secretIn(returned)) throw new Error('ordinary source taken for a secret');
    });
    bench('the sniff alone, 100 KiB of markers without key data', () => {
      if (secretIn(nearMisses)) throw new Error('prose taken for a key');
    });
  });
}
