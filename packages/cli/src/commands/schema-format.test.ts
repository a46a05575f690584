import { execFile } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureProject } from '../project.fixture.js';

const bin = fileURLToPath(new URL('../../bin/toolshed.cjs', import.meta.url));
// A project of the tests' own that declares the bundled plugins, like a user's project would.
const projectRoot = fixtureProject();
const workspace = fileURLToPath(new URL('../../../..', import.meta.url));

function toolshed(args: string[], cwd = projectRoot): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], { cwd, env: { ...process.env, NO_COLOR: '1' } }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

const echoSchema = {
  type: 'object',
  properties: { text: { type: 'string', description: 'The text to return.' } },
  required: ['text'],
};
const echoDescription = 'Return the given text unchanged. Useful to check that tool calls work.';

describe('toolshed schema --format', () => {
  it('openai: Chat Completions function tools', async () => {
    const run = await toolshed(['schema', 'echo', '--format', 'openai']);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(run.stdout)).toEqual([
      { type: 'function', function: { name: 'echo', description: echoDescription, parameters: echoSchema } },
    ]);
  });

  it('openai-strict: rewritten schemas with strict: true', async () => {
    const run = await toolshed(['schema', 'echo', '--format', 'openai-strict']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual([
      {
        type: 'function',
        function: { name: 'echo', description: echoDescription, parameters: { ...echoSchema, additionalProperties: false }, strict: true },
      },
    ]);
  });

  it('openai-responses-strict: Responses tools with strict: true and the rewritten schemas', async () => {
    const run = await toolshed(['schema', 'echo', '--format', 'openai-responses-strict']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual([
      {
        type: 'function',
        name: 'echo',
        description: echoDescription,
        parameters: { ...echoSchema, additionalProperties: false },
        strict: true,
      },
    ]);
  });

  it('openai-responses, anthropic, gemini and mcp', async () => {
    const [responses, anthropic, gemini, mcp] = await Promise.all(
      ['openai-responses', 'anthropic', 'gemini', 'mcp'].map((format) => toolshed(['schema', 'echo', '--format', format])),
    );
    expect(JSON.parse(responses!.stdout)).toEqual([
      { type: 'function', name: 'echo', description: echoDescription, parameters: echoSchema, strict: false },
    ]);
    expect(JSON.parse(anthropic!.stdout)).toEqual([{ name: 'echo', description: echoDescription, input_schema: echoSchema }]);
    expect(JSON.parse(gemini!.stdout)).toEqual([
      { functionDeclarations: [{ name: 'echo', description: echoDescription, parameters: echoSchema }] },
    ]);
    expect(JSON.parse(mcp!.stdout)).toEqual([
      {
        name: 'echo',
        description: echoDescription,
        // No output schema: the server checks outputs itself, and tools/list stays as lean as the other formats.
        inputSchema: echoSchema,
        annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      },
    ]);
  });

  it('an unknown format is a usage error listing the formats, and prints nothing', async () => {
    const run = await toolshed(['schema', '--format', 'cohere']);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(
      "argument 'cohere' is invalid. Allowed choices are openai, openai-strict, openai-responses, openai-responses-strict, anthropic, gemini, mcp.",
    );
  });
});

describe('toolshed schema --format openai-strict with a tool that cannot be strict', () => {
  let dir: string;
  beforeAll(async () => {
    dir = realpathSync(await mkdtemp(join(tmpdir(), 'toolshed-format-')));
    // The workspace's built core and valibot stand in for what npm would install next to the plugin.
    await mkdir(join(dir, 'node_modules/@toolshed'), { recursive: true });
    await symlink(join(workspace, 'packages/core'), join(dir, 'node_modules/@toolshed/core'), 'dir');
    await symlink(realpathSync(join(workspace, 'packages/core/node_modules/valibot')), join(dir, 'node_modules/valibot'), 'dir');
    await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'labels-project', private: true }));
    // A local plugin whose tool takes an open-ended record.
    await writeFile(
      join(dir, 'labels.mjs'),
      `import { defineTool, definePlugin } from '@toolshed/core';
import * as v from 'valibot';
export default definePlugin({ name: 'labels-plugin', apiVersion: 1, tools: [defineTool({
  name: 'set_labels', description: 'Set labels.', input: v.object({ labels: v.record(v.string(), v.string()) }),
  run: () => 'ok',
})] });
`,
    );
    await writeFile(join(dir, 'toolshed.config.json'), JSON.stringify({ plugins: ['./labels.mjs'] }));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('exits 1 naming the tool, the field and the reason, and prints no tools', async () => {
    const run = await toolshed(['schema', '--format', 'openai-strict'], dir);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(
      'Tool "set_labels" cannot be sent with OpenAI strict mode:\n  - field "labels": it is a record with open-ended keys',
    );
    expect(run.code).toBe(1);
    // The same tool is fine without strict.
    const plain = await toolshed(['schema', '--format', 'openai'], dir);
    expect(plain.code).toBe(0);
    expect(JSON.parse(plain.stdout)[0].function.name).toBe('set_labels');
  });
});
