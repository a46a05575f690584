import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from './workspace-copy.js';

// A CommonJS TypeScript project that imports each entry with a `require` condition (tsc turns
// its imports into require() calls, so it reads their `.d.cts` types): the types are the real
// ones, not `any`, which one wrong use of each entry shows.
const TSC = path.join(REPO_ROOT, 'node_modules/typescript/bin/tsc');
const SOURCE = `import { createHost } from '@toolshed/host';
import { coreVersion, isToolName } from '@toolshed/core/contract';
import { checkServerConfig } from '@toolshed/mcp/mount';
import { TOOL_FORMATS } from '@toolshed/providers/formats';
import type { CreateHostOptions } from '@toolshed/host';

const options: CreateHostOptions<[]> = { discover: false };
export const uses = [createHost(options), coreVersion(), isToolName('echo'), checkServerConfig, TOOL_FORMATS];

export const wrong = [
  createHost({ plugin: [] }),
  coreVersion('@toolshed/core'),
  checkServerConfig({}, 1),
  TOOL_FORMATS.includes(7),
];
`;
// One error per wrong use, on its own line (11 to 14), as tsc reports it.
const WRONG = [
  'index.ts(11,16): error TS2561',
  'index.ts(12,15): error TS2554',
  'index.ts(13,25): error TS2345',
  'index.ts(14,25): error TS2345',
];

let project: string;
beforeAll(() => {
  project = realpathSync(mkdtempSync(path.join(tmpdir(), 'toolshed-commonjs-types-')));
  mkdirSync(path.join(project, 'node_modules/@toolshed'), { recursive: true });
  for (const name of ['host', 'core', 'mcp', 'providers'])
    symlinkSync(path.join(REPO_ROOT, 'packages', name), path.join(project, 'node_modules/@toolshed', name), 'dir');
  writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'commonjs-consumer', private: true, type: 'commonjs' }));
  writeFileSync(path.join(project, 'index.ts'), SOURCE);
});
afterAll(() => rmSync(project, { recursive: true, force: true }));

/** tsc's error lines for the project under `module` (and the same moduleResolution), each cut after its code; a package's file by its name (tsc prints the workspace path it links to). */
function typecheck(module: string, skipLibCheck: boolean): Promise<string[]> {
  const compilerOptions = { module, moduleResolution: module, strict: true, noEmit: true, skipLibCheck, types: [] };
  writeFileSync(path.join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['index.ts'] }));
  return new Promise((resolve) =>
    execFile(process.execPath, [TSC, '-p', 'tsconfig.json', '--pretty', 'false'], { cwd: project }, (_error, stdout) =>
      resolve(
        stdout
          .split('\n')
          .filter((line) => line.includes('error TS'))
          .map((line) => line.replace(/^.*packages\/(host|core|mcp|providers)\//, '@toolshed/$1/').replace(/(error TS\d+).*$/, '$1')),
      ),
    ),
  );
}

describe('the CommonJS builds, from a CommonJS TypeScript project', () => {
  it('type as the ES modules do under module nodenext, library checks on: only the wrong uses fail', async () => {
    expect(await typecheck('nodenext', false)).toEqual(WRONG);
  }, 60_000);

  it('type the same under module node16 with skipLibCheck', async () => {
    expect(await typecheck('node16', true)).toEqual(WRONG);
  }, 60_000);

  // The limit the READMEs state: each .d.cts re-exports the ES module's declarations, which
  // module node16 does not let a CommonJS file do (nodenext does from TypeScript 5.8).
  it('under module node16 with library checks on, tsc also reports TS1479 in each .d.cts (the limit the READMEs state)', async () => {
    expect((await typecheck('node16', false)).sort()).toEqual(
      [
        ...WRONG,
        '@toolshed/core/dist/contract.d.cts(1,15): error TS1479',
        '@toolshed/host/dist/index.d.cts(1,15): error TS1479',
        '@toolshed/mcp/dist/mount/index.d.cts(1,15): error TS1479',
        '@toolshed/providers/dist/formats.d.cts(1,15): error TS1479',
      ].sort(),
    );
  }, 60_000);
});
