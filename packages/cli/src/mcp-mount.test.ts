// MCP servers mounted as plugins, through the real `toolshed` binary: server-everything and a
// small SDK server of the tests' own over stdio, the same server over Streamable HTTP with a
// header secret from the environment, and one Toolshed project mounted by another.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ToolRegistry } from '@toolshed/core';
import { createHost, inspectPlugins } from '@toolshed/host';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alive } from './alive.fixture.js';
import {
  bin,
  CORE_DIR,
  ECHO_DIR,
  cacheFiles,
  EVERYTHING,
  MARKER_SERVER,
  MCP_DIR,
  project,
  removeMade,
  startHttpMarker,
  toolshed,
} from './mcp-project.fixture.js';
import { loadedModules, moduleLog } from './module-log.fixture.js';

afterAll(removeMade);

/** An SDK client connected to `toolshed serve --cwd dir` over stdio (without --yes: this host decides approval). */
async function serveClient(dir: string, env: NodeJS.ProcessEnv): Promise<Client> {
  const client = new Client({ name: 'mount-serve-test', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [bin, 'serve', '--cwd', dir],
      env: { ...(process.env as Record<string, string>), ...(env as Record<string, string>) },
      stderr: 'pipe',
    }),
  );
  return client;
}

/**
 * The marker server over stdio; it appends a line to $TEST_MARKER each time it starts. The tools it
 * says are read-only are trusted as such by the entry (its hints alone decide nothing), `wipe` is not.
 */
const markerServer = (script = MARKER_SERVER) => ({
  name: 'marker',
  command: process.execPath,
  args: [script],
  env: { MARKER_FILE: { env: 'TEST_MARKER' } },
  readOnlyTools: ['whoami', 'multiply', 'grow'],
});
const everything = {
  name: 'everything',
  command: process.execPath,
  args: [EVERYTHING, 'stdio'],
  readOnlyTools: ['echo', 'get-sum', 'trigger-long-running-operation'],
};

function starts(marker: string): number {
  return existsSync(marker) ? readFileSync(marker, 'utf8').split('\n').filter(Boolean).length : 0;
}

