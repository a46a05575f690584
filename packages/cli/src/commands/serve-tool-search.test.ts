import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const bin = fileURLToPath(new URL('../../bin/toolshed.cjs', import.meta.url));
const workspace = fileURLToPath(new URL('../../../..', import.meta.url));
const BUNDLED = {
  '@toolshed/tool-echo': 'plugins/echo',
  '@toolshed/tool-read-file': 'plugins/read-file',
  '@toolshed/tool-send-email': 'plugins/send-email',
};

let project: string;
const clients: Client[] = [];
const children: ChildProcess[] = [];

function write(relative: string, content: object): void {
  writeFileSync(path.join(project, relative), JSON.stringify(content, null, 2));
}

function install(name: string, dir: string): void {
  mkdirSync(path.dirname(path.join(project, 'node_modules', name)), { recursive: true });
  symlinkSync(dir, path.join(project, 'node_modules', name), 'dir');
}

beforeEach(() => {
  project = realpathSync(mkdtempSync(path.join(tmpdir(), 'toolshed-serve-search-')));
  install('@toolshed/core', path.join(workspace, 'packages/core'));
  install('valibot', realpathSync(path.join(workspace, 'packages/core/node_modules/valibot')));
  for (const [name, dir] of Object.entries(BUNDLED)) install(name, path.join(workspace, dir));
  write('package.json', { name: 'app', private: true, dependencies: Object.fromEntries(Object.keys(BUNDLED).map((name) => [name, '^1'])) });
});

afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  for (const child of children.splice(0)) child.kill();
  rmSync(project, { recursive: true, force: true });
});

async function stdioClient(args: string[]): Promise<{ client: Client; changes: () => number; changed: () => Promise<void> }> {
  const client = new Client({ name: 'tool-search-test', version: '1.0.0' });
  let count = 0;
  let wake: (() => void) | undefined;
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    count++;
    wake?.();
  });
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [bin, 'serve', ...args], cwd: project, stderr: 'pipe' }),
  );
  clients.push(client);
  return { client, changes: () => count, changed: () => new Promise<void>((resolve) => (count > 0 ? resolve() : (wake = resolve))) };
}

function resultText(result: unknown): string {
  return (result as { content: { text: string }[] }).content[0]!.text;
}

function toolshed(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], { cwd: project, env: { ...process.env, NO_COLOR: '1' } }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
  });
}

describe('toolshed serve --tool-search', { timeout: 30_000 }, () => {
  it('lists tool_search alone, then what a search found, and tells the client the list changed', async () => {
    const { client, changes, changed } = await stdioClient(['--tool-search']);
    expect(client.getServerCapabilities()?.tools).toEqual({ listChanged: true });
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['tool_search']);

    const found = await client.callTool({ name: 'tool_search', arguments: { query: 'send an email to someone', limit: 1 } });
    expect(found.isError).toBeFalsy();
    expect(JSON.parse(resultText(found))).toMatchObject({ tools: [{ name: 'send_email' }] });
    await changed();
    expect(changes()).toBe(1);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['tool_search', 'send_email']);

    // A search that finds nothing new changes nothing.
    await client.callTool({ name: 'tool_search', arguments: { query: 'send an email to someone', limit: 1 } });
    const echo = await client.callTool({ name: 'echo', arguments: { text: 'still callable' } });
    expect(echo.structuredContent).toEqual({ text: 'still callable' });
    expect(changes()).toBe(1);
  });

  it('runs a tool a search found at once, before the client has listed the tools again', async () => {
    writeFileSync(path.join(project, 'notes.txt'), 'found in the same turn\n');
    const { client } = await stdioClient(['--tool-search']);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['tool_search']);
    const found = await client.callTool({ name: 'tool_search', arguments: { query: 'read a file of the project', limit: 1 } });
    expect(JSON.parse(resultText(found))).toMatchObject({ tools: [{ name: 'read_file' }] });
    // The model calls what it found in its next step; the client has not re-listed (tools/list_changed only tells it to).
    const read = await client.callTool({ name: 'read_file', arguments: { path: 'notes.txt' } });
    expect(read.isError).toBeFalsy();
    expect(read.structuredContent).toMatchObject({ path: 'notes.txt', text: 'found in the same turn' });
  });

  it('answers a bad search like any tool call: isError with the field named', async () => {
    const { client, changes } = await stdioClient(['--tool-search']);
    const bad = await client.callTool({ name: 'tool_search', arguments: { query: 42 } });
    expect(bad.isError).toBe(true);
    expect(resultText(bad)).toMatch(/^Invalid input for tool_search\.query: expected string, received number/);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['tool_search']);
    expect(changes()).toBe(0);
  });

  it("follows the config's exposure, always-loaded tools included, without the flag", async () => {
    write('toolshed.config.json', { exposure: { mode: 'search', alwaysLoaded: ['read_file'] } });
    const { client } = await stdioClient([]);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['tool_search', 'read_file']);
  });

  it('keeps what one HTTP session found to that session', async () => {
    const child = spawn(process.execPath, [bin, 'serve', '--tool-search', '--http', '127.0.0.1:0'], { cwd: project });
    children.push(child);
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const match = /at (http:\/\/\S+)/.exec(out);
        if (match) resolve(match[1]!);
      });
      child.once('exit', (code) => reject(new Error(`serve exited with ${code}`)));
    });
    const connect = async () => {
      const client = new Client({ name: 'session', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      clients.push(client);
      return client;
    };
    const first = await connect();
    const second = await connect();
    await first.callTool({ name: 'tool_search', arguments: { query: 'read a file of the project' } });
    expect((await first.listTools()).tools.map((tool) => tool.name)).toContain('read_file');
    expect((await second.listTools()).tools.map((tool) => tool.name)).toEqual(['tool_search']);
  });

  it('refuses --stateless, and an always-loaded tool that does not exist, at startup', async () => {
    const stateless = await toolshed(['serve', '--tool-search', '--http', '127.0.0.1:0', '--stateless']);
    expect(stateless).toMatchObject({
      code: 2,
      stderr:
        'toolshed: --tool-search needs sessions: a stateless server forgets between requests what a search found. Drop --stateless, or use exposure "always".\n',
    });
    write('toolshed.config.json', { exposure: { mode: 'search', alwaysLoaded: ['read_fil'] } });
    const missing = await toolshed(['serve']);
    expect(missing).toMatchObject({
      code: 2,
      stderr: 'toolshed: tool search: exposure.alwaysLoaded names "read_fil", which the registry does not have; fix the name or drop it.\n',
    });
  });
});
