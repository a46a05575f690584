import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ToolUnion } from '@anthropic-ai/sdk/resources/messages/messages';
import { createToolSearch, toAnthropicToolsWithSearch } from '@toolshed/context';
import { ToolRegistry, type ToolDefinition } from '@toolshed/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const bin = fileURLToPath(new URL('../../bin/toolshed.cjs', import.meta.url));
const workspace = fileURLToPath(new URL('../../../..', import.meta.url));
const plugins = { '@toolshed/tool-echo': 'echo', '@toolshed/tool-read-file': 'read-file', '@toolshed/tool-send-email': 'send-email' };

let project: string;

function toolshed(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], { cwd: project, env: { ...process.env, NO_COLOR: '1' } }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
  });
}

function write(relative: string, content: object): void {
  writeFileSync(path.join(project, relative), JSON.stringify(content, null, 2));
}

function install(name: string, dir: string): void {
  mkdirSync(path.dirname(path.join(project, 'node_modules', name)), { recursive: true });
  symlinkSync(dir, path.join(project, 'node_modules', name), 'dir');
}

/** The definitions the plugins' manifests hold, in the order the CLI lists them. */
function definitions(): ToolDefinition[] {
  return Object.values(plugins).flatMap((dir) =>
    (
      JSON.parse(readFileSync(path.join(workspace, 'plugins', dir, 'dist/toolshed.json'), 'utf8')) as {
        tools: { definition: ToolDefinition }[];
      }
    ).tools.map((tool) => tool.definition),
  );
}

/** What the library gives a harness for these tools; the SDK's own tool union must take it (checked when this file typechecks). */
async function fromTheLibrary(alwaysLoaded?: string[]): Promise<ToolUnion[]> {
  const registry = new ToolRegistry();
  for (const definition of definitions()) registry.registerDeferred({ definition, load: () => Promise.reject(new Error('not run')) });
  const search = await createToolSearch(registry, { exposure: { mode: 'search', ...(alwaysLoaded ? { alwaysLoaded } : {}) } });
  return toAnthropicToolsWithSearch(registry, search);
}

// A fresh project with the three bundled plugins, as a user has it after npm install.
beforeEach(() => {
  project = realpathSync(mkdtempSync(path.join(tmpdir(), 'toolshed-deferred-')));
  install('@toolshed/core', path.join(workspace, 'packages/core'));
  install('valibot', realpathSync(path.join(workspace, 'packages/core/node_modules/valibot')));
  for (const [name, dir] of Object.entries(plugins)) install(name, path.join(workspace, 'plugins', dir));
  write('package.json', { name: 'app', private: true, dependencies: Object.fromEntries(Object.keys(plugins).map((name) => [name, '^1'])) });
});
afterEach(() => rmSync(project, { recursive: true, force: true }));

describe('toolshed schema --format anthropic --deferred', () => {
  it("prints Anthropic's tool search tool, not deferred, then every tool deferred, as the library builds them", async () => {
    const run = await toolshed(['schema', '--format', 'anthropic', '--deferred']);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const tools = JSON.parse(run.stdout) as Record<string, unknown>[];
    expect(tools[0]).toEqual({ type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' });
    expect(tools.slice(1).map((tool) => [tool.name, tool.defer_loading])).toEqual([
      ['echo', true],
      ['read_file', true],
      ['send_email', true],
    ]);
    expect(tools).toEqual(await fromTheLibrary());
    // The plain format is the same tools without the search tool and the marks.
    const plain = JSON.parse((await toolshed(['schema', '--format', 'anthropic'])).stdout) as unknown[];
    expect(tools.slice(1).map(({ defer_loading, ...tool }) => tool)).toEqual(plain);
  });

  it("keeps the config's exposure.alwaysLoaded tools loaded, and prints only the tools named", async () => {
    write('toolshed.config.json', { exposure: { mode: 'search', alwaysLoaded: ['read_file'] } });
    const run = await toolshed(['schema', '--format', 'anthropic', '--deferred']);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(run.stdout)).toEqual(await fromTheLibrary(['read_file']));
    expect(JSON.parse(run.stdout)[2]).not.toHaveProperty('defer_loading');
    const named = JSON.parse((await toolshed(['schema', 'send_email', '--format', 'anthropic', '--deferred'])).stdout) as Record<
      string,
      unknown
    >[];
    expect(named.map((tool) => [tool.name, tool.defer_loading])).toEqual([
      ['tool_search_tool_bm25', undefined],
      ['send_email', true],
    ]);
  });

  it('is a usage error without --format anthropic, and prints nothing', async () => {
    for (const [args, said] of [
      [['schema', '--deferred'], "toolshed: --deferred marks tools for Anthropic's tool search, so it needs --format anthropic.\n"],
      [
        ['schema', 'echo', '--format', 'openai', '--deferred'],
        "toolshed: --deferred marks tools for Anthropic's tool search, so it needs --format anthropic (not openai).\n",
      ],
      [
        ['schema', '--json', '--deferred'],
        "toolshed: --deferred marks tools for Anthropic's tool search, so it needs --format anthropic.\n",
      ],
    ] as const) {
      expect(await toolshed([...args]), args.join(' ')).toEqual({ code: 2, stdout: '', stderr: said });
    }
  });

  it('an always-loaded tool the plugins lack is a usage error, and prints nothing', async () => {
    write('toolshed.config.json', { exposure: { mode: 'search', alwaysLoaded: ['echoo'] } });
    const run = await toolshed(['schema', '--format', 'anthropic', '--deferred']);
    expect(run).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'toolshed: exposure in toolshed.config.json: exposure.alwaysLoaded names "echoo", which the registry does not have; fix the name or drop it.\n',
    });
  });

  it("runs the README's command as written", async () => {
    const readme = readFileSync(fileURLToPath(new URL('../../README.md', import.meta.url)), 'utf8');
    expect(readme).toContain('| `toolshed schema [tools...] --format anthropic --deferred` |');
    const run = await toolshed(['schema', '--format', 'anthropic', '--deferred']);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(run.stdout)).toHaveLength(4);
  });
});
