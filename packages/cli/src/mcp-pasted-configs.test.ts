// "Paste, not convert": each client's documented MCP config, pasted as it is into
// toolshed.config.json (the object form keyed by name, `type`, VS Code's `servers` and `inputs`,
// `${VAR}` references), with a local fixture server in place of the real package, listed and
// called through the real `toolshed` binary. And the secrets those references read stay out
// of every output and the cache.
import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cacheFiles, EVERYTHING, MARKER_SERVER, project, removeMade, startHttpMarker, toolshed } from './mcp-project.fixture.js';

const TOKEN = 'tok-pasted-5a7e-secret';
let server: ChildProcess;
let origin: string;
beforeAll(async () => {
  ({ origin, server } = await startHttpMarker(TOKEN));
});
afterAll(() => {
  server?.kill();
  removeMade();
});

/** Every cache file of a project, as text. */
function cacheText(dir: string): string {
  const folder = path.join(dir, 'node_modules/.cache/toolshed/mcp');
  return cacheFiles(dir)
    .map((name) => readFileSync(path.join(folder, name), 'utf8'))
    .join('\n');
}

function spellings(secret: string): string[] {
  return [secret, encodeURIComponent(secret), Buffer.from(secret).toString('base64'), Buffer.from(secret).toString('hex')];
}

const marker = (dir: string) => ({ TEST_MARKER: path.join(dir, 'marker.log') });

describe('Claude Desktop: claude_desktop_config.json', () => {
  it('its "mcpServers" object keyed by name lists and calls; `plugins` shows the server by its key', async () => {
    // The documented filesystem example, the fixture server in place of npx and the package.
    const dir = project({
      mcpServers: {
        filesystem: {
          command: process.execPath,
          args: [MARKER_SERVER, '/Users/username/Desktop', '/Users/username/Downloads'],
        },
      },
    });
    const list = await toolshed(dir, ['list', '--json']);
    expect(list.stderr).toBe('');
    expect(JSON.parse(list.stdout).map((tool: { name: string }) => tool.name)).toContain('whoami');
    // A server's tools need approval unless its entry names them in readOnlyTools, which a pasted config has not.
    const unasked = await toolshed(dir, ['call', 'whoami', '{}']);
    expect(unasked.code).not.toBe(0);
    expect(unasked.stderr).toContain('whoami needs approval');
    expect(unasked.stderr).toContain('run it again with --yes');
    expect(await toolshed(dir, ['call', 'whoami', '{}', '--yes'])).toMatchObject({ code: 0, stdout: 'marker-server over stdio\n' });
    const plugins = await toolshed(dir, ['plugins', '--json']);
    expect(plugins.code).toBe(0);
    expect(JSON.parse(plugins.stdout).plugins[0]).toMatchObject({
      name: 'filesystem',
      source: 'mcp',
      tools: expect.arrayContaining(['whoami']),
    });
    const text = await toolshed(dir, ['plugins']);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('filesystem');
  });
});

describe('Cursor: .cursor/mcp.json', () => {
  it('a stdio server with "env" and a remote one with "url" and "headers", ${env:NAME} read from the environment', async () => {
    const dir = project({
      mcpServers: {
        'server-name': {
          command: process.execPath,
          args: [EVERYTHING, 'stdio'],
          env: { API_KEY: '${env:CURSOR_API_KEY}' },
        },
        remote: {
          url: `${origin}/mcp`,
          headers: { Authorization: 'Bearer ${env:CURSOR_TOKEN}' },
        },
      },
    });
    const env = { CURSOR_API_KEY: 'cursor-key-77c1', CURSOR_TOKEN: TOKEN };
    const list = await toolshed(dir, ['list', '--json'], env);
    expect(list.stderr).toBe('');
    const names = JSON.parse(list.stdout).map((tool: { name: string }) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['whoami', 'echo']));
    const call = await toolshed(dir, ['call', 'whoami', '{}', '--yes'], env);
    expect(call).toMatchObject({ code: 0, stdout: 'marker-server over http\n' });
    const everything = [list.stdout, list.stderr, call.stdout, call.stderr, cacheText(dir)].join('\n');
    for (const form of [...spellings(TOKEN), ...spellings(env.CURSOR_API_KEY)]) expect(everything).not.toContain(form);
  });
});

