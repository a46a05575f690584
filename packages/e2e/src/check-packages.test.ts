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

beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), 'toolshed-check-packages-'));
  mkdirSync(path.join(root, 'plugins'));
  writePackage('packages/sound', { ...base, name: 'sound', exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' } } }, {
    'dist/index.js': 'export const answer = 42;\n',
    'dist/index.d.ts': 'export declare const answer = 42;\n',
  });
  // Types listed after default (publint), and no declaration file where the types point (attw).
  writePackage('packages/broken', { ...base, name: 'broken', exports: { '.': { default: './dist/index.js', types: './dist/missing.d.ts' } } }, {
    'dist/index.js': 'export const answer = 42;\n',
  });
  // Sound for publint, but its declarations import without an extension, which Node's ESM resolution refuses (attw).
  writePackage('packages/untyped-import', { ...base, name: 'untyped-import', exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' } } }, {
    'dist/index.js': "export { answer } from './other.js';\n",
    'dist/other.js': 'export const answer = 42;\n',
    'dist/index.d.ts': "export { answer } from './other';\n",
    'dist/other.d.ts': 'export declare const answer = 42;\n',
  });
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
  expect(result.stdout).not.toContain('internal');
  expect(result.stdout).toContain('2 of 3 packages have problems');
}, 120_000);
