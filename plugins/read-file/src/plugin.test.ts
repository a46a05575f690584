import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ToolRegistry, type ToolContext } from '@toolshed/core';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import plugin, {
  createReadFileTool,
  DEFAULT_MAX_BYTES,
  DEFAULT_MAX_MEDIA_BYTES,
  DEFAULT_MAX_LINES,
  DEFAULT_MAX_SCAN_BYTES,
  DEFAULT_TIMEOUT_MS,
} from './index.js';
import { expectFailure, expectSuccess, makeTestTree, read, registryFor, type TestTree } from './test-tree.fixture.js';

let tree: TestTree;
beforeAll(async () => {
  tree = await makeTestTree();
  // 40 MiB of lines: long enough that a scan reports progress several times.
  await writeFile(path.join(tree.root, 'large.log'), 'log line of some length here\n'.repeat(1_450_000));
});
afterAll(() => tree.cleanup());

async function toolsOf(options: unknown, cwd: string) {
  const parsed = v.parse(plugin.options!, options);
  const tools = typeof plugin.tools === 'function' ? await plugin.tools(parsed, { cwd }) : plugin.tools;
  return new ToolRegistry().register(tools[0]!);
}

describe('the plugin', () => {
  it('is named after its package and speaks plugin API 1', () => {
    expect(plugin).toMatchObject({ name: '@toolshed/tool-read-file', apiVersion: 1 });
  });

  it("reads from the host's folder when no root is configured", async () => {
    const registry = await toolsOf(undefined, tree.root);
    expect(expectSuccess(await read(registry, { path: 'src/index.ts' })).output.text).toBe('export const answer = 42;');
    expectFailure(await read(registry, { path: '../outside/secret.txt' }), 'denied');
  });

  it("takes a relative root from the host's folder", async () => {
    const registry = await toolsOf({ root: 'sub' }, tree.root);
    expect(expectSuccess(await read(registry, { path: 'deep/file.txt' })).output).toMatchObject({ path: 'deep/file.txt', text: 'deep' });
    expectFailure(await read(registry, { path: '../README.md' }), 'denied');
  });

  it('describes a read-only tool the same whatever the options, and shows the model no option', async () => {
    const registry = await toolsOf({ maxLines: 300, deny: ['private/'] }, tree.root);
    const [definition] = registry.list();
    expect(definition).toMatchObject({ name: 'read_file', annotations: { readOnly: true, idempotent: true } });
    expect(definition).toEqual((await toolsOf({}, tree.root)).list()[0]);
    expect(Object.keys(definition!.inputSchema.properties as object)).toEqual(['path', 'offset', 'limit']);
    expect(JSON.stringify(definition)).not.toContain('private/');
    expect(JSON.stringify(definition)).not.toContain(tree.root);
  });

  it('says when its root folder is missing, without naming it to the model', async () => {
    const root = path.join(tree.base, 'no-such-root');
    const failure = expectFailure(await read(registryFor({ root }), { path: 'README.md' }), 'execution_failed');
    expect(failure.error.message).toBe(
      `read_file's root folder is missing or unreadable; ask the user to check the plugin's "root" option.`,
    );
  });

  it('has documented defaults', () => {
    expect(v.parse(plugin.options!, undefined)).toEqual({
      deny: [],
      maxBytes: DEFAULT_MAX_BYTES,
      maxLines: DEFAULT_MAX_LINES,
      maxScanBytes: DEFAULT_MAX_SCAN_BYTES,
      maxMediaBytes: DEFAULT_MAX_MEDIA_BYTES,
      hardLinks: 'deny-secrets',
      timeoutMs: DEFAULT_TIMEOUT_MS,
    });
    expect([DEFAULT_MAX_SCAN_BYTES, DEFAULT_TIMEOUT_MS]).toEqual([256 * 1024 * 1024, 30_000]);
  });

  it.each([
    [{ maxLines: 0 }, 'maxLines'],
    [{ maxBytes: 1.5 }, 'maxBytes'],
    [{ deny: '.env' }, 'deny'],
    [{ root: '' }, 'root'],
    [{ denny: ['x'] }, 'denny'],
    [{ hardLinks: 'refuse' }, 'hardLinks'],
    [{ maxScanBytes: 0 }, 'maxScanBytes'],
    [{ timeoutMs: -1 }, 'timeoutMs'],
  ])('refuses options %j, naming %s', (options, field) => {
    const parsed = v.safeParse(plugin.options!, options);
    expect(parsed.success).toBe(false);
    expect(v.summarize(parsed.issues!)).toContain(field);
    expect(() => createReadFileTool(options as never)).toThrow(
      new RegExp(`^@toolshed/tool-read-file: invalid options: .*option "?${field}`, 's'),
    );
  });
});

describe('bad input from a model', () => {
  it.each([
    [{}, 'read_file.path'],
    [{ path: 42 }, 'read_file.path: expected string'],
    [{ path: '' }, 'give the path of a file'],
    [{ path: 'x'.repeat(5000) }, 'a path is at most 4096 characters'],
    [{ path: 'README.md', offset: 0 }, 'there is no line 0'],
    [{ path: 'README.md', offset: 1.5 }, 'read_file.offset'],
    [{ path: 'README.md', offset: '3' }, 'read_file.offset: expected number'],
    [{ path: 'README.md', limit: 0 }, 'read_file.limit'],
    [{ path: 'README.md', limit: -10 }, 'read_file.limit'],
  ])('refuses %j as invalid_input, naming the field', async (input, expected) => {
    const failure = expectFailure(await read(registryFor({ root: tree.root }), input), 'invalid_input');
    expect(failure.error.message).toContain(expected);
  });
});

describe('the abort signal', () => {
  it('turns a cancelled call into an aborted outcome', async () => {
    const registry = registryFor({ root: tree.root });
    const controller = new AbortController();
    registry.subscribe((event) => {
      if (event.type === 'call.progress') controller.abort();
    });
    const outcome = await registry.dispatch(
      { name: 'read_file', input: { path: 'large.log', offset: -1_000_000 } },
      { signal: controller.signal },
    );
    expectFailure(outcome, 'aborted');
  });

  it('stops reading at the next chunk once aborted', async () => {
    const tool = createReadFileTool({ root: tree.root });
    const controller = new AbortController();
    const reports: number[] = [];
    const ctx: ToolContext = {
      callId: 'test',
      toolName: 'read_file',
      signal: controller.signal,
      log: { debug() {}, info() {}, warn() {}, error() {} },
      report: (progress) => {
        reports.push(progress.progress);
        controller.abort(new Error('stop here'));
      },
    };
    await expect(tool.run({ path: 'large.log', offset: 1_400_000 }, ctx)).rejects.toThrow('stop here');
    // One report, then the abort is seen before the next chunk: the rest of the file was not scanned.
    expect(reports).toHaveLength(1);
  });
});