describe('two stdio servers: server-everything and the marker server', () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;
  let marker: string;
  beforeAll(() => {
    dir = project({ mcpServers: [everything, markerServer()] });
    marker = path.join(dir, 'marker.log');
    env = { TEST_MARKER: marker };
  });

  it('list starts each server once to fill the cache, then list, schema and context start none', async () => {
    const first = await toolshed(dir, ['list', '--json'], env);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    const tools = JSON.parse(first.stdout) as { name: string; plugin: string; source?: string; annotations: object }[];
    expect(tools.find((tool) => tool.name === 'get-sum')).toMatchObject({ plugin: 'everything', source: 'mcp' });
    expect(tools.filter((tool) => tool.plugin === 'marker').map((tool) => tool.name)).toEqual(['whoami', 'wipe', 'multiply', 'grow']);
    // The spec's defaults for hints the server left out: destructive and open-world.
    expect(tools.find((tool) => tool.name === 'wipe')!.annotations).toMatchObject({ destructive: true, openWorld: true });
    expect(starts(marker)).toBe(1);
    expect(cacheFiles(dir)).toHaveLength(2);

    rmSync(marker);
    const again = await toolshed(dir, ['list', '--json'], env);
    expect(again).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(again.stdout)).toEqual(tools);
    const text = await toolshed(dir, ['list'], env);
    expect(text.stdout).toContain('whoami  mcp server "marker"\n  Says which server answered.');
    const schema = await toolshed(dir, ['schema', 'multiply', '--json'], env);
    expect(schema.code).toBe(0);
    expect(JSON.parse(schema.stdout)[0]).toMatchObject({ name: 'multiply', inputSchema: { required: ['a', 'b'] } });
    const anthropic = await toolshed(dir, ['schema', 'multiply', '--format', 'anthropic'], env);
    expect(anthropic.code).toBe(0);
    expect(JSON.parse(anthropic.stdout)).toEqual([
      expect.objectContaining({ name: 'multiply', input_schema: expect.objectContaining({ required: ['a', 'b'] }) }),
    ]);
    const context = await toolshed(dir, ['context', '--json'], env);
    expect(context.code).toBe(0);
    const costs = JSON.parse(context.stdout) as { tools: { name: string; total: { tokens: number } }[] };
    expect(costs.tools.map((tool) => tool.name)).toEqual(tools.map((tool) => tool.name));
    expect(costs.tools.find((tool) => tool.name === 'multiply')!.total.tokens).toBeGreaterThan(0);
    expect(existsSync(marker)).toBe(false);
  });

  it('plugins shows each server not started, with its tools from the cache', async () => {
    const run = await toolshed(dir, ['plugins'], env);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      'mcp server "marker"  loaded  from mcpServers: marker\n  server: stdio, not started (tools from the cache; it starts on the first call)\n  tools: whoami, wipe, multiply, grow\n',
    );
    expect(existsSync(marker)).toBe(false);
  });

  it('an invalid input is refused with paths before anything is sent: the server is not started', async () => {
    const run = await toolshed(dir, ['call', 'multiply', '{"a":"six","b":-1}'], env);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^multiply: invalid_input: Invalid input for multiply\.a: .*\n {2}multiply\.b: /);
    expect(existsSync(marker)).toBe(false);
  });

  it('a server tool without hints needs approval: denied without a terminal, and never sent; --yes runs it', async () => {
    const denied = await toolshed(dir, ['call', 'wipe', '{"target":"disk"}'], env);
    expect(denied.code).toBe(1);
    expect(denied.stderr).toMatch(
      /^wipe: denied: .*wipe needs approval \(it is destructive and open-world\) and there is no terminal to ask; run it again with --yes/,
    );
    expect(existsSync(marker)).toBe(false);
    const allowed = await toolshed(dir, ['call', 'wipe', '{"target":"disk"}', '--yes', '--json'], env);
    expect(allowed.code).toBe(0);
    expect(JSON.stringify(JSON.parse(allowed.stdout).output)).toContain('wiped disk');
    expect(starts(marker)).toBe(1);
    // The server the call started did not outlive the command.
    const pid = Number(/started (\d+)/.exec(readFileSync(marker, 'utf8'))![1]);
    expect(alive(pid)).toBe(false);
  });

  it('a call starts its server on demand and returns its answer; the command exits with the server closed', async () => {
    const run = await toolshed(dir, ['call', 'get-sum', '{"a":2,"b":40}', '--json'], env);
    expect(run.code).toBe(0);
    expect(JSON.stringify(JSON.parse(run.stdout).output)).toContain('The sum of 2 and 40 is 42.');
  });

  it('a cached list loads no SDK; a call imports the SDK as ES modules only, never its CommonJS copy too', async () => {
    const loaded = async (args: string[]) => {
      const log = path.join(dir, `modules-${args[0]}.log`);
      rmSync(log, { force: true });
      const logged = moduleLog(log);
      expect((await toolshed(dir, args, { ...env, ...logged.env }, logged.nodeArgs)).code).toBe(0);
      const { esm, cjs } = loadedModules(readFileSync(log, 'utf8'));
      const short = (url: string) => url.replace(/^.*\/packages\//, '').replace(/^.*\/node_modules\//, '');
      return { esm: esm.map(short), cjs: cjs.map(short) };
    };
    expect((await toolshed(dir, ['list'], env)).code).toBe(0); // the cache is filled (by the first test, or here)
    const list = await loaded(['list']);
    // Each server from its cache, by the mount's light entry: no SDK.
    expect(list.esm).toEqual(expect.arrayContaining(['host/dist/index.js', 'mcp/dist/mount/index.js', 'core/dist/contract.js']));
    expect([...list.esm, ...list.cjs].filter((file) => file.includes('@modelcontextprotocol'))).toEqual([]);

    const call = await loaded(['call', 'get-sum', '{"a":1,"b":2}']);
    expect(call.esm).toContain('mcp/dist/mount/index.js');
    expect(call.esm).toEqual(
      expect.arrayContaining(['mcp/dist/mount/connection.js', '@modelcontextprotocol/sdk/dist/esm/client/index.js']),
    );
    expect([...call.esm, ...call.cjs].filter((file) => file.includes('@modelcontextprotocol/sdk/dist/cjs/'))).toEqual([]);
  });

  it('an edited entry is listed right at once, by the mount from the cache: no server starts', async () => {
    const config = path.join(dir, 'toolshed.config.json');
    const before = readFileSync(config, 'utf8');
    const names = async () => {
      const run = await toolshed(dir, ['list', '--json'], env);
      expect(run).toMatchObject({ code: 0, stderr: '' });
      return (JSON.parse(run.stdout) as { name: string }[]).map((tool) => tool.name);
    };
    try {
      expect((await toolshed(dir, ['list'], env)).code).toBe(0); // the cache is filled (by the first test, or here)
      const started = starts(marker);
      const first = await names();
      writeFileSync(config, JSON.stringify({ mcpServers: [{ ...everything, rename: { echo: 'say_back' } }, markerServer()] }, null, 2));
      expect(await names()).toEqual(first.map((name) => (name === 'echo' ? 'say_back' : name)));
      expect(starts(marker)).toBe(started);
    } finally {
      writeFileSync(config, before);
    }
  });

  it('the cache does not stand in for a variable the entry names: unset, the listing fails naming it', async () => {
    expect((await toolshed(dir, ['list'], env)).code).toBe(0); // the cache is filled (by the first test, or here)
    const unset = await toolshed(dir, ['list'], { TEST_MARKER: undefined });
    expect(unset.code).toBe(1);
    expect(unset.stderr).toContain(
      'mcp server "marker" [options]: option env.MARKER_FILE refers to environment variable TEST_MARKER, which is not set.',
    );
    expect(unset.stdout).toBe('');
  });

  it("a server's progress reaches the transcript as call.progress events, and a timeout ends the call and the command", async () => {
    const transcript = path.join(dir, 'transcript.jsonl');
    const run = await toolshed(
      dir,
      ['call', 'trigger-long-running-operation', '{"duration":0.3,"steps":3}', '--transcript', transcript, '--json'],
      env,
    );
    expect(run.code).toBe(0);
    expect(JSON.stringify(JSON.parse(run.stdout).output)).toContain('Long running operation completed');
    const events = readFileSync(transcript, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; progress?: object });
    // The server's last notification may cross its answer (and progress after the end is dropped), so two or three.
    const types = events.map((event) => event.type);
    expect(types.slice(0, 2)).toEqual(['definitions', 'call.start']);
    expect(types.at(-1)).toBe('call.end');
    const progress = events.slice(2, -1);
    expect(progress.every((event) => event.type === 'call.progress')).toBe(true);
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(progress.map((event) => event.progress)).toEqual(
      [1, 2, 3].slice(0, progress.length).map((step) => ({ progress: step, total: 3 })),
    );
    // Thirty seconds of work stopped after half a second: the outcome says timeout, and the command does not wait for the server.
    const slow = await toolshed(
      dir,
      ['call', 'trigger-long-running-operation', '{"duration":30,"steps":30}', '--timeout', '500', '--json'],
      env,
    );
    expect(slow.code).toBe(1);
    // The tool's name alone does not say which server hung: the outcome names it.
    expect(JSON.parse(slow.stdout).error).toEqual({
      code: 'timeout',
      message:
        'trigger-long-running-operation (mcp server "everything") did not finish within 500 ms and was stopped. Try a smaller request, or retry later.',
    });
  });

  it('serve hands the mounted tools on to an MCP client (the SDK client), starting the server on the first call only', async () => {
    const client = await serveClient(dir, env);
    try {
      rmSync(marker, { force: true });
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['get-sum', 'whoami', 'wipe', 'multiply']));
      expect(tools.find((tool) => tool.name === 'multiply')!.inputSchema).toMatchObject({ required: ['a', 'b'] });
      expect(existsSync(marker)).toBe(false);
      const result = await client.callTool({ name: 'multiply', arguments: { a: 6, b: 7 } });
      expect(JSON.stringify(result)).toContain('42');
      expect(starts(marker)).toBe(1);
    } finally {
      await client.close();
    }
  });

  it('plugins --refresh starts every server, rewrites its cache and shows it connected', async () => {
    rmSync(marker, { force: true });
    const run = await toolshed(dir, ['plugins', '--refresh'], env);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /mcp server "everything" {2}loaded {2}from mcpServers: everything\n {2}server: stdio, connected \(pid \d+\)\n/,
    );
    expect(run.stdout).toMatch(/mcp server "marker" {2}loaded {2}from mcpServers: marker\n {2}server: stdio, connected \(pid \d+\)\n/);
    expect(starts(marker)).toBe(1);
  });
});

