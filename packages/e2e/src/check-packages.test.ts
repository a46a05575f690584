import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { REPO_ROOT } from './workspace-copy.js';

// `pnpm check:packages` must fail on any publint or attw problem; here it runs
// on a fixture workspace with one sound package and one broken one.

let root: string;

function writePackage(dir: string, manifest: object, files: Record<string, string>): void {
  mkdirSync(path.join(root, dir, 'dist'), { recursive: true });
  writeFileSync(path.join(root, dir, 'package.json'), JSON.stringify(manifest, null, 2));
  for (const [file, content] of Object.entries(files)) writeFileSync(path.join(root, dir, file), content);
}

const base = { version: '1.0.0', license: 'MIT', type: 'module', sideEffects: false, engines: { node: '>=20' }, files: ['dist'] };
const meta = (dir: string) => ({
  keywords: ['fixture'],
  homepage: `https://github.com/toolshed-dev/toolshed/tree/main/${dir}#readme`,
  repository: { type: 'git', url: 'git+https://github.com/toolshed-dev/toolshed.git', directory: dir },
  bugs: { url: 'https://github.com/toolshed-dev/toolshed/issues' },
});
// What every sound package carries besides its code.
const kept = {
  LICENSE: 'MIT License\n',
  'README.md': '# fixture\n\nESM-only, for Node 20 or later. See [the guide](https://github.com/toolshed-dev/toolshed#readme).\n',
};

beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), 'toolshed-check-packages-'));
  mkdirSync(path.join(root, 'plugins'));
  writePackage(
    'packages/sound',
    { ...base, ...meta('packages/sound'), name: 'sound', exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' } } },
    {
      ...kept,
      // A chunk loaded by a dynamic import, a worker named by new URL and a CommonJS file loaded
      // by require are reached; a module of types only is nothing to load.
      'dist/index.js':
        "import { createRequire } from 'node:module';\nexport const answer = 42;\nexport const later = () => import('./later.js');\n" +
        "export const worker = new URL('./worker.js', import.meta.url);\nconst require = createRequire(import.meta.url);\nexport const legacy = () => require('./legacy.cjs');\n",
      'dist/later.js': 'export const value = 1;\n',
      'dist/worker.js': 'export {};\nconsole.log("a worker");\n',
      'dist/legacy.cjs': 'module.exports = 1;\n',
      'dist/types.js': 'export {};\n',
      // Types from Node's modules are the consumer's own (@types/node).
      'dist/index.d.ts':
        "import type { Readable } from 'node:stream';\nimport type { EventEmitter } from 'events';\n" +
        'export declare const answer = 42;\nexport declare const later: () => Promise<{ value: number }>;\n' +
        'export declare const worker: URL;\nexport declare const legacy: () => number;\nexport type Streams = [Readable, EventEmitter];\n',
    },
  );
  // Bundles a third-party module and carries its license: sound too.
  writePackage(
    'packages/bundler',
    { ...base, ...meta('packages/bundler'), name: 'bundler', exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' } } },
    {
      ...kept,
      'dist/index.js':
        '//#region ../../node_modules/.pnpm/left-pad@1.3.0/node_modules/left-pad/index.js\nexport const pad = (s) => s;\n//#endregion\n',
      'dist/index.d.ts': 'export declare const pad: (s: string) => string;\n',
      'dist/THIRD-PARTY-LICENSES.md': '# Third-party code\n\n## left-pad@1.3.0 (WTFPL)\n\nThe license text.\n',
    },
  );
  // Sound for publint and attw, wrong in everything else a published package needs.
  writePackage(
    'packages/unkempt',
    {
      ...base,
      name: 'unkempt',
      files: ['dist', 'src/escape-corpus.ts', 'test-fixtures'],
      exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' } },
    },
    {
      'README.md':
        '# unkempt\n\nSee [the other package](../sound/README.md).\n\n```sh\nnpm install unkempt@1 zod\n```\n\n' +
        "```ts\nimport { answer } from 'unkempt';\nimport * as v from 'valibot';\nimport { z } from 'zod';\nimport { readFile } from 'node:fs/promises';\n" +
        "const { join } = await import('path');\n```\n",
      'dist/index.js':
        '//#region ../../node_modules/left-pad/index.js\nexport const answer = 42;\n//#endregion\n//# sourceMappingURL=index.js.map\n',
      'dist/index.js.map': JSON.stringify({ version: 3, file: 'index.js', sources: ['../src/index.ts'], mappings: 'AAAA' }),
      // Its types take a type from the code it bundled, which no consumer installs.
      'dist/index.d.ts': "export type { Answer } from './answer.js';\nexport declare const answer = 42;\n",
      'dist/answer.d.ts': "import type { Padded } from 'left-pad/types';\nexport type Answer = Padded;\n",
      'dist/index.test.js': 'throw new Error("a test");\n',
      // tsc's per-file output left beside a bundle that replaced it.
      'dist/leftover.js': 'export const answer = 42;\n',
    },
  );
  mkdirSync(path.join(root, 'packages/unkempt/src'), { recursive: true });
  writeFileSync(path.join(root, 'packages/unkempt/src/escape-corpus.ts'), 'export const corpus = ["../../etc/passwd"];\n');
  mkdirSync(path.join(root, 'packages/unkempt/test-fixtures'), { recursive: true });
  writeFileSync(path.join(root, 'packages/unkempt/test-fixtures/server.mjs'), 'console.log("a test server");\n');
  // Types listed after default (publint), and no declaration file where the types point (attw).
  writePackage(
    'packages/broken',
    { ...base, ...meta('packages/broken'), name: 'broken', exports: { '.': { default: './dist/index.js', types: './dist/missing.d.ts' } } },
    {
      ...kept,
      'dist/index.js': 'export const answer = 42;\n',
    },
  );
  // Sound for publint, but its declarations import without an extension, which Node's ESM resolution refuses (attw).
  writePackage(
    'packages/untyped-import',
    {
      ...base,
      ...meta('packages/untyped-import'),
      name: 'untyped-import',
      exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' } },
    },
    {
      ...kept,
      'dist/index.js': "export { answer } from './other.js';\n",
      'dist/other.js': 'export const answer = 42;\n',
      'dist/index.d.ts': "export { answer } from './other';\n",
      'dist/other.d.ts': 'export declare const answer = 42;\n',
    },
  );
  // Engines of two ranges (Node 20 from 20.19, any Node from 22.12): the README names the lowest
  // Node of each. One README does; the other names only the first.
  for (const [dir, readme] of [
    ['two-lines', '# two-lines\n\nESM-only, for Node 20.19+ or Node 22.12+.\n'],
    ['two-lines-unsaid', '# two-lines-unsaid\n\nESM-only, for Node 20.19 or later.\n'],
  ]) {
    writePackage(
      `packages/${dir}`,
      {
        ...base,
        ...meta(`packages/${dir}`),
        name: dir,
        engines: { node: '^20.19.0 || >=22.12.0' },
        exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' } },
      },
      {
        ...kept,
        'README.md': readme,
        'dist/index.js': 'export const answer = 42;\n',
        'dist/index.d.ts': 'export declare const answer = 42;\n',
      },
    );
  }
  // A command only (a bin, no JavaScript entry): its README has no module format to state.
  writePackage(
    'packages/command',
    {
      ...base,
      ...meta('packages/command'),
      name: 'command',
      files: ['bin'],
      bin: { command: './bin/command.cjs' },
      exports: { './package.json': './package.json' },
    },
    { ...kept, 'README.md': '# command\n\nRun `command`. Node 20 or later.\n' },
  );
  mkdirSync(path.join(root, 'packages/command/bin'));
  writeFileSync(path.join(root, 'packages/command/bin/command.cjs'), "#!/usr/bin/env node\nconsole.log('hi');\n");
  writePackage('packages/internal', { name: 'internal', private: true }, {});
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

it('passes sound packages, fails broken ones with what publint and attw say, and skips private ones', async () => {
  const result = await new Promise<{ code: number; stdout: string }>((resolve) => {
    execFile(process.execPath, [path.join(REPO_ROOT, 'scripts/check-packages.mjs'), root], { cwd: root }, (error, stdout) => {
      resolve({ code: error ? Number(error.code) : 0, stdout });
    });
  });
  expect(result.code).toBe(1);
  expect(result.stdout).toMatch(/^ok {3}sound \(packages\/sound\)$/m);
  expect(result.stdout).toMatch(/^FAIL broken \(packages\/broken\)$/m);
  expect(result.stdout).toContain('publint error: pkg.exports["."].types is ./dist/missing.d.ts but the file does not exist.');
  expect(result.stdout).toMatch(/publint (error|warning): .*types.* should be the first/i);
  const untyped = result.stdout.slice(result.stdout.indexOf('FAIL untyped-import'));
  expect(untyped).toMatch(/^FAIL untyped-import \(packages\/untyped-import\)\n {5}attw \(esm-only profile\):/);
  expect(untyped).not.toContain('publint');
  expect(result.stdout).toMatch(/^ok {3}bundler \(packages\/bundler\)$/m);
  expect(result.stdout).not.toContain('internal');

  const unkempt = result.stdout.slice(result.stdout.indexOf('FAIL unkempt'), result.stdout.indexOf('FAIL untyped-import'));
  expect(
    unkempt
      .split('\n')
      .slice(1)
      .map((line) => line.trim())
      .filter(Boolean),
  ).toEqual([
    'the tarball has no LICENSE file',
    'package.json needs "repository": {"type": "git", "url": "git+https://...", "directory": "..."}',
    'package.json needs a "homepage" (https URL)',
    'package.json needs "bugs": {"url": "https://..."}',
    'package.json needs "keywords"',
    'README.md does not say the package is ESM-only',
    'README.md does not say the minimum Node version, "Node 20" (from engines.node ">=20")',
    'README.md links to "../sound/README.md", which does not work on the registry\'s page; use an absolute https URL',
    'README.md: an example imports valibot, which no install line of the README installs; add it to the `npm install` line before the example',
    'dist/index.js.map points to ../src/index.ts, not in the package: ship the sources or drop the map',
    'dist/index.test.js is test code or test data: leave it out of "files" and the build',
    'src/escape-corpus.ts is test code or test data: leave it out of "files" and the build',
    'test-fixtures/server.mjs is test code or test data: leave it out of "files" and the build',
    'bundles code of left-pad without its license notice (a THIRD-PARTY-LICENSES file with a "## left-pad@version" section)',
    'dist/leftover.js is loaded by no entry (exports, bin) nor by any module they import: leave it out of the build',
    'dist/answer.d.ts takes types from "left-pad", which is not a dependency or peer dependency: a consumer\'s TypeScript cannot find it; declare it, or keep its types out of the published ones',
  ]);
  expect(result.stdout).toMatch(/^ok {3}two-lines \(packages\/two-lines\)$/m);
  expect(result.stdout).toMatch(/^ok {3}command \(packages\/command\)$/m);
  const unsaid = result.stdout.slice(result.stdout.indexOf('FAIL two-lines-unsaid'));
  // Its one problem: the next line is another package's, or the summary.
  expect(unsaid.split('\n').slice(0, 3)).toEqual([
    'FAIL two-lines-unsaid (packages/two-lines-unsaid)',
    '     README.md does not say the minimum Node version, "Node 22.12" (from engines.node "^20.19.0 || >=22.12.0")',
    expect.stringMatching(/^(ok|FAIL) |^$/),
  ]);
  expect(result.stdout).toContain('4 of 8 packages have problems');
}, 120_000);
