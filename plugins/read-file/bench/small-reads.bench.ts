// The cost one read_file call adds on a small file, against reading the same
// file with fs.promises.readFile: an ordinary file, a hard-linked file deep in
// a pnpm-style node_modules (where the hard-link check lists the folders above
// it). Each case is its own function in the same
// tinybench loop (vitest bench); scripts/bench-report.mjs prints the ratios.
import { link, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ToolRegistry } from '@toolshed/core';
import { bench, describe } from 'vitest';
import { createReadFileTool } from '../dist/index.js';

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

const registry = new ToolRegistry().register(createReadFileTool({ root }));
async function read(input: { path: string }) {
  const outcome = await registry.dispatch({ name: 'read_file', input });
  if (!outcome.ok) throw new Error(`read_file failed: ${outcome.error.message}`);
}

describe('one read of a small file', () => {
  bench('floor: fs.promises.readFile', async () => {
    await readFile(path.join(root, 'src', 'index.ts'), 'utf8');
  });
  bench('read_file, small file', () => read({ path: 'src/index.ts' }));
  bench('read_file, pnpm hard link', () => read({ path: PNPM_FILE }), {
    teardown: async (_task, mode) => {
      if (mode === 'run') await rm(base, { recursive: true, force: true });
    },
  });
});