describe('tools/list_changed while connected', () => {
  it('the report says what changed, the sealed registry keeps its tools, and the next start lists the new tool from the cache', async () => {
    const dir = project({ mcpServers: [markerServer()] });
    const marker = path.join(dir, 'marker.log');
    const host = await createHost({ cwd: dir, env: { TEST_MARKER: marker }, registry: { approve: 'allow-all' } });
    try {
      expect(await host.registry.dispatch({ name: 'grow', input: {} })).toMatchObject({ ok: true });
      const warnings = () => host.plugins.find((plugin) => plugin.name === 'marker')!.warnings;
      for (let tries = 0; warnings().length === 0 && tries < 200; tries++) await new Promise((resolve) => setTimeout(resolve, 25));
      expect(warnings()).toEqual([
        'the server changed its tool list while connected (added grown); this host keeps the tools it started with, and the next start uses the new list (the cache is updated).',
      ]);
      expect(host.registry.has('grown')).toBe(false);
      expect(host.plugins.find((plugin) => plugin.name === 'marker')!.server!.state).toMatchObject({ status: 'connected' });
    } finally {
      await host.close();
    }
    expect(host.plugins.find((plugin) => plugin.name === 'marker')!.server!.state).toEqual({ status: 'closed' });
    const next = await inspectPlugins({ cwd: dir, env: { TEST_MARKER: marker } });
    expect(next.tools.map((tool) => tool.name)).toEqual(['whoami', 'wipe', 'multiply', 'grow', 'grown']);
    expect(starts(marker)).toBe(1);
  });
});

describe("serve passes a mounted server's tools/list_changed on", () => {
  it('over stdio: the SDK client is told, lists the new tool (beside the renamed ones) and calls it, on the one server process', async () => {
    const dir = project({ mcpServers: [{ ...markerServer(), rename: { whoami: 'who' } }] });
    const marker = path.join(dir, 'marker.log');
    const env = { ...(process.env as Record<string, string>), TEST_MARKER: marker };
    const client = new Client({ name: 'list-changed-test', version: '1.0.0' });
    let told = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void (told += 1));
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: [bin, 'serve', '--cwd', dir, '--yes'], env, stderr: 'pipe' }),
    );
    try {
      const names = async () => (await client.listTools()).tools.map((tool) => tool.name);
      expect(await names()).toEqual(['who', 'wipe', 'multiply', 'grow']);
      await expect(client.callTool({ name: 'grown', arguments: {} })).rejects.toThrow('Unknown tool "grown"');
      expect(JSON.stringify(await client.callTool({ name: 'grow', arguments: {} }))).toContain('grown');
      for (let tries = 0; told === 0 && tries < 200; tries++) await new Promise((resolve) => setTimeout(resolve, 25));
      expect(told).toBe(1);
      expect(await names()).toEqual(['who', 'wipe', 'multiply', 'grow', 'grown']);
      expect(await client.callTool({ name: 'grown', arguments: {} })).toMatchObject({
        content: [{ type: 'text', text: 'grown answers' }],
      });
      // The tools that were there still run, renamed as before, on the one server process.
      expect(await client.callTool({ name: 'who', arguments: {} })).toMatchObject({
        content: [{ type: 'text', text: 'marker-server over stdio' }],
      });
      expect(starts(marker)).toBe(1);
    } finally {
      await client.close();
    }
  });
});

describe('host.onRegistryChanged', () => {
  it('gives a new registry when a server changes its tools; a new tool whose name another tool holds is left out with a warning', async () => {
    const dir = project({
      mcpServers: [
        markerServer(),
        { ...markerServer(), name: 'other', rename: { whoami: 'grown', wipe: 'wipe2', multiply: 'multiply2', grow: 'grow2' } },
      ],
    });
    const host = await createHost({ cwd: dir, env: { TEST_MARKER: path.join(dir, 'marker.log') }, registry: { approve: 'allow-all' } });
    try {
      const names = (registry: ToolRegistry) => registry.list().map((tool) => tool.name);
      const before = names(host.registry);
      expect(before).toEqual(['whoami', 'wipe', 'multiply', 'grow', 'grown', 'wipe2', 'multiply2', 'grow2']);
      const changes: ToolRegistry[] = [];
      host.onRegistryChanged((registry) => changes.push(registry));
      // Each server adds a tool named "grown", a name "other"'s whoami (renamed) holds.
      expect(await host.registry.dispatch({ name: 'grow', input: {} })).toMatchObject({ ok: true });
      expect(await host.registry.dispatch({ name: 'grow2', input: {} })).toMatchObject({ ok: true });
      for (let tries = 0; changes.length < 2 && tries < 200; tries++) await new Promise((resolve) => setTimeout(resolve, 25));
      expect(changes).toHaveLength(2);
      for (const registry of changes) {
        expect(registry).not.toBe(host.registry);
        expect(names(registry)).toEqual(before);
        expect(registry.get('grown')).toMatchObject({ origin: 'mcp server "other"' });
        expect(await registry.dispatch({ name: 'grown', input: {} })).toMatchObject({ ok: true, output: 'marker-server over stdio' });
      }
      // The clash inside "other" (its new tool and its renamed whoami) is its mount's to settle, as at start.
      expect(host.warnings).toEqual([
        'mcp server "marker": its tool "grown" is left out: the name "grown" is taken by mcp server "other". ' +
          'To keep both, rename it in the server\'s mcpServers entry ("rename": {"grown": "marker_grown"}); ' +
          'to go without it and this warning, "exclude": ["grown"].',
      ]);
      expect(names(host.registry)).toEqual(before);
    } finally {
      await host.close();
    }
  });
});

