// Real isolation (the OS sandbox of @toolshed/host): these tests fail, never skip, where it cannot run.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { generateManifest } from '@toolshed/host';
import { afterEach, describe, expect, it } from 'vitest';
import { checkDeclaredPermissions } from './check-declared-permissions.js';

const require = createRequire(import.meta.url);
const CORE_DIR = path.dirname(realpathSync(require.resolve('@toolshed/core/package.json')));
const VALIBOT_DIR = realpathSync(path.join(CORE_DIR, 'node_modules', 'valibot'));

// A tool that reads a file or an environment variable and says what it got, errors included.
const PEEK = `import { readFileSync } from 'node:fs';
import { definePlugin, defineTool } from '@toolshed/core';
import * as v from 'valibot';
export default definePlugin({
  name: 'peek',
  apiVersion: 1,
  tools: [defineTool({
    name: 'peek',
    description: 'Reads a file of the project or an environment variable and returns what it found.',
    input: v.object({ file: v.optional(v.string()), env: v.optional(v.string()) }),
    annotations: { readOnly: true },
    run: ({ file, env }) => {
      if (env !== undefined) return { env: process.env[env] ?? null };
      try { return { text: readFileSync(file, 'utf8') }; } catch (error) { return { error: error.code }; }
    },
  })],
});
`;

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A project with the peek plugin installed, declaring `permissions` (and its generated manifest unless `manifest` is false). */
async function project(permissions: object, manifest = true): Promise<string> {
  const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'toolshed-declared-')));
  dirs.push(dir);
  const modules = path.join(dir, 'node_modules');
  mkdirSync(path.join(modules, '@toolshed'), { recursive: true });
  symlinkSync(CORE_DIR, path.join(modules, '@toolshed', 'core'), 'dir');
  symlinkSync(VALIBOT_DIR, path.join(modules, 'valibot'), 'dir');
  const plugin = path.join(modules, 'peek');
  mkdirSync(plugin);
  writeFileSync(path.join(plugin, 'index.js'), PEEK);
  writeFileSync(
    path.join(plugin, 'package.json'),
    JSON.stringify({
      name: 'peek',
      version: '1.0.0',
      type: 'module',
      main: 'index.js',
      toolshed: { apiVersion: 1, tools: ['peek'], ...(manifest ? { manifest: './toolshed.json' } : {}), permissions },
    }),
  );
  if (manifest) await generateManifest(plugin);
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'app', private: true, dependencies: { peek: '1.0.0' } }));
  mkdirSync(path.join(dir, 'docs'));
  writeFileSync(path.join(dir, 'docs', 'guide.md'), '# Guide\n');
  writeFileSync(path.join(dir, '.env'), 'TOKEN=hunter2\n');
  return dir;
}

describe('checkDeclaredPermissions', () => {
  it('finds nothing when every call stays within what the plugin declares', async () => {
    const cwd = await project({ read: ['docs'] });
    const problems = await checkDeclaredPermissions({
      cwd,
      plugin: 'peek',
      calls: [{ tool: 'peek', input: { file: path.join(cwd, 'docs', 'guide.md') } }],
    });
    expect(problems).toEqual([]);
  });

  it('names the call that reads a file the plugin does not declare, even when the plugin hides the error', async () => {
    const cwd = await project({ read: ['docs'] });
    const secret = path.join(cwd, '.env');
    const problems = await checkDeclaredPermissions({
      cwd,
      plugin: 'peek',
      calls: [
        { tool: 'peek', input: { file: path.join(cwd, 'docs', 'guide.md') } },
        { tool: 'peek', input: { file: secret } },
      ],
    });
    expect(problems).toEqual([
      {
        kind: 'permissions',
        tool: 'peek',
        message: expect.stringMatching(
          /^Plugin "peek": call 2 of peek returns \{"text":"TOKEN=hunter2\\n"\} in the host's process but returns \{"error":"E[A-Z]+"\} isolated with only what it declares \(.*"read":\[".*docs"\].*\): it needs something it does not declare; add it to "toolshed.permissions" in its package.json\.$/,
        ),
      },
    ]);
  });

  it('names a call that reads an environment variable the plugin does not declare', async () => {
    const cwd = await project({});
    process.env.TOOLSHED_DECLARED_TEST = 'visible';
    try {
      const problems = await checkDeclaredPermissions({
        cwd,
        plugin: 'peek',
        calls: [{ tool: 'peek', input: { env: 'TOOLSHED_DECLARED_TEST' } }],
      });
      expect(problems.map((problem) => problem.message)).toEqual([
        expect.stringContaining('call 1 of peek returns {"env":"visible"} in the host\'s process but returns {"env":null} isolated'),
      ]);
    } finally {
      delete process.env.TOOLSHED_DECLARED_TEST;
    }
  });

  it('says why when the plugin cannot run isolated (no generated manifest), and compares nothing', async () => {
    const cwd = await project({ read: ['docs'] }, false);
    const problems = await checkDeclaredPermissions({ cwd, plugin: 'peek', calls: [{ tool: 'peek', input: { env: 'HOME' } }] });
    expect(problems).toEqual([
      {
        kind: 'permissions',
        message: expect.stringMatching(
          /^Plugin "peek": it does not load isolated with its declared permissions: .*names no generated manifest; rebuild it with toolshed-manifest/s,
        ),
      },
    ]);
  });

  it('says why when the plugin does not load, and compares nothing', async () => {
    const cwd = await project({ read: ['docs'] });
    const problems = await checkDeclaredPermissions({ cwd, plugin: 'nowhere', calls: [{ tool: 'peek', input: { env: 'HOME' } }] });
    expect(problems).toEqual([
      {
        kind: 'permissions',
        message: expect.stringMatching(
          /^Plugin "nowhere": it did not load in the host's process, so nothing was compared: .*package "nowhere" is not installed/s,
        ),
      },
    ]);
  });
});
