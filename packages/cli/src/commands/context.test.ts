import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ToolDefinition } from '@toolshed/core';
import { measureTools, measureUpFront, type ContextReport } from '@toolshed/context';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const bin = fileURLToPath(new URL('../../bin/toolshed.cjs', import.meta.url));
const workspace = fileURLToPath(new URL('../../../..', import.meta.url));

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

let project: string;

function toolshed(args: string[]): Promise<Run> {
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

const echoManifest = (): ToolDefinition[] =>
  (
    JSON.parse(readFileSync(path.join(workspace, 'plugins/echo/dist/toolshed.json'), 'utf8')) as { tools: { definition: ToolDefinition }[] }
  ).tools.map((tool) => tool.definition);

// A fresh project, as a user has it after `npm install @toolshed/cli @toolshed/tool-echo`.
beforeEach(() => {
  project = realpathSync(mkdtempSync(path.join(tmpdir(), 'toolshed-context-')));
  install('@toolshed/core', path.join(workspace, 'packages/core'));
  install('valibot', realpathSync(path.join(workspace, 'packages/core/node_modules/valibot')));
  install('@toolshed/tool-echo', path.join(workspace, 'plugins/echo'));
  write('package.json', { name: 'app', private: true, dependencies: { '@toolshed/tool-echo': '^1' } });
});
afterEach(() => rmSync(project, { recursive: true, force: true }));

describe('toolshed context', () => {
  it('prints each tool and the total in OpenAI format by default', async () => {
    const run = await toolshed(['context']);
    const report = await measureTools(echoManifest(), { format: 'openai' });
    const echo = report.tools[0]!;
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout.split('\n')).toEqual([
      'tool  description  input  tokens  bytes',
      `echo  ${String(echo.description.tokens).padStart(11)}  ${String(echo.inputSchema.tokens).padStart(5)}  ${String(echo.total.tokens).padStart(6)}  ${String(echo.total.bytes).padStart(5)}`,
      `total: ${report.total.tokens} tokens, ${report.total.bytes} bytes for 1 tool in openai format, counted with o200k_base`,
      '',
    ]);
  });

  it('--json prints the library report for the format asked for', async () => {
    const run = await toolshed(['context', '--format', 'anthropic', '--json']);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const printed = JSON.parse(run.stdout) as ContextReport;
    expect(printed).toEqual(await measureTools(echoManifest(), { format: 'anthropic' }));
    expect(printed.estimate).toBe(true);
  });

  it('labels Anthropic, Gemini and MCP counts as estimates', async () => {
    const run = await toolshed(['context', '--format', 'gemini']);
    expect(run.stdout).toMatch(/in gemini format, estimated with o200k_base \(Gemini's tokenizer is not available offline\)\n$/);
  });

  it('--budget exits 1 when the total is over it, and 0 when it is not', async () => {
    const { total } = await measureTools(echoManifest(), { format: 'mcp' });
    const over = await toolshed(['context', '--format', 'mcp', '--budget', String(total.tokens - 1)]);
    expect(over.code).toBe(1);
    expect(over.stderr).toBe(
      `toolshed context: the tool definitions sent up front cost ${total.tokens} tokens in mcp format, over the budget of ${total.tokens - 1}. ` +
        'Shorten descriptions and schema descriptions, remove plugins, turn on tool search (exposure in toolshed.config.json), or raise --budget.\n',
    );
    const within = await toolshed(['context', '--format', 'mcp', '--budget', String(total.tokens)]);
    expect(within).toMatchObject({ code: 0, stderr: '' });
    const json = await toolshed(['context', '--json', '--budget', '1']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ budget: 1, format: 'openai' });
  });

  it('a budget that is not a whole number of tokens is a usage error', async () => {
    for (const budget of ['x', '0', '-5', '1.5']) {
      const run = await toolshed(['context', '--budget', budget]);
      expect(run, budget).toMatchObject({
        code: 2,
        stdout: '',
        stderr: `toolshed: --budget must be a whole number of tokens above 0, got "${budget}".\n`,
      });
    }
  });

  it('an unknown format is a usage error naming the formats', async () => {
    const run = await toolshed(['context', '--format', 'claude']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /argument 'claude' is invalid\. Allowed choices are openai, openai-strict, openai-responses, openai-responses-strict, anthropic, gemini, mcp\./,
    );
  });

  it("runs the README's commands as written", async () => {
    for (const args of [['context'], ['context', '--format', 'anthropic', '--json'], ['context', '--format', 'mcp', '--budget', '2000']]) {
      const run = await toolshed(args);
      expect(run, args.join(' ')).toMatchObject({ code: 0, stderr: '' });
      expect(run.stdout, args.join(' ')).toContain('echo');
    }
  });

  it('with tool search in the config, also says what is sent up front, and holds that to the budget', async () => {
    write('toolshed.config.json', { exposure: { mode: 'search' } });
    const run = await toolshed(['context']);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const line =
      /^up front with tool search \(exposure "search" in toolshed\.config\.json\): (\d+) tokens, \d+ bytes \(tool_search\); the others are sent once a search finds them$/m.exec(
        run.stdout,
      );
    expect(line).not.toBeNull();
    expect(run.stdout).toContain('\nsearches are ranked by BM25 (words) fused with @toolshed/context-embeddings (meaning)\n');
    const upFront = Number(line![1]);
    const json = JSON.parse((await toolshed(['context', '--json', '--budget', String(upFront)])).stdout) as {
      upFront: { ranker: string; tools: string[]; total: { tokens: number } };
    };
    expect(json.upFront).toMatchObject({ ranker: 'bm25+embeddings', tools: ['tool_search'], total: { tokens: upFront } });
    // The budget counts what is sent up front, not every definition.
    expect((await toolshed(['context', '--budget', String(upFront)])).code).toBe(0);
    expect((await toolshed(['context', '--budget', String(upFront - 1)])).code).toBe(1);
    const library = await measureUpFront(echoManifest(), { format: 'openai', exposure: { mode: 'search' } });
    expect(upFront).toBe(library.report.total.tokens);
  });

  it('an always-loaded tool the plugins lack is a usage error', async () => {
    write('toolshed.config.json', { exposure: { mode: 'search', alwaysLoaded: ['echoo'] } });
    const run = await toolshed(['context']);
    expect(run).toMatchObject({
      code: 2,
      stderr:
        'toolshed: exposure in toolshed.config.json: exposure.alwaysLoaded names "echoo", which the registry does not have; fix the name or drop it.\n',
    });
  });

  it('a project without plugins costs nothing but the empty list', async () => {
    write('package.json', { name: 'empty', private: true });
    const run = await toolshed(['context']);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toMatch(/^total: 1 tokens, 2 bytes for 0 tools in openai format/m);
  });
});

describe('toolshed call --transcript', () => {
  it('records what the definitions cost once per run, before the call', async () => {
    const transcript = path.join(project, 'run.jsonl');
    const run = await toolshed(['call', 'echo', '{"text":"hi"}', '--transcript', transcript]);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const lines = readFileSync(transcript, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const { total } = await measureTools(echoManifest(), { format: 'openai' });
    expect(lines.map((line) => line.type)).toEqual(['definitions', 'call.start', 'call.end']);
    expect(lines[0]).toEqual({
      type: 'definitions',
      format: 'openai',
      tokenizer: 'o200k_base',
      tools: 1,
      tokens: total.tokens,
      bytes: total.bytes,
      at: expect.any(Number),
    });
  });
});