describe('Claude Code: .mcp.json', () => {
  // The documented expansion example: a default in the URL and a variable inside a header.
  const config = () => ({
    mcpServers: {
      'api-server': {
        type: 'http',
        url: '${API_BASE_URL:-https://api.example.com}/mcp',
        headers: { Authorization: 'Bearer ${API_KEY}' },
      },
    },
  });

  it('"type": "http", ${VAR:-default} and "Bearer ${VAR}" call through; no spelling of the key is in any output or the cache', async () => {
    const dir = project(config());
    const env = { API_BASE_URL: origin, API_KEY: TOKEN };
    const runs = [
      await toolshed(dir, ['plugins', '--json', '--refresh'], env),
      await toolshed(dir, ['call', 'whoami', '{}', '--yes', '--json'], env),
      await toolshed(dir, ['list', '--json'], env),
    ];
    for (const run of runs) expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.stringify(JSON.parse(runs[1]!.stdout).output)).toContain('marker-server over http');
    const everything = [...runs.map((run) => run.stdout + run.stderr), cacheText(dir)].join('\n');
    for (const form of spellings(TOKEN)) expect(everything).not.toContain(form);
  });

  it('the cache is keyed on the text as written: a new key keeps it byte for byte, and the next call sends the new key', async () => {
    const dir = project(config());
    expect(await toolshed(dir, ['list', '--json'], { API_BASE_URL: origin, API_KEY: TOKEN })).toMatchObject({ code: 0, stderr: '' });
    const before = cacheText(dir);
    expect(before).not.toBe('');
    const rotated = { API_BASE_URL: origin, API_KEY: 'rotated-key-0b9d' };
    expect(await toolshed(dir, ['list', '--json'], rotated)).toMatchObject({ code: 0, stderr: '' });
    expect(cacheText(dir)).toBe(before);
    const call = await toolshed(dir, ['call', 'whoami', '{}', '--yes'], rotated);
    expect(call.code).toBe(1);
    expect(call.stderr).toContain('HTTP 401');
    expect(call.stderr + call.stdout).not.toContain('rotated-key-0b9d');
  });

  it('an unset ${VAR} fails naming the variable, the field and the server; with a default, the default is used', async () => {
    const dir = project(config());
    const unset = await toolshed(dir, ['list'], { API_BASE_URL: origin, API_KEY: undefined });
    expect(unset.code).toBe(1);
    expect(unset.stderr).toContain(
      'mcp server "api-server" [options]: option headers.Authorization refers to environment variable API_KEY, which is not set.',
    );
    // The documented default is a remote address no test may reach: here it is the fixture server's.
    const local = project({
      mcpServers: { 'api-server': { ...config().mcpServers['api-server'], url: `\${API_BASE_URL:-${origin}}/mcp` } },
    });
    const fallback = await toolshed(local, ['call', 'whoami', '{}', '--yes'], { API_BASE_URL: undefined, API_KEY: TOKEN });
    expect(fallback).toMatchObject({ code: 0, stdout: 'marker-server over http\n' });
  });

  it('a token read with $(cat file) from a two-line file is refused, naming the server and the header, never the token', async () => {
    const dir = project(config());
    const twoLines = 'line-one-4d2a\nline-two-8e1f';
    const run = await toolshed(dir, ['plugins', '--json'], { API_BASE_URL: origin, API_KEY: twoLines });
    const out = run.stdout + run.stderr;
    expect(out).toContain('mcpServers \\"api-server\\": \\"headers.Authorization\\" holds a line break');
    for (const form of [...spellings(twoLines), 'line-one-4d2a', 'line-two-8e1f']) expect(out).not.toContain(form);
  });
});