describe("serve --http passes a mounted server's tools/list_changed to every session", () => {
  it('both open sessions are told, the other one calls the new tool, and a session opened later lists it', async () => {
    const dir = project({ mcpServers: [markerServer()] });
    const marker = path.join(dir, 'marker.log');
    const child = spawn(process.execPath, [bin, 'serve', '--cwd', dir, '--yes', '--http', '0'], {
      env: { ...process.env, TEST_MARKER: marker },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const clients: Client[] = [];
    try {
      let out = '';
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout!.on('data', (chunk: Buffer) => {
          out += chunk.toString('utf8');
          const match = /serving \d+ tools? at (\S+)\n/.exec(out);
          if (match) resolve(match[1]!);
        });
        child.once('exit', (code) => reject(new Error(`serve exited with ${code} before it listened: ${out}`)));
      });
      const told = [0, 0];
      const open = async (index?: number) => {
        const client = new Client({ name: `session-${clients.length}`, version: '1.0.0' });
        if (index !== undefined) client.setNotificationHandler(ToolListChangedNotificationSchema, () => void (told[index]! += 1));
        await client.connect(new StreamableHTTPClientTransport(new URL(url)));
        clients.push(client);
        return client;
      };
      const [a, b] = [await open(0), await open(1)];
      // The second session's stream for notifications is open once it has listed.
      expect((await b.listTools()).tools.map((tool) => tool.name)).toEqual(['whoami', 'wipe', 'multiply', 'grow']);
      expect(JSON.stringify(await a.callTool({ name: 'grow', arguments: {} }))).toContain('grown');
      for (let tries = 0; (told[0] === 0 || told[1] === 0) && tries < 200; tries++) await new Promise((resolve) => setTimeout(resolve, 25));
      expect(told).toEqual([1, 1]);
      expect((await b.listTools()).tools.map((tool) => tool.name)).toEqual(['whoami', 'wipe', 'multiply', 'grow', 'grown']);
      expect(await b.callTool({ name: 'grown', arguments: {} })).toMatchObject({ content: [{ type: 'text', text: 'grown answers' }] });
      const later = await open();
      expect((await later.listTools()).tools.map((tool) => tool.name)).toContain('grown');
      expect(starts(marker)).toBe(1);
    } finally {
      await Promise.allSettled(clients.map((client) => client.close()));
      child.kill('SIGTERM');
      if (child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve));
    }
  });
});

describe('in code, renamed, and at once', () => {
  it('createHost({mcpServers}) mounts the servers named in code (the config file and discovery off), with the config-wide rename applied to their names', async () => {
    const dir = project({ plugins: ['@toolshed/tool-echo'] }, { echo: true });
    const host = await createHost({ cwd: dir, mcpServers: [everything], rename: { 'get-sum': 'sum' }, registry: { approve: 'allow-all' } });
    try {
      expect(host.plugins.map((plugin) => [plugin.name, plugin.source])).toEqual([['everything', 'mcp']]);
      expect(host.registry.has('get-sum')).toBe(false);
      expect(host.registry.get('sum')).toMatchObject({ origin: 'mcp server "everything"' });
      const outcome = await host.registry.dispatch({ name: 'sum', input: { a: 1, b: 2 } });
      expect(outcome).toMatchObject({ ok: true, name: 'sum' });
      expect(JSON.stringify(outcome.ok && outcome.output)).toContain('The sum of 1 and 2 is 3.');
    } finally {
      await host.close();
    }
  });

  it('three toolshed list at once on a project with no cache, in 4 rounds: every one lists the same tools and the cache is whole', async () => {
    const dir = project({ mcpServers: [markerServer()] });
    const env = { TEST_MARKER: path.join(dir, 'marker.log') };
    for (let round = 0; round < 4; round++) {
      rmSync(path.join(dir, 'node_modules/.cache'), { recursive: true, force: true });
      const runs = await Promise.all([0, 1, 2].map(() => toolshed(dir, ['list', '--json'], env)));
      for (const run of runs) {
        expect(run.code, run.stderr).toBe(0);
        // Nothing on stderr but, on a loaded machine, the notice that the server is slow to start.
        expect(run.stderr.split('\n').filter((line) => line !== '' && !line.includes('is still starting'))).toEqual([]);
        expect((JSON.parse(run.stdout) as { name: string }[]).map((tool) => tool.name)).toEqual(['whoami', 'wipe', 'multiply', 'grow']);
      }
      const files = cacheFiles(dir);
      expect(files).toHaveLength(1);
      expect(JSON.parse(readFileSync(path.join(dir, 'node_modules/.cache/toolshed/mcp', files[0]!), 'utf8'))).toBeTypeOf('object');
      const before = starts(env.TEST_MARKER);
      expect((await toolshed(dir, ['list'], env)).code).toBe(0);
      expect(starts(env.TEST_MARKER)).toBe(before);
    }
  });
});

