import { existsSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createHost } from '../host.js';
import { Project } from '../project.fixture.js';
import { makeMissing, SANDBOX_PACKAGE, sandboxEntry } from './sandbox.js';

const projects: Project[] = [];
afterEach(() => {
  for (const project of projects.splice(0)) project.remove();
});
function project(): Project {
  const made = new Project();
  projects.push(made);
  return made;
}

const privateFolders = (name: string) => readdirSync(tmpdir()).filter((entry) => entry.startsWith(`toolshed-isolated-${name}-`));

describe('the sandbox package', () => {
  it("is taken from the project's root first, then from host's own folder", () => {
    // A project that installs its own copy: that one is used.
    const own = project().packageJson({ dependencies: { [SANDBOX_PACKAGE]: '0.0.79' } });
    own.write(`node_modules/${SANDBOX_PACKAGE}/package.json`, { name: SANDBOX_PACKAGE, version: '0.0.79', main: 'dist/index.js' });
    own.write(`node_modules/${SANDBOX_PACKAGE}/dist/index.js`, 'export {};\n');
    expect(sandboxEntry(own.dir)).toBe(path.join(own.dir, 'node_modules', SANDBOX_PACKAGE, 'dist', 'index.js'));
    // A project without it: host's own (its optional peer, installed beside it).
    const beside = path.join(fileURLToPath(new URL('../..', import.meta.url)), 'node_modules', SANDBOX_PACKAGE, 'dist', 'index.js');
    expect(sandboxEntry(project().packageJson({}).dir)).toBe(realpathSync(beside));
  });
});

describe('granted write paths that do not exist yet', () => {
  it('are made before the sandbox starts: a name with an extension as an empty file, any other as a folder', () => {
    const p = project();
    const ledger = path.join(p.dir, 'data/send/calls.jsonl');
    const outbox = path.join(p.dir, '.toolshed/outbox');
    makeMissing([ledger, outbox]);
    expect(statSync(ledger).isFile() && statSync(ledger).size).toBe(0);
    expect(statSync(outbox).isDirectory()).toBe(true);
    // What exists is left as it is.
    p.write('kept.txt', 'kept');
    makeMissing([path.join(p.dir, 'kept.txt')]);
    expect(statSync(path.join(p.dir, 'kept.txt')).size).toBe(4);
  });
});

describe("an isolated process's private folder", () => {
  it("of a plugin is removed when the host closes it, and of an MCP server when the server's mount closes", async () => {
    const p = project().packageJson({ dependencies: { 'folder-check': '1.0.0' } });
    p.plugin({ name: 'folder-check' });
    p.write(
      'server/server.mjs',
      `import { ToolRegistry } from '@toolshed/core';
import { serveStdio } from '@toolshed/mcp';
await serveStdio(new ToolRegistry().seal());
`,
    );
    p.link('@toolshed/mcp', path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'node_modules', '@toolshed', 'mcp'));
    const server = { command: process.execPath, args: ['server/server.mjs'], isolate: true, grant: { read: ['server'] } };
    p.config({ isolate: true, mcpServers: { 'folder-server': server } });
    // Only the folders this host makes count (another run may have left some behind).
    const before = new Set([...privateFolders('isolated-folder-check'), ...privateFolders('folder-server')]);
    const made = (name: string) => privateFolders(name).filter((folder) => !before.has(folder));
    const host = await createHost({ cwd: p.dir });
    let plugin: string[];
    let mounted: string[];
    try {
      expect(Object.fromEntries(host.plugins.map((entry) => [entry.name, entry.status]))).toEqual({
        'folder-server': 'loaded',
        'folder-check': 'loaded',
      });
      // The plugin's process starts with its first call.
      expect(await host.registry.dispatch({ name: 'echo', input: { text: 'hi' } }, { approve: 'allow-all' })).toMatchObject({ ok: true });
      plugin = made('isolated-folder-check');
      mounted = made('folder-server');
      expect(plugin).toHaveLength(1);
      expect(mounted).toHaveLength(1);
    } finally {
      await host.close();
    }
    for (const folder of [...plugin, ...mounted]) expect(existsSync(path.join(tmpdir(), folder))).toBe(false);
  });
});