describe('VS Code: .vscode/mcp.json', () => {
  it('"servers" and "inputs" are taken as written; a server that needs a prompted ${input:...} fails, saying what to write', async () => {
    const dir = project({
      inputs: [{ type: 'promptString', id: 'perplexity-key', description: 'Perplexity API Key', password: true }],
      servers: {
        Perplexity: {
          type: 'stdio',
          command: process.execPath,
          args: [MARKER_SERVER],
          // MARKER_FILE added: the fixture server writes it when started.
          env: { PERPLEXITY_API_KEY: '${input:perplexity-key}', MARKER_FILE: '${TEST_MARKER}' },
        },
        fetch: { type: 'stdio', command: process.execPath, args: [EVERYTHING, 'stdio'] },
        'my-remote': { type: 'http', url: `${origin}/mcp`, headers: { Authorization: 'Bearer ${env:MY_TOKEN}' } },
      },
    });
    const env = { MY_TOKEN: TOKEN, ...marker(dir) };
    const plugins = await toolshed(dir, ['plugins', '--json'], env);
    const reports = JSON.parse(plugins.stdout).plugins as { name: string; status: string; tools: string[] }[];
    expect(reports.map((report) => [report.name, report.status])).toEqual([
      ['Perplexity', 'failed'],
      ['fetch', 'loaded'],
      ['my-remote', 'loaded'],
    ]);
    expect(plugins.stdout + plugins.stderr).toContain(
      'option env.PERPLEXITY_API_KEY: ${input:perplexity-key} is a VS Code input, which Toolshed cannot prompt for',
    );
    expect(existsSync(env.TEST_MARKER)).toBe(false);
    // A server named in the config that cannot be configured fails startup, as an unset {"env": NAME} does.
    const call = await toolshed(dir, ['call', 'whoami', '{}', '--yes'], env);
    expect(call.code).toBe(1);
    expect(call.stderr).toContain(
      'mcp server "Perplexity" [options]: option env.PERPLEXITY_API_KEY: ${input:perplexity-key} is a VS Code input',
    );
    // Written as an environment variable instead, as the message says, the same file works.
    const fixed = readFileSync(path.join(dir, 'toolshed.config.json'), 'utf8').replace('${input:perplexity-key}', '${PERPLEXITY_API_KEY}');
    writeFileSync(path.join(dir, 'toolshed.config.json'), fixed);
    const refreshed = await toolshed(dir, ['plugins', '--json', '--refresh'], { ...env, PERPLEXITY_API_KEY: 'pplx-key-51' });
    expect(existsSync(env.TEST_MARKER)).toBe(true);
    expect(refreshed.stdout + refreshed.stderr).not.toContain('${input:');
    expect(refreshed.stdout + refreshed.stderr).not.toContain('pplx-key-51');
  });

  it('"servers" beside "mcpServers" is refused, naming both', async () => {
    const dir = project({ servers: {}, mcpServers: {} });
    const run = await toolshed(dir, ['list']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('"servers" (VS Code\'s name) and "mcpServers" are both given; keep one');
  });
});

describe('a legacy SSE server', () => {
  it('"type": "sse" connects with the SDK\'s SSE transport, headers sent, and calls through', async () => {
    const dir = project({
      mcpServers: { legacy: { type: 'sse', url: `${origin}/sse`, headers: { Authorization: 'Bearer ${SSE_TOKEN}' } } },
    });
    const call = await toolshed(dir, ['call', 'whoami', '{}', '--yes'], { SSE_TOKEN: TOKEN });
    expect(call).toMatchObject({ code: 0, stdout: 'marker-server over sse\n' });
  });
});

describe('the object form, checked', () => {
  it('an entry whose "name" differs from its key, and a key that is no server name, are refused at once', async () => {
    const dir = project({ mcpServers: { files: { name: 'other', command: 'x' }, 'bad name!': { command: 'y' } } });
    const run = await toolshed(dir, ['list']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('mcpServers "files" has "name" "other"; in the object form the key is the name: leave "name" out');
    expect(run.stderr).toContain('mcpServers "bad name!" must be 1-64 letters, digits, _ or -');
  });
});

describe("host's README", () => {
  it('its object-form example loads as written, with the fixture servers in place of the package and the remote address', async () => {
    const readme = readFileSync(fileURLToPath(new URL('../../host/README.md', import.meta.url)), 'utf8');
    const block = [...readme.matchAll(/```json\n([\s\S]*?)```/g)]
      .map((match) => match[1]!)
      .find((json) => json.includes('${TICKETS_TOKEN}'))!;
    const config = JSON.parse(block) as { mcpServers: { files: { command: string; args: string[] }; tickets: { url: string } } };
    expect(config.mcpServers.files.args.at(-1)).toBe('${workspaceFolder}/docs');
    config.mcpServers.files.command = process.execPath;
    config.mcpServers.files.args = [EVERYTHING, 'stdio', config.mcpServers.files.args.at(-1)!];
    const dir = project(config);
    // TICKETS_URL points the example's default away from a remote address no test may reach.
    const env = { TICKETS_URL: origin, TICKETS_TOKEN: TOKEN };
    const plugins = await toolshed(dir, ['plugins', '--json', '--refresh'], env);
    expect(plugins.code).toBe(0);
    const reports = JSON.parse(plugins.stdout).plugins as { name: string; status: string }[];
    expect(reports.map((report) => [report.name, report.status])).toEqual([
      ['files', 'loaded'],
      ['tickets', 'loaded'],
    ]);
    expect(await toolshed(dir, ['call', 'whoami', '{}', '--yes'], env)).toMatchObject({ code: 0, stdout: 'marker-server over http\n' });
    const unset = await toolshed(dir, ['list'], { TICKETS_URL: origin, TICKETS_TOKEN: undefined });
    expect(unset.stderr).toContain(
      'mcp server "tickets" [options]: option headers.Authorization refers to environment variable TICKETS_TOKEN, which is not set',
    );
  });
});
