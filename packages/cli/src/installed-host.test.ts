import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The CLI's bundle keeps every @toolshed package an import (rolldown.config.js), so a fix
// in @toolshed/host reaches the CLI by installing that host. Proved here the way a user
// would see it: the built CLI installed beside a copy of host whose pluginLabel was
// changed, in a project of its own, prints the changed label, through the plain path
// (list) and through commander's program (plugins).
const cliDir = fileURLToPath(new URL('..', import.meta.url));
// Each package's own node_modules holds links to its dependencies (pnpm's layout).
const packageDir = (name: string, from = cliDir) => path.join(from, 'node_modules', name);
const hostDir = packageDir('@toolshed/host');

let project: string;

function link(name: string, target: string) {
  const at = path.join(project, 'node_modules', name);
  mkdirSync(path.dirname(at), { recursive: true });
  symlinkSync(realpathSync(target), at, 'dir');
}

function copy(name: string, from: string) {
  const at = path.join(project, 'node_modules', name);
  for (const part of ['bin', 'dist', 'package.json'])
    if (existsSync(path.join(from, part))) cpSync(path.join(from, part), path.join(at, part), { recursive: true });
  return at;
}

beforeAll(() => {
  project = realpathSync(mkdtempSync(path.join(tmpdir(), 'toolshed-installed-host-')));
  writeFileSync(
    path.join(project, 'package.json'),
    JSON.stringify({ name: 'p', private: true, devDependencies: { '@toolshed/tool-echo': '^1' } }),
  );
  copy('@toolshed/cli', cliDir);
  const host = copy('@toolshed/host', hostDir);
  // A host release: its build changed.
  const index = path.join(host, 'dist/index.js');
  const source = readFileSync(index, 'utf8');
  expect(source).toContain('function pluginLabel(plugin) {');
  writeFileSync(
    index,
    source.replace(
      'function pluginLabel(plugin) {',
      'function pluginLabel(plugin) {\n\treturn `patched-host:${originalPluginLabel(plugin)}`;\n}\nfunction originalPluginLabel(plugin) {',
    ),
  );
  link('@toolshed/core', packageDir('@toolshed/core'));
  link('@toolshed/providers', packageDir('@toolshed/providers'));
  link('@toolshed/tool-echo', path.join(cliDir, '../../plugins/echo'));
  link('valibot', packageDir('valibot'));
  for (const name of ['semver', 'resolve.exports']) link(name, packageDir(name, hostDir));
});

afterAll(() => rmSync(project, { recursive: true, force: true }));

function toolshed(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const bin = path.join(project, 'node_modules/@toolshed/cli/bin/toolshed.cjs');
  // pnpm's script runner sets NODE_PATH to its store of hoisted packages; a user's shell does not.
  const { NODE_PATH: _, ...env } = process.env;
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], { cwd: project, env: { ...env, NO_COLOR: '1' } }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
  });
}

describe('the CLI uses the @toolshed/host installed beside it, not a copy of its own', () => {
  it('in a plain toolshed list', async () => {
    const run = await toolshed(['list']);
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('patched-host:@toolshed/tool-echo@');
  });

  it('in a command commander runs (toolshed plugins)', async () => {
    const run = await toolshed(['plugins']);
    expect(run.stdout).toContain('patched-host:@toolshed/tool-echo@');
  });

  it('and its bundle imports every @toolshed package rather than holding one', () => {
    const bundle = readFileSync(path.join(project, 'node_modules/@toolshed/cli/dist/toolshed.js'), 'utf8');
    expect(bundle).toMatch(/from "@toolshed\/host"/);
    expect(bundle).not.toContain('function inspectPlugins(');
  });
});
