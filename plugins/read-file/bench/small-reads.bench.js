// The cost one read_file call adds on a small file, against reading the same
// file with fs.promises.readFile in the same process: an ordinary file, a
// hard-linked file deep in a pnpm-style node_modules (where the hard-link
// check lists the folders above it), and a folder (the listing).
// argv: [path to a built index.js]  (default ../dist/index.js), so that two
// builds can be compared on the same machine.
import { link, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ToolRegistry } from '@toolshed/core';

const entry = process.argv[2] ? pathToFileURL(path.resolve(process.argv[2])).href : new URL('../dist/index.js', import.meta.url).href;
const { createReadFileTool } = await import(entry);
const CALLS = 2000;
const ROUNDS = 7;

const base = await mkdtemp(path.join(tmpdir(), 'read-file-small-bench-'));
const root = path.join(base, 'project');
const source = `${'export const line = "some ordinary source code";\n'.repeat(80)}`;
const PNPM_FILE = 'node_modules/.pnpm/left-pad@1.3.0/node_modules/left-pad/index.js';
try {
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
  const cases = {
    'readFile (baseline)': () => readFile(path.join(root, 'src', 'index.ts'), 'utf8'),
    'read_file, small file': () => dispatch({ path: 'src/index.ts' }),
    'read_file, pnpm hard link': () => dispatch({ path: PNPM_FILE }),
    'read_file, folder listing': () => registry.dispatch({ name: 'read_file', input: { path: 'src' } }),
  };
  async function dispatch(input) {
    const outcome = await registry.dispatch({ name: 'read_file', input });
    if (!outcome.ok) throw new Error(`read_file failed: ${outcome.error.message}`);
  }
  const samples = Object.fromEntries(Object.keys(cases).map((name) => [name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    // Cases alternate within each round so that machine noise falls on all of them alike.
    for (const [name, run] of Object.entries(cases)) {
      const start = performance.now();
      for (let i = 0; i < CALLS; i++) await run();
      samples[name].push(((performance.now() - start) * 1000) / CALLS);
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const baseline = median(samples['readFile (baseline)']);
  console.log(`per-call time on a small file, ${CALLS} calls x ${ROUNDS} rounds, medians (${process.argv[2] ?? 'dist/index.js'})`);
  for (const [name, xs] of Object.entries(samples)) {
    const us = median(xs);
    console.log(`  ${name.padEnd(28)} ${us.toFixed(1).padStart(8)} us   ${(us / baseline).toFixed(2)}x readFile`);
  }
} finally {
  await rm(base, { recursive: true, force: true });
}
