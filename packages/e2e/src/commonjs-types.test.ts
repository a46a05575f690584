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
const SOURCE = `import { main, run } from '@toolshed/cli';
import { createHost } from '@toolshed/host';
import { coreVersion, isToolName, PluginError } from '@toolshed/core/contract';
import { checkServerConfig } from '@toolshed/mcp/mount';
import { TOOL_FORMATS } from '@toolshed/providers/formats';
import type { CreateHostOptions } from '@toolshed/host';

const options: CreateHostOptions<[]> = { discover: false };
export const uses = [run(['list']), main(['node', 'toolshed', 'list']), createHost(options), coreVersion(), isToolName('echo'), checkServerConfig, TOOL_FORMATS];
export const error: PluginError = new PluginError({ phase: 'resolve' }, 'a class is a value and a type');

export const wrong = [
  createHost({ plugin: [] }),
  coreVersion('@toolshed/core'),
  checkServerConfig({}, 1),
  TOOL_FORMATS.includes(7),
  run('list'),
];
`;
// One error per wrong use, on its own line (13 to 17), as tsc reports it.
const WRONG = [
  'index.ts(13,16): error TS2561',
  'index.ts(14,15): error TS2554',
  'index.ts(15,25): error TS2345',
  'index.ts(16,25): error TS2345',
  'index.ts(17,7): error TS2345',
];

let project: string;
beforeAll(() => {
  project = realpathSync(mkdtempSync(path.join(tmpdir(), 'toolshed-commonjs-types-')));
  mkdirSync(path.join(project, 'node_modules/@toolshed'), { recursive: true });
  for (const name of ['cli', 'host', 'core', 'mcp', 'providers'])
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
          .map((line) => line.replace(/^.*packages\/(cli|host|core|mcp|providers)\//, '@toolshed/$1/').replace(/(error TS\d+).*$/, '$1')),
      ),
    ),
  );
}

describe('the CommonJS builds, from a CommonJS TypeScript project', () => {
  // Each .d.cts declares its ES module twin's exports with the resolution-mode attribute, which
  // every setting takes (a plain `export * from './x.js'` was error TS1479 under node16).
  it.each([
    ['nodenext', false],
    ['nodenext', true],
    ['node16', false],
    ['node16', true],
  ] as const)(
    'type as the ES modules do under module %s (skipLibCheck %s): only the wrong uses fail',
    async (module, skipLibCheck) => {
      expect(await typecheck(module, skipLibCheck)).toEqual(WRONG);
    },
    60_000,
  );
});