describe('faults and conflicts', () => {
  it('an entry the runtime refuses fails startup naming the file, the server and the field; nothing is started or cached', async () => {
    const dir = project(
      {
        mcpServers: [
          { name: 'files', command: process.execPath, args: 'server.js' },
          { name: 'both', command: 'x', url: 'http://127.0.0.1:1/mcp' },
        ],
      },
      { echo: true },
    );
    const run = await toolshed(dir, ['list']);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('mcp server "files" [validate]: toolshed.config.json mcpServers[0] "files": "args" must be an array');
    expect(run.stderr).toMatch(/mcp server "both" \[validate\]: toolshed\.config\.json mcpServers\[1\] "both".*command.*url/);
    const report = await toolshed(dir, ['plugins', '--json']);
    expect(report.code).toBe(1);
    const files = (JSON.parse(report.stdout).plugins as { name: string; status: string; error?: { phase: string; field?: string } }[]).find(
      (plugin) => plugin.name === 'files',
    );
    expect(files).toMatchObject({ status: 'failed', error: { phase: 'validate', field: 'args' } });
    expect(cacheFiles(dir)).toEqual([]);
  });

  it('a server that cannot start fails only its own tools: plugin tools still work, and the report names it', async () => {
    const broken = { name: 'broken', command: process.execPath, args: ['-e', 'process.stderr.write("no database\\n"); process.exit(3)'] };
    const dir = project({ mcpServers: [broken] }, { echo: true });
    const call = await toolshed(dir, ['call', 'echo', '{"text":"still here"}']);
    expect(call.code).toBe(0);
    expect(JSON.parse(call.stdout)).toEqual({ text: 'still here' });
    expect(call.stderr).toMatch(/^toolshed: warning: skipped plugin mcp server "broken" \(import\): could not list its tools: .*broken/m);
    const plugins = await toolshed(dir, ['plugins', '--json']);
    expect(plugins.code).toBe(0);
    const report = JSON.parse(plugins.stdout).plugins as {
      name: string;
      status: string;
      source: string;
      error?: { phase: string; message: string };
    }[];
    expect(report.find((plugin) => plugin.name === 'broken')).toMatchObject({
      source: 'mcp',
      status: 'skipped',
      error: { phase: 'import' },
    });
    expect(report.find((plugin) => plugin.name === '@toolshed/tool-echo')).toMatchObject({ status: 'loaded' });
    const text = await toolshed(dir, ['plugins']);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(
      /^mcp server "broken" {2}skipped {2}from mcpServers: broken\n {2}server: stdio, failed after \d+ attempts?: .*no database.*; retries after \d{4}-\d\d-\d\dT[\d:.]+Z\n {2}error \(import\): could not list its tools: /m,
    );
  });

  it('a cached server whose program breaks fails its calls with an outcome naming the server; other tools work', async () => {
    const dir = project({ mcpServers: [markerServer(path.join(tmpdir(), 'never'))] }, { echo: true });
    // A program of the project's own that runs the marker server (whose SDK import resolves from the fixture's folder).
    const script = path.join(dir, 'server.mjs');
    writeFileSync(script, `await import(${JSON.stringify(pathToFileURL(MARKER_SERVER).href)});\n`);
    writeFileSync(path.join(dir, 'toolshed.config.json'), JSON.stringify({ mcpServers: [markerServer(script)] }));
    const env = { TEST_MARKER: path.join(dir, 'marker.log') };
    const listed = await toolshed(dir, ['list'], env);
    expect(listed).toMatchObject({ code: 0, stderr: '' });
    expect(listed.stdout).toContain('whoami  mcp server "marker"');
    writeFileSync(script, 'process.stderr.write("cannot open the socket\\n"); process.exit(7);\n');
    const call = await toolshed(dir, ['call', 'whoami', '{}', '--json'], env);
    expect(call.code).toBe(1);
    const outcome = JSON.parse(call.stdout) as { ok: boolean; error: { code: string; message: string } };
    expect(outcome.error.code).toBe('execution_failed');
    expect(outcome.error.message).toContain('marker');
    expect((await toolshed(dir, ['call', 'echo', '{"text":"ok"}'], env)).code).toBe(0);
  });

  // A server's tool whose name a plugin has is left out alone, with one warning line per command
  // naming both origins and the two ways out; every other tool runs and the command exits 0.
  const clash = (server: string) =>
    `mcp server "${server}": its tool "echo" is left out: the name "echo" is taken by @toolshed/tool-echo@${JSON.parse(readFileSync(path.join(ECHO_DIR, 'package.json'), 'utf8')).version}. ` +
    `To keep both, rename it in the server's mcpServers entry ("rename": {"echo": "${server}_echo"}); to go without it and this warning, "exclude": ["echo"].`;
  const warned = (stderr: string, line: string) => stderr.split('\n').filter((text) => text === `toolshed: warning: ${line}`).length;

  for (const named of [false, true]) {
    it(`a tool name taken by a ${named ? 'named' : 'discovered'} plugin and a server: the server's tool is left out, naming both; everything else runs`, async () => {
      const config = { ...(named ? { plugins: ['@toolshed/tool-echo'] } : {}), mcpServers: [everything] };
      const dir = project(config, { echo: true });
      const list = await toolshed(dir, ['list', '--json']);
      expect(list.code).toBe(0);
      expect(warned(list.stderr, clash('everything'))).toBe(1);
      const listed = JSON.parse(list.stdout) as { name: string; plugin: string }[];
      expect(listed.filter((tool) => tool.name === 'echo')).toEqual([expect.objectContaining({ plugin: '@toolshed/tool-echo' })]);
      expect(listed.find((tool) => tool.name === 'get-sum')).toMatchObject({ plugin: 'everything' });
      const call = await toolshed(dir, ['call', 'get-sum', '{"a":2,"b":3}', '--json']);
      expect(call.code).toBe(0);
      expect(warned(call.stderr, clash('everything'))).toBe(1);
      expect(JSON.stringify(JSON.parse(call.stdout).output)).toContain('The sum of 2 and 3 is 5.');
      const echo = await toolshed(dir, ['call', 'echo', '{"text":"plugin"}', '--json']);
      expect(echo.code).toBe(0);
      expect(JSON.parse(echo.stdout).output).toEqual({ text: 'plugin' });
      const plugins = await toolshed(dir, ['plugins']);
      expect(plugins.code).toBe(0);
      expect(plugins.stdout).toContain(`warning: ${clash('everything')}`);

      // The two ways out the warning names: each ends it.
      const write = (server: object) =>
        writeFileSync(path.join(dir, 'toolshed.config.json'), JSON.stringify({ ...config, mcpServers: [server] }));
      write({ ...everything, exclude: ['echo'] });
      const excluded = await toolshed(dir, ['call', 'get-sum', '{"a":1,"b":1}', '--json']);
      expect(excluded).toMatchObject({ code: 0, stderr: '' });
      write({ ...everything, rename: { echo: 'everything_echo' } });
      const renamed = await toolshed(dir, ['call', 'everything_echo', '{"message":"renamed"}', '--json']);
      expect(renamed).toMatchObject({ code: 0, stderr: '' });
      expect(JSON.stringify(JSON.parse(renamed.stdout).output)).toContain('Echo: renamed');
    });
  }

  it("two servers offering one name: the later server's tool is left out naming both servers; its next tool still calls the right one", async () => {
    const dir = project({
      mcpServers: [
        { ...everything, include: ['echo', 'get-sum'] },
        { ...everything, name: 'second', include: ['echo', 'get-sum', 'get-env'], rename: { 'get-sum': 'sum2' } },
      ],
    });
    const list = await toolshed(dir, ['list', '--json']);
    expect(list.code).toBe(0);
    expect(list.stderr).toBe(
      'toolshed: warning: mcp server "second": its tool "echo" is left out: the name "echo" is taken by mcp server "everything". ' +
        'To keep both, rename it in the server\'s mcpServers entry ("rename": {"echo": "second_echo"}); to go without it and this warning, "exclude": ["echo"].\n',
    );
    const listed = JSON.parse(list.stdout) as { name: string; plugin: string }[];
    expect(listed.map((tool) => [tool.name, tool.plugin])).toEqual([
      ['echo', 'everything'],
      ['get-sum', 'everything'],
      ['get-env', 'second'],
      ['sum2', 'second'],
    ]);
    // The tools after the one left out keep their own code: sum2 adds, get-env lists the environment.
    const sum = await toolshed(dir, ['call', 'sum2', '{"a":2,"b":5}', '--yes', '--json']);
    expect(JSON.stringify(JSON.parse(sum.stdout).output)).toContain('The sum of 2 and 5 is 7.');
    const envCall = await toolshed(dir, ['call', 'get-env', '{}', '--yes', '--json']);
    expect(envCall.code).toBe(0);
    expect(JSON.stringify(JSON.parse(envCall.stdout).output)).toContain('PATH');
  });

  it('a clash arriving through list_changed: the running command keeps its tools, and the next ones leave the new tool out and exit 0', async () => {
    // The tool it adds while connected is named echo, as a plugin's tool is.
    const server = { ...markerServer(), env: { ...markerServer().env, GROWN_NAME: 'echo' } };
    const dir = project({ plugins: ['@toolshed/tool-echo'], mcpServers: [server] }, { echo: true });
    const env = { TEST_MARKER: path.join(dir, 'marker.log') };
    // A harness that stays up hears the server's list_changed (the cache is rewritten) and keeps its tools.
    const host = await createHost({ cwd: dir, env, registry: { approve: 'allow-all' } });
    try {
      expect(await host.registry.dispatch({ name: 'grow', input: {} })).toMatchObject({ ok: true });
      const warnings = () => host.plugins.find((plugin) => plugin.name === 'marker')!.warnings;
      for (let tries = 0; warnings().length === 0 && tries < 200; tries++) await new Promise((resolve) => setTimeout(resolve, 25));
      expect(warnings()).toEqual([expect.stringContaining('(added echo)')]);
      expect(await host.registry.dispatch({ name: 'echo', input: { text: 'plugin' } })).toMatchObject({
        ok: true,
        output: { text: 'plugin' },
      });
    } finally {
      await host.close();
    }
    const line = clash('marker');
    // The cache now lists the server's echo; each command after it says so once and exits 0.
    for (const args of [['list'], ['call', 'multiply', '{"a":6,"b":7}'], ['call', 'echo', '{"text":"still the plugin"}', '--json']]) {
      const run = await toolshed(dir, args, env);
      expect(run.code, args.join(' ')).toBe(0);
      expect(warned(run.stderr, line), `${args.join(' ')}: ${run.stderr}`).toBe(1);
    }
    const echo = await toolshed(dir, ['call', 'echo', '{"text":"still the plugin"}', '--json'], env);
    expect(JSON.parse(echo.stdout).output).toEqual({ text: 'still the plugin' });
  });
});

