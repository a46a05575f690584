// What the search for a linked file's other names costs on a tree of 10,000
// files in 500 folders (outside node_modules, which the walk skips): the walk
// itself, made by the first read of a linked file of a new tool, against a
// recursive fs.promises.readdir of the same tree; and a read of a linked file
// once the walk is kept, against a read of a file with one name. Each case its
// own function in the same tinybench loop, in rounds (see CONTRIBUTING).
import { link, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ToolRegistry } from '@toolshed/core';
import { afterAll, bench, describe } from 'vitest';
import { createReadFileTool } from '../dist/index.js';

const base = await mkdtemp(path.join(tmpdir(), 'read-file-walk-bench-'));
const root = path.join(base, 'project');
const PNPM_FILE = 'node_modules/.pnpm/left-pad@1.3.0/node_modules/left-pad/index.js';
const source = 'export const line = "some ordinary source code";\n'.repeat(40);
for (let folder = 0; folder < 500; folder++) {
  const dir = path.join(root, 'src', `area-${folder % 20}`, `module-${folder}`);
  await mkdir(dir, { recursive: true });
  for (let file = 0; file < 20; file++) await writeFile(path.join(dir, `file-${file}.ts`), source);
}
await writeFile(path.join(root, '.env'), 'SECRET=1\n');
await mkdir(path.join(root, 'config'), { recursive: true });
await writeFile(path.join(root, 'config', '.env.production'), 'SECRET=2\n');
await link(path.join(root, 'config', '.env.production'), path.join(root, 'config', '.env.production.bak'));
await mkdir(path.join(base, 'store'), { recursive: true });
await writeFile(path.join(base, 'store', 'left-pad.js'), source);
await mkdir(path.join(root, path.dirname(PNPM_FILE)), { recursive: true });
await link(path.join(base, 'store', 'left-pad.js'), path.join(root, PNPM_FILE));
for (let i = 0; i < 300; i++) await mkdir(path.join(root, 'node_modules', '.pnpm', `package-${i}@1.0.0`));
// Past the clock slack, the kept walk answers for files older than it (see the README's Hard links).
await new Promise((resolve) => setTimeout(resolve, 2100));

async function read(registry: ToolRegistry, input: { path: string }) {
  const outcome = await registry.dispatch({ name: 'read_file', input });
  if (!outcome.ok) throw new Error(`read_file failed: ${outcome.error.message}`);
}
const kept = new ToolRegistry().register(createReadFileTool({ root }));
await read(kept, { path: PNPM_FILE });

afterAll(() => rm(base, { recursive: true, force: true }));

for (let round = 1; round <= 3; round++) {
  describe(`the walk of 10,000 files in 500 folders (round ${round})`, () => {
    bench('floor: fs.promises.readdir, recursive', async () => {
      await readdir(path.join(root, 'src'), { recursive: true, withFileTypes: true });
    });
    bench('read_file of a linked file by a new tool (walks)', () =>
      read(new ToolRegistry().register(createReadFileTool({ root })), { path: PNPM_FILE }),
    );
  });

  describe(`a read of a linked file, the walk kept (round ${round})`, () => {
    bench('floor: read_file, a file with one name', () => read(kept, { path: 'src/area-0/module-0/file-0.ts' }));
    bench('read_file, pnpm hard link', () => read(kept, { path: PNPM_FILE }));
  });
}
