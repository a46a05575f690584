import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { toolshed } from './mcp-project.fixture.js';
import { loadedModules, moduleLog } from './module-log.fixture.js';

// Plugins named by path in toolshed.config.json (as this repository names its three) are as lazy
// as installed ones: a call imports only the plugin whose tool it calls.
const workspace = fileURLToPath(new URL('../../..', import.meta.url));
const manifestBin = path.join(
  path.dirname(createRequire(import.meta.url).resolve('@toolshed/host/package.json')),
  'bin/toolshed-manifest.js',
);

let scratch: string;
beforeEach(() => {
  scratch = realpathSync(mkdtempSync(path.join(tmpdir(), 'toolshed-path-plugins-')));
});
afterEach(() => rmSync(scratch, { recursive: true, force: true }));

describe('plugins named by path', () => {
  it("in this repository, `toolshed call echo` imports the echo plugin and neither read_file's nor send_email's", async () => {
    const log = path.join(scratch, 'modules.log');
    const { env, nodeArgs } = moduleLog(log);
    const run = await toolshed(workspace, ['call', 'echo', '{"text":"hi"}'], env, nodeArgs);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ text: 'hi' });
    const { esm, cjs } = loadedModules(readFileSync(log, 'utf8'));
    const plugins = [...esm, ...cjs].filter((url) => url.includes('/plugins/')).map((url) => url.replace(/^.*\/plugins\//, ''));
    expect(plugins).toContain('echo/dist/index.js');
    expect(plugins.filter((file) => !file.startsWith('echo/'))).toEqual([]);
  });

  it("a path plugin that throws on import is not imported by a call to another plugin's tool; a call to its own tool names it", async () => {
    const project = path.join(scratch, 'project');
    const broken = path.join(project, 'plugins/broken');
    mkdirSync(path.join(project, 'node_modules/@toolshed'), { recursive: true });
    symlinkSync(path.join(workspace, 'packages/core'), path.join(project, 'node_modules/@toolshed/core'), 'dir');
    symlinkSync(
      realpathSync(path.join(workspace, 'packages/core/node_modules/valibot')),
      path.join(project, 'node_modules/valibot'),
      'dir',
    );
    mkdirSync(path.join(project, 'plugins'), { recursive: true });
    symlinkSync(path.join(workspace, 'plugins/echo'), path.join(project, 'plugins/echo'), 'dir');
    mkdirSync(broken);
    writeFileSync(
      path.join(broken, 'package.json'),
      JSON.stringify({
        name: 'tool-broken',
        version: '1.0.0',
        type: 'module',
        exports: './index.js',
        peerDependencies: { '@toolshed/core': '^1' },
        toolshed: { apiVersion: 1, tools: ['shout'], manifest: './toolshed.json' },
      }),
    );
    // It imports cleanly while its manifest is made, and throws on import once BROKEN is set.
    writeFileSync(
      path.join(broken, 'index.js'),
      `import { defineTool, definePlugin } from '@toolshed/core';
import * as v from 'valibot';
if (process.env.BROKEN) throw new Error('tool-broken cannot start');
export default definePlugin({ name: 'tool-broken', apiVersion: 1, options: v.optional(v.object({})), tools: [defineTool({
  name: 'shout', description: 'Shouts the text.', input: v.object({ text: v.string() }), run: ({ text }) => text.toUpperCase(),
})] });
`,
    );
    execFileSync(process.execPath, [manifestBin], { cwd: broken, stdio: 'pipe' });
    const config = (plugins: unknown[]) => writeFileSync(path.join(project, 'toolshed.config.json'), JSON.stringify({ plugins }));
    config(['./plugins/echo', './plugins/broken']);
    const env = { BROKEN: '1' };

    const echo = await toolshed(project, ['call', 'echo', '{"text":"hi"}'], env);
    expect(echo).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(echo.stdout)).toEqual({ text: 'hi' });
    const own = await toolshed(project, ['call', 'shout', '{"text":"hi"}'], env);
    expect(own.code).toBe(1);
    expect(own.stderr).toContain('tool-broken cannot start');
    // Given options, which only its code can check, it runs at startup: a wrong option fails the
    // command rather than a later call.
    config(['./plugins/echo', ['./plugins/broken', {}]]);
    const checked = await toolshed(project, ['call', 'echo', '{"text":"hi"}'], env);
    expect(checked.code).toBe(1);
    expect(checked.stderr).toContain('tool-broken cannot start');
  });
});