describe('a server offering tools that break the rules', () => {
  it('`plugins` names each tool left out and why, from the server and from the cache; the good tools and other plugins work', async () => {
    // The hostile server of @toolshed/mcp's own attack tests.
    const hostile = {
      name: 'hostile',
      command: process.execPath,
      args: [path.join(MCP_DIR, 'test-fixtures/mount/hostile-server.mjs'), 'bad-tools'],
    };
    const dir = project({ mcpServers: [hostile] }, { echo: true });
    for (const args of [
      ['plugins', '--json', '--refresh'],
      ['plugins', '--json'],
    ]) {
      const run = await toolshed(dir, args);
      expect(run.code).toBe(0);
      const { plugins } = JSON.parse(run.stdout) as { plugins: { name: string; tools: string[]; warnings: string[] }[] };
      const server = plugins.find((plugin) => plugin.name === 'hostile')!;
      expect(server.tools).toEqual(['speak', '__proto__', 'constructor', 'huge', 'redos', 'deep', 'claims']);
      expect(server.warnings).toHaveLength(9);
      expect(server.warnings).toContain(
        'MCP server "hostile": tool "has space" is left out: "has space" is not a name model APIs accept; give it one with "rename".',
      );
      expect(server.warnings.join('\n')).toMatch(/tool "lookahead" is left out: its schema cannot be compiled/);
      expect(plugins.find((plugin) => plugin.name === '@toolshed/tool-echo')!.tools).toEqual(['echo']);
    }
    const call = await toolshed(dir, ['call', 'echo', '{"text":"still here"}']);
    expect(call.stdout).toContain('still here');
  });
});

