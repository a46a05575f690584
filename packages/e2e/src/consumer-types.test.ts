import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from './workspace-copy.js';

// TypeScript projects that use the packages, as ES modules and as CommonJS: the types are the
// real ones, not `any`, which one wrong use of each entry shows.
const TSC = path.join(REPO_ROOT, 'node_modules/typescript/bin/tsc');
const IMPORTS = `import { main, run } from '@toolshed/cli';
import { createHost } from '@toolshed/host';
import { ToolRegistry } from '@toolshed/core';
import { coreVersion, isToolName, PluginError } from '@toolshed/core/contract';
import { checkServerConfig } from '@toolshed/mcp/mount';
import { TOOL_FORMATS } from '@toolshed/providers/formats';
import type { CreateHostOptions } from '@toolshed/host';
`;
const USES = `
const options: CreateHostOptions<[]> = { discover: false };
export const uses = [run(['list']), main(['node', 'toolshed', 'list']), createHost(options), coreVersion(), isToolName('echo'), checkServerConfig, TOOL_FORMATS, new ToolRegistry()];
export const error: PluginError = new PluginError({ phase: 'resolve' }, 'a class is a value and a type');

export const wrong = [
  createHost({ plugin: [] }),
  coreVersion('@toolshed/core'),
  checkServerConfig({}, 1),
  TOOL_FORMATS.includes(7),
  run('list'),
  new ToolRegistry().register(1),
];
`;
// One error per wrong use, on its own line (14 to 19), as tsc reports it.
const WRONG = [
  'index.ts(14,16): error TS2561',
  'index.ts(15,15): error TS2554',
  'index.ts(16,25): error TS2345',
  'index.ts(17,25): error TS2345',
  'index.ts(18,7): error TS2345',
  'index.ts(19,31): error TS2345',
];
// A CommonJS file under node16 (which models a Node that cannot require() an ES module) takes
// the packages by import(), and their types with the resolution-mode attribute.
const DYNAMIC = `import type { CreateHostOptions } from '@toolshed/host' with { 'resolution-mode': 'import' };
import type { PluginError } from '@toolshed/core/contract' with { 'resolution-mode': 'import' };
export async function use() {
  const { main, run } = await import('@toolshed/cli');
  const { createHost } = await import('@toolshed/host');
  const { ToolRegistry } = await import('@toolshed/core');
  const { coreVersion, isToolName, PluginError } = await import('@toolshed/core/contract');
  const { checkServerConfig } = await import('@toolshed/mcp/mount');
  const { TOOL_FORMATS } = await import('@toolshed/providers/formats');
${USES.replaceAll('export const', 'const').replace(/\n$/, '')}
  return [uses, error, wrong];
}
`;

let project: string;
beforeAll(() => {
  project = realpathSync(mkdtempSync(path.join(tmpdir(), 'toolshed-consumer-types-')));
  mkdirSync(path.join(project, 'node_modules/@toolshed'), { recursive: true });
  for (const name of ['cli', 'host', 'core', 'mcp', 'providers'])
    symlinkSync(path.join(REPO_ROOT, 'packages', name), path.join(project, 'node_modules/@toolshed', name), 'dir');
});
afterAll(() => rmSync(project, { recursive: true, force: true }));

/** tsc's error lines for `source` in a project of `type` under `module` (and the same moduleResolution), each cut after its code. */
function typecheck(type: 'module' | 'commonjs', module: string, source: string, dir = project): Promise<string[]> {
  const project = dir;
  const compilerOptions = { module, moduleResolution: module, strict: true, noEmit: true, types: [] };
  writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type }));
  writeFileSync(path.join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['index.ts'] }));
  writeFileSync(path.join(project, 'index.ts'), source);
  return new Promise((resolve) =>
    execFile(process.execPath, [TSC, '-p', 'tsconfig.json', '--pretty', 'false'], { cwd: project }, (_error, stdout) =>
      resolve(
        stdout
          .split('\n')
          .filter((line) => line.includes('error TS'))
          .map((line) => line.replace(/(error TS\d+).*$/, '$1')),
      ),
    ),
  );
}

describe('a TypeScript project that uses the packages', () => {
  it.each([
    ['module', 'node16'],
    ['module', 'nodenext'],
    ['commonjs', 'nodenext'],
  ] as const)(
    'of type %s, under module %s, imports them: only the wrong uses fail',
    async (type, module) => {
      expect(await typecheck(type, module, IMPORTS + USES)).toEqual(WRONG);
    },
    60_000,
  );

  it('of type commonjs under node16 takes them by import(): only the wrong uses fail', async () => {
    expect(await typecheck('commonjs', 'node16', DYNAMIC)).toEqual([
      'index.ts(16,16): error TS2561',
      'index.ts(17,15): error TS2554',
      'index.ts(18,25): error TS2345',
      'index.ts(19,25): error TS2345',
      'index.ts(20,7): error TS2345',
      'index.ts(21,31): error TS2345',
    ]);
  }, 60_000);

  it('of type commonjs under node16 cannot import them statically: tsc says so for each import (TS1479), as for any ES module', async () => {
    const errors = await typecheck('commonjs', 'node16', IMPORTS + USES);
    expect(errors.slice(0, 7)).toEqual([
      'index.ts(1,27): error TS1479',
      'index.ts(2,28): error TS1479',
      'index.ts(3,30): error TS1479',
      'index.ts(4,54): error TS1479',
      'index.ts(5,35): error TS1479',
      'index.ts(6,30): error TS1479',
      'index.ts(7,40): error TS1541',
    ]);
  }, 60_000);
});

describe('a TypeScript project with @toolshed/host and no @toolshed/mcp (its optional peer)', () => {
  let alone: string;
  beforeAll(() => {
    alone = realpathSync(mkdtempSync(path.join(tmpdir(), 'toolshed-consumer-host-alone-')));
    const modules = path.join(alone, 'node_modules');
    mkdirSync(path.join(modules, '@toolshed/host'), { recursive: true });
    // A copy, not a link: from the workspace's host folder its devDependency @toolshed/mcp is found.
    for (const part of ['package.json', 'dist'])
      cpSync(path.join(REPO_ROOT, 'packages/host', part), path.join(modules, '@toolshed/host', part), { recursive: true });
    symlinkSync(path.join(REPO_ROOT, 'packages/core'), path.join(modules, '@toolshed/core'), 'dir');
    symlinkSync(realpathSync(path.join(REPO_ROOT, 'packages/core/node_modules/valibot')), path.join(modules, 'valibot'), 'dir');
  });
  afterAll(() => rmSync(alone, { recursive: true, force: true }));

  it('type-checks with library checks on, and mcpServers entries are still typed', async () => {
    const source = `import { createHost } from '@toolshed/host';
export const ok = createHost({ mcpServers: { files: { command: 'npx', args: ['-y', 'x'], startTimeoutMs: 5, readOnlyTools: ['read'] } } });
export const wrong = createHost({ mcpServers: { files: { command: 'npx', startTimeoutMS: 5 } } });
`;
    expect(await typecheck('module', 'nodenext', source, alone)).toEqual(['index.ts(3,74): error TS2322']);
  }, 60_000);
});