describe('a stdio env value from {"env": NAME}', () => {
  it('is in no report, cache file or `plugins --json`, in any encoding (the server got its env: it wrote the marker)', async () => {
    const secret = 'sk-stdio-9e41-secret';
    const server = { ...markerServer(), env: { MARKER_FILE: { env: 'TEST_MARKER' }, API_KEY: { env: 'STDIO_SECRET' } } };
    const dir = project({ mcpServers: [server] });
    const env = { TEST_MARKER: path.join(dir, 'marker.log'), STDIO_SECRET: secret };
    const runs = [
      await toolshed(dir, ['plugins', '--json', '--refresh'], env),
      await toolshed(dir, ['plugins', '--json'], env),
      await toolshed(dir, ['call', 'whoami', '{}', '--json'], env),
      await toolshed(dir, ['list', '--json'], env),
    ];
    for (const run of runs) expect(run.code).toBe(0);
    expect(starts(env.TEST_MARKER)).toBe(2);
    const files = cacheFiles(dir);
    expect(files).toHaveLength(1);
    const cached = readFileSync(path.join(dir, 'node_modules/.cache/toolshed/mcp', files[0]!), 'utf8');
    const everything = cached + runs.map((run) => run.stdout + run.stderr).join('\n');
    for (const encoding of [secret, Buffer.from(secret).toString('base64'), Buffer.from(secret).toString('hex'), JSON.stringify(secret)]) {
      expect(everything).not.toContain(encoding);
    }
  });

  // Not even a hash of a secret is written (someone holding the cache could test guesses
  // against one): the cache is keyed on the variable's name, so it does not change by a byte.
  it("keys the cache on the variable's name: a new value keeps the cache byte for byte, and the server runs with it", async () => {
    const server = { ...markerServer(), env: { MARKER_FILE: { env: 'TEST_MARKER' }, API_KEY: { env: 'STDIO_SECRET' } } };
    const dir = project({ mcpServers: [server] });
    const first = { TEST_MARKER: path.join(dir, 'first.log'), STDIO_SECRET: 'sk-first-8d21' };
    expect(await toolshed(dir, ['list', '--json'], first)).toMatchObject({ code: 0, stderr: '' });
    expect(starts(first.TEST_MARKER)).toBe(1);
    const files = cacheFiles(dir);
    expect(files).toHaveLength(1);
    const file = path.join(dir, 'node_modules/.cache/toolshed/mcp', files[0]!);
    const cached = readFileSync(file, 'utf8');

    const second = { TEST_MARKER: path.join(dir, 'second.log'), STDIO_SECRET: 'sk-second-40ce' };
    const list = await toolshed(dir, ['list', '--json'], second);
    expect(list).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(list.stdout).map((tool: { name: string }) => tool.name)).toContain('whoami');
    expect(starts(second.TEST_MARKER)).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(cached);

    expect(await toolshed(dir, ['call', 'whoami', '{}'], second)).toMatchObject({ code: 0, stdout: 'marker-server over stdio\n' });
    expect(starts(second.TEST_MARKER)).toBe(1);
    expect(starts(first.TEST_MARKER)).toBe(1);
    expect(readFileSync(file, 'utf8')).toBe(cached);
  });
});

describe('Streamable HTTP: the marker server on 127.0.0.1 with a bearer token from the environment', () => {
  let server: ChildProcess;
  let url: string;
  const token = 'tok-3f9a1c-secret';
  beforeAll(async () => {
    const started = await startHttpMarker(token);
    server = started.server;
    url = `${started.origin}/mcp`;
  });
  afterAll(() => {
    server?.kill();
  });

  it('calls a tool with the header resolved from {"env": NAME}; the secret is in no cache file', async () => {
    const dir = project({
      mcpServers: [{ name: 'remote', url, headers: { Authorization: { env: 'REMOTE_AUTH' } }, readOnlyTools: ['whoami', 'multiply'] }],
    });
    const env = { REMOTE_AUTH: `Bearer ${token}` };
    const run = await toolshed(dir, ['call', 'whoami', '{}', '--json'], env);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(JSON.stringify(JSON.parse(run.stdout).output)).toContain('marker-server over http');
    const files = cacheFiles(dir);
    expect(files).toHaveLength(1);
    const cached = readFileSync(path.join(dir, 'node_modules/.cache/toolshed/mcp', files[0]!), 'utf8');
    expect(cached).toContain('whoami');
    const plugins = await toolshed(dir, ['plugins', '--json', '--refresh'], env);
    expect(plugins.code).toBe(0);
    for (const encoding of [
      token,
      Buffer.from(token).toString('base64'),
      Buffer.from(token).toString('hex'),
      encodeURIComponent(`Bearer ${token}`),
    ]) {
      expect(cached).not.toContain(encoding);
      expect(readFileSync(path.join(dir, 'node_modules/.cache/toolshed/mcp', files[0]!), 'utf8')).not.toContain(encoding);
      expect(plugins.stdout + plugins.stderr + run.stdout + run.stderr).not.toContain(encoding);
    }
  });

  it("keys the cache on the header's variable: after a new token the cache is the same byte for byte, and a call uses the new token", async () => {
    const dir = project({
      mcpServers: [{ name: 'remote', url, headers: { Authorization: { env: 'REMOTE_AUTH' } }, readOnlyTools: ['whoami', 'multiply'] }],
    });
    expect(await toolshed(dir, ['list', '--json'], { REMOTE_AUTH: `Bearer ${token}` })).toMatchObject({ code: 0, stderr: '' });
    const files = cacheFiles(dir);
    expect(files).toHaveLength(1);
    const file = path.join(dir, 'node_modules/.cache/toolshed/mcp', files[0]!);
    const cached = readFileSync(file, 'utf8');
    // The server refuses this token, so a listing that connected would fail: this one reads the cache.
    const other = { REMOTE_AUTH: 'Bearer rotated-5b2e' };
    const list = await toolshed(dir, ['plugins', '--json'], other);
    expect(list.code).toBe(0);
    const { plugins } = JSON.parse(list.stdout) as { plugins: { name: string; tools: string[]; server?: { cached: boolean } }[] };
    expect(plugins[0]).toMatchObject({ name: 'remote', tools: expect.arrayContaining(['whoami']), server: { cached: true } });
    expect(readFileSync(file, 'utf8')).toBe(cached);
    const call = await toolshed(dir, ['call', 'whoami', '{}'], other);
    expect(call.code).toBe(1);
    expect(call.stderr).toContain('HTTP 401');
    expect(call.stderr).not.toContain('rotated-5b2e');
    expect(readFileSync(file, 'utf8')).toBe(cached);
  });

  it('a wrong token fails only that server, with a message naming it and not the secret; an unset variable names the field', async () => {
    const dir = project(
      { mcpServers: [{ name: 'remote', url, headers: { Authorization: { env: 'REMOTE_AUTH' } }, readOnlyTools: ['whoami', 'multiply'] }] },
      { echo: true },
    );
    const wrong = await toolshed(dir, ['call', 'echo', '{"text":"hi"}'], { REMOTE_AUTH: 'Bearer wrong-token-77' });
    expect(wrong.code).toBe(0);
    expect(wrong.stderr).toMatch(/skipped plugin mcp server "remote" \(import\): could not list its tools/);
    expect(wrong.stderr).not.toContain('wrong-token-77');
    const unset = await toolshed(dir, ['list'], { REMOTE_AUTH: undefined });
    expect(unset.code).toBe(1);
    expect(unset.stderr).toContain(
      'mcp server "remote" [options]: option headers.Authorization refers to environment variable REMOTE_AUTH, which is not set.',
    );
  });
});

describe('Toolshed mounted by Toolshed', () => {
  /** Project B: echo as a dependency, and a destructive `wipe` of its own in a module file. */
  function projectB(): string {
    const b = project({ plugins: ['./wipe.mjs'] }, { echo: true });
    symlinkSync(CORE_DIR, path.join(b, 'node_modules/@toolshed/core'), 'dir');
    writeFileSync(
      path.join(b, 'wipe.mjs'),
      `import { definePlugin, defineTool, jsonSchemaInput } from '@toolshed/core';
const input = { type: 'object', properties: { target: { type: 'string' } }, required: ['target'] };
const wipe = defineTool({
  name: 'wipe',
  description: 'Wipe a target.',
  input: jsonSchemaInput(input, (value) => (typeof value.target === 'string' ? [] : [{ path: ['target'], kind: 'type', expected: 'string' }])),
  annotations: { destructive: true },
  run: ({ target }) => 'wiped ' + target,
});
export default definePlugin({ name: 'wipe-plugin', apiVersion: 1, tools: [wipe] });
`,
    );
    return b;
  }

  it("project A calls project B's echo through `toolshed serve --cwd B` over stdio, trusted by A's readOnlyTools; B's destructive tool stays destructive", async () => {
    const b = projectB();
    // B serves with --yes: it leaves the asking to its client, so only A's reading of the hints decides.
    const serveB = {
      name: 'b',
      command: process.execPath,
      args: [bin, 'serve', '--cwd', b, '--yes'],
      rename: { echo: 'b_echo', wipe: 'b_wipe' },
      readOnlyTools: ['echo'],
    };
    const a = project({ mcpServers: [serveB] });
    const list = await toolshed(a, ['list', '--json']);
    expect(list.stderr).toBe('');
    expect(list.code).toBe(0);
    // B's hints are another server's claim: A trusts echo because its entry says so, and wipe,
    // named nowhere, is destructive and open-world.
    const listed = JSON.parse(list.stdout) as { name: string; annotations: object }[];
    expect(listed.map(({ name, annotations }) => ({ name, annotations }))).toEqual([
      { name: 'b_wipe', annotations: { readOnly: false, destructive: true, idempotent: false, openWorld: true } },
      { name: 'b_echo', annotations: { readOnly: true, destructive: false, idempotent: false, openWorld: false } },
    ]);
    const run = await toolshed(a, ['call', 'b_echo', '{"text":"across projects"}', '--json']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(JSON.stringify(JSON.parse(run.stdout).output)).toContain('across projects');

    const denied = await toolshed(a, ['call', 'b_wipe', '{"target":"disk"}']);
    expect(denied.code).toBe(1);
    expect(denied.stderr).toContain('b_wipe needs approval (it is destructive and open-world)');
    expect(denied.stdout).not.toContain('wiped');
    const allowed = await toolshed(a, ['call', 'b_wipe', '{"target":"disk"}', '--yes', '--json']);
    expect(allowed.stderr).toBe('');
    expect(allowed.code).toBe(0);
    expect(JSON.stringify(JSON.parse(allowed.stdout).output)).toContain('wiped disk');
  });
});

describe('a server whose destructive tool says it is read-only', () => {
  const liar = (extra: object = {}) => ({ ...markerServer(), env: { ...markerServer().env, WIPE_LIES: '1' }, ...extra });

  it('needs approval whatever it claims: call is denied, serve lists it as destructive, not read-only, and refuses to run it', async () => {
    const dir = project({ mcpServers: [liar()] });
    const env = { TEST_MARKER: path.join(dir, 'marker.log') };
    const denied = await toolshed(dir, ['call', 'wipe', '{"target":"disk"}'], env);
    expect(denied.code).toBe(1);
    expect(denied.stderr).toContain('wipe needs approval (it is destructive and open-world)');
    expect(denied.stdout).not.toContain('wiped');
    const plugins = await toolshed(dir, ['plugins'], env);
    expect(plugins.stdout).toContain(
      'warning: MCP server "marker" says "wipe" is read-only (readOnlyHint); a server\'s hints are not trusted, so it needs approval. ' +
        'If you trust that, name it in its entry\'s "readOnlyTools": ["wipe"].',
    );

    const client = await serveClient(dir, env);
    try {
      const { tools } = await client.listTools();
      expect(tools.find((tool) => tool.name === 'wipe')!.annotations).toMatchObject({
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: false,
        openWorldHint: true,
      });
      // A tool the entry trusts is listed as read-only: what the host decided.
      expect(tools.find((tool) => tool.name === 'whoami')!.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: false });
      const result = await client.callTool({ name: 'wipe', arguments: { target: 'disk' } });
      expect(result.isError).toBe(true);
      expect(JSON.stringify(result.content)).toContain('wipe needs approval');
      expect(JSON.stringify(result.content)).not.toContain('wiped');
    } finally {
      await client.close();
    }
  });

  it('runs unasked once the entry trusts it, and serve then lists it read-only', async () => {
    const dir = project({ mcpServers: [liar({ readOnlyTools: ['whoami', 'multiply', 'grow', 'wipe'] })] });
    const env = { TEST_MARKER: path.join(dir, 'marker.log') };
    const run = await toolshed(dir, ['call', 'wipe', '{"target":"disk"}', '--json'], env);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.stringify(JSON.parse(run.stdout).output)).toContain('wiped disk');
    const client = await serveClient(dir, env);
    try {
      const { tools } = await client.listTools();
      expect(tools.find((tool) => tool.name === 'wipe')!.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    } finally {
      await client.close();
    }
  });
});
