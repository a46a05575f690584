import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadedModules, moduleLog } from '../module-log.fixture.js';

const bin = fileURLToPath(new URL('../../bin/toolshed.cjs', import.meta.url));
const require = createRequire(import.meta.url);
const CORE_DIR = path.dirname(realpathSync(require.resolve('@toolshed/core/package.json')));
const VALIBOT_DIR = realpathSync(path.join(CORE_DIR, 'node_modules', 'valibot'));

// A plugin with a slow tool (to cancel) and a stepping one (for progress), named by path in the config.
const PLUGIN = `import { defineTool, definePlugin } from '@toolshed/core';
import * as v from 'valibot';

const seen = { slowStarted: 0, slowAborted: 0, abortReason: null };
// The SDK client can miss progress that arrives together with the result, so
// each step waits until the client has seen it and called advance.
let release = () => {};

export default definePlugin({
  name: 'serve-fixture',
  apiVersion: 1,
  tools: [
    defineTool({
      name: 'shout',
      description: 'Return the text in capitals.',
      input: v.object({ text: v.string() }),
      output: v.object({ text: v.string() }),
      annotations: { readOnly: true },
      run: ({ text }) => ({ text: text.toUpperCase() }),
    }),
    defineTool({
      name: 'slow',
      description: 'Wait until cancelled; reports progress 0 once waiting.',
      input: v.object({}),
      run: (_input, ctx) => new Promise((resolve) => {
        seen.slowStarted += 1;
        ctx.signal.addEventListener('abort', () => {
          seen.slowAborted += 1;
          seen.abortReason = String(ctx.signal.reason);
          resolve('stopped');
        });
        ctx.report({ progress: 0 });
      }),
    }),
    defineTool({
      name: 'steps',
      description: 'Count to count, reporting each step and waiting for an advance call after it.',
      input: v.object({ count: v.number() }),
      run: async ({ count }, ctx) => {
        for (let step = 1; step <= count; step += 1) {
          const acked = new Promise((resolve) => (release = resolve));
          ctx.report({ progress: step, total: count });
          await acked;
        }
        return { done: count };
      },
    }),
    defineTool({
      name: 'advance',
      description: 'Let steps go on.',
      input: v.object({}),
      run: () => release(),
    }),
    defineTool({
      name: 'probe',
      description: 'What the slow tool saw.',
      input: v.object({}),
      run: () => ({ ...seen }),
    }),
  ],
});
`;

let project: string;

beforeAll(() => {
  project = realpathSync(mkdtempSync(path.join(tmpdir(), 'toolshed-serve-')));
  mkdirSync(path.join(project, 'node_modules', '@toolshed'), { recursive: true });
  symlinkSync(CORE_DIR, path.join(project, 'node_modules', '@toolshed', 'core'), 'dir');
  symlinkSync(VALIBOT_DIR, path.join(project, 'node_modules', 'valibot'), 'dir');
  mkdirSync(path.join(project, 'serve-fixture'));
  writeFileSync(
    path.join(project, 'serve-fixture', 'package.json'),
    JSON.stringify({
      name: 'serve-fixture',
      version: '1.0.0',
      type: 'module',
      exports: './index.js',
      peerDependencies: { '@toolshed/core': '^1' },
    }),
  );
  writeFileSync(path.join(project, 'serve-fixture', 'index.js'), PLUGIN);
  writeFileSync(path.join(project, 'toolshed.config.json'), JSON.stringify({ plugins: ['./serve-fixture'] }));
});

afterAll(() => {
  rmSync(project, { recursive: true, force: true });
});

function text(result: object): string {
  return (result as { content: { text: string }[] }).content[0]!.text;
}

describe('toolshed serve (stdio)', { timeout: 30_000 }, () => {
  let client: Client;
  let stderr = '';

  beforeEach(async () => {
    client = new Client({ name: 'serve-test', version: '1.0.0' });
    const transport = new StdioClientTransport({ command: process.execPath, args: [bin, 'serve'], cwd: project, stderr: 'pipe' });
    stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    await client.connect(transport);
  });

  afterEach(async () => {
    await client.close();
  });

  it('introduces itself as toolshed and says on stderr what it serves', async () => {
    expect(client.getServerVersion()).toMatchObject({ name: 'toolshed', version: expect.stringMatching(/^\d+\.\d+\.\d+/) });
    await expect.poll(() => stderr).toMatch(/toolshed: serving 5 tools over stdio\n/);
  });

  it("lists the project's plugin tools with their input schemas and hints, and no output schema", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['shout', 'slow', 'steps', 'advance', 'probe']);
    expect(tools[0]).toEqual({
      name: 'shout',
      description: expect.any(String),
      inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    });
  });

  it('calls a tool', async () => {
    await client.listTools();
    const result = await client.callTool({ name: 'shout', arguments: { text: 'hi' } });
    expect(result).toEqual({ content: [{ type: 'text', text: '{"text":"HI"}' }], structuredContent: { text: 'HI' } });
  });

  it('answers invalid input with isError, and an unknown tool with -32602', async () => {
    const invalid = await client.callTool({ name: 'shout', arguments: { text: 1 } });
    expect(invalid.isError).toBe(true);
    expect(text(invalid)).toMatch(/^Invalid input for shout\.text: expected string, received number/);
    await expect(client.callTool({ name: 'whisper', arguments: { text: 'x' } })).rejects.toMatchObject({
      code: -32602,
      message: 'MCP error -32602: Unknown tool "whisper"; available tools: shout, slow, steps, advance, probe.',
    });
  });

  it('aborts a cancelled call in the plugin', async () => {
    const cancel = new AbortController();
    await expect(
      client.callTool({ name: 'slow', arguments: {} }, undefined, { signal: cancel.signal, onprogress: () => cancel.abort('enough') }),
    ).rejects.toThrow();
    const probe = await client.callTool({ name: 'probe', arguments: {} });
    expect(probe.structuredContent).toEqual({ slowStarted: 1, slowAborted: 1, abortReason: 'enough' });
  });

  it('sends progress notifications', async () => {
    const received: Progress[] = [];
    // Each progress step lets the tool go on; the calls are awaited so none is cut off by close().
    const advances: Promise<unknown>[] = [];
    const result = await client.callTool({ name: 'steps', arguments: { count: 3 } }, undefined, {
      onprogress: (p) => {
        received.push(p);
        advances.push(client.callTool({ name: 'advance', arguments: {} }));
      },
    });
    await Promise.all(advances);
    expect(result.structuredContent).toEqual({ done: 3 });
    expect(received).toEqual([
      { progress: 1, total: 3 },
      { progress: 2, total: 3 },
      { progress: 3, total: 3 },
    ]);
  });
});

/** Start `toolshed serve --http ...` and wait for the line that tells its URL. */
function serveHttp(args: string[]): Promise<{ child: ChildProcess; url: string; exited: Promise<number | null> }> {
  const child = spawn(process.execPath, [bin, 'serve', '--http', ...args], { cwd: project, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const match = /serving \d+ tools? at (\S+)(?: \(stateless\))?\n/.exec(out);
      if (match) resolve({ child, url: match[1]!, exited });
    });
    void exited.then((code) => reject(new Error(`toolshed serve exited with ${code}: ${err}`)));
  });
}

describe('toolshed serve --http', { timeout: 30_000 }, () => {
  it('serves on 127.0.0.1, calls, cancels, reports progress, and stops on SIGTERM', async () => {
    const { child, url, exited } = await serveHttp(['127.0.0.1:0']);
    try {
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      const client = new Client({ name: 'serve-http-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['shout', 'slow', 'steps', 'advance', 'probe']);
      expect((await client.callTool({ name: 'shout', arguments: { text: 'web' } })).structuredContent).toEqual({ text: 'WEB' });

      const invalid = await client.callTool({ name: 'shout', arguments: {} });
      expect(invalid.isError).toBe(true);
      expect(text(invalid)).toMatch(/^Invalid input for shout\.text: /);
      await expect(client.callTool({ name: 'nope', arguments: {} })).rejects.toMatchObject({ code: -32602 });

      const cancel = new AbortController();
      await expect(
        client.callTool({ name: 'slow', arguments: {} }, undefined, { signal: cancel.signal, onprogress: () => cancel.abort('enough') }),
      ).rejects.toThrow();
      // Over HTTP the cancellation is its own request: wait until the plugin has seen it.
      await expect
        .poll(async () => (await client.callTool({ name: 'probe', arguments: {} })).structuredContent)
        .toEqual({ slowStarted: 1, slowAborted: 1, abortReason: 'enough' });

      const received: number[] = [];
      const advances: Promise<unknown>[] = [];
      await client.callTool({ name: 'steps', arguments: { count: 2 } }, undefined, {
        onprogress: (p) => {
          received.push(p.progress);
          advances.push(client.callTool({ name: 'advance', arguments: {} }));
        },
      });
      await Promise.all(advances);
      expect(received).toEqual([1, 2]);
      await client.close();
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  });

  it('refuses an address it cannot read, as a usage error', async () => {
    const child = spawn(process.execPath, [bin, 'serve', '--http', 'localhost'], { cwd: project, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(2);
    expect(err).toBe(
      'toolshed: --http: Cannot read the address "localhost": use PORT or HOST:PORT, e.g. 3000, 127.0.0.1:3000 or [::1]:3000.\n',
    );
  });

  it('says when the port is taken, and exits 1', async () => {
    const first = await serveHttp(['127.0.0.1:0']);
    try {
      const port = new URL(first.url).port;
      const child = spawn(process.execPath, [bin, 'serve', '--http', `127.0.0.1:${port}`], {
        cwd: project,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let err = '';
      child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      expect(code).toBe(1);
      expect(err).toContain(`toolshed: Cannot serve MCP on 127.0.0.1:${port}: the port is already in use; choose another port.\n`);
    } finally {
      first.child.kill('SIGTERM');
      await first.exited;
    }
  });
});

/**
 * A round-robin load balancer on 127.0.0.1 without session affinity: each POST
 * goes to the next backend in turn (GETs to the first). `served` records which
 * backend took each JSON-RPC method.
 */
async function roundRobin(
  backends: string[],
): Promise<{ url: string; served: { backend: number; method: string }[]; close(): Promise<void> }> {
  const served: { backend: number; method: string }[] = [];
  let next = 0;
  const proxy = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const backend = req.method === 'POST' ? next++ % backends.length : 0;
      served.push({
        backend,
        method: req.method === 'POST' ? ((JSON.parse(body.toString('utf8')) as { method?: string }).method ?? 'response') : req.method!,
      });
      const target = new URL(backends[backend]!);
      const forward = httpRequest(target, { method: req.method, headers: { ...req.headers, host: target.host } }, (answer) => {
        res.writeHead(answer.statusCode!, answer.headers);
        answer.pipe(res);
      });
      forward.on('error', () => res.destroy());
      res.on('close', () => forward.destroy());
      forward.end(body);
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/mcp`,
    served,
    close: () => new Promise((resolve) => (proxy.close(() => resolve()), proxy.closeAllConnections())),
  };
}

describe('toolshed serve --http --stateless', { timeout: 30_000 }, () => {
  it('serves one MCP client through a round-robin balancer in front of two processes', async () => {
    const replicas = await Promise.all([serveHttp(['127.0.0.1:0', '--stateless']), serveHttp(['127.0.0.1:0', '--stateless'])]);
    const balancer = await roundRobin(replicas.map((r) => r.url));
    try {
      const transport = new StreamableHTTPClientTransport(new URL(balancer.url));
      const client = new Client({ name: 'behind-a-balancer', version: '1.0.0' });
      await client.connect(transport);
      expect(transport.sessionId).toBeUndefined();
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['shout', 'slow', 'steps', 'advance', 'probe']);
      for (let i = 0; i < 10; i += 1) {
        expect((await client.callTool({ name: 'shout', arguments: { text: `call ${i}` } })).structuredContent).toEqual({
          text: `CALL ${i}`,
        });
      }
      const invalid = await client.callTool({ name: 'shout', arguments: { text: 1 } });
      expect(text(invalid)).toMatch(/^Invalid input for shout\.text: /);
      await client.close();
      // Requests alternated: each process answered five of the ten calls, and the second never saw initialize.
      const calls = balancer.served.filter((s) => s.method === 'tools/call').map((s) => s.backend);
      expect(calls.slice(0, 10).sort()).toEqual([0, 0, 0, 0, 0, 1, 1, 1, 1, 1]);
      expect(balancer.served.filter((s) => s.method === 'initialize').map((s) => s.backend)).toEqual([0]);
    } finally {
      await balancer.close();
      for (const replica of replicas) replica.child.kill('SIGTERM');
    }
    expect(await Promise.all(replicas.map((r) => r.exited))).toEqual([0, 0]);
  });

  it('without --stateless, the same balancer breaks the session: the other process does not know it', async () => {
    const replicas = await Promise.all([serveHttp(['127.0.0.1:0']), serveHttp(['127.0.0.1:0'])]);
    const balancer = await roundRobin(replicas.map((r) => r.url));
    try {
      const client = new Client({ name: 'behind-a-balancer', version: '1.0.0' });
      // Its first message after initialize (notifications/initialized) reaches the other process.
      await expect(client.connect(new StreamableHTTPClientTransport(new URL(balancer.url)))).rejects.toThrow(/Session not found/);
      await client.close();
    } finally {
      await balancer.close();
      for (const replica of replicas) replica.child.kill('SIGTERM');
    }
  });

  it('answers many concurrent calls through the balancer, each from the process it reached', async () => {
    const replicas = await Promise.all([serveHttp(['127.0.0.1:0', '--stateless']), serveHttp(['127.0.0.1:0', '--stateless'])]);
    const balancer = await roundRobin(replicas.map((r) => r.url));
    try {
      const client = new Client({ name: 'behind-a-balancer', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(balancer.url)));
      const texts = Array.from({ length: 40 }, (_, i) => `concurrent ${i}`);
      const results = await Promise.all(texts.map((t) => client.callTool({ name: 'shout', arguments: { text: t } })));
      expect(results.map((r) => r.structuredContent)).toEqual(texts.map((t) => ({ text: t.toUpperCase() })));
      const calls = balancer.served.filter((s) => s.method === 'tools/call').map((s) => s.backend);
      expect(calls.filter((b) => b === 0)).toHaveLength(20);
      expect(calls.filter((b) => b === 1)).toHaveLength(20);
      await client.close();
    } finally {
      await balancer.close();
      for (const replica of replicas) replica.child.kill('SIGTERM');
    }
  });

  it('lets an origin named with --allow-origin in, and refuses other web origins with 403', async () => {
    const { child, url, exited } = await serveHttp(['127.0.0.1:0', '--allow-origin', 'https://app.example']);
    try {
      const init = (origin: string) =>
        fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', origin },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'initialize',
            params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'o', version: '1' } },
          }),
        });
      expect((await init('https://app.example')).status).toBe(200);
      const refused = await init('https://evil.example');
      expect(refused.status).toBe(403);
      expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(
        /^Forbidden: requests from the web origin "https:\/\/evil\.example" are not allowed\./,
      );
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  });

  it('refuses an --allow-origin that is not an origin, as a usage error', async () => {
    const child = spawn(process.execPath, [bin, 'serve', '--http', '0', '--allow-origin', 'https://app.example/path'], {
      cwd: project,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
    expect(await new Promise<number | null>((resolve) => child.once('exit', resolve))).toBe(2);
    expect(err).toBe(
      'toolshed: --allow-origin: "https://app.example/path" is not an origin; write it as a browser sends it, scheme, host and port, e.g. http://localhost:6274.\n',
    );
  });

  it('refuses --stateless without --http, as a usage error', async () => {
    const child = spawn(process.execPath, [bin, 'serve', '--stateless'], { cwd: project, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
    expect(await new Promise<number | null>((resolve) => child.once('exit', resolve))).toBe(2);
    expect(err).toBe('toolshed: --stateless applies to HTTP only: add --http [HOST:]PORT.\n');
  });
});

describe('the MCP SDK costs only `serve`', { timeout: 30_000 }, () => {
  function run(args: string[], log: string, stdin = ''): Promise<void> {
    return new Promise((resolve) => {
      const logged = moduleLog(log);
      const child = execFile(
        process.execPath,
        [...logged.nodeArgs, bin, ...args],
        { cwd: project, env: { ...process.env, ...logged.env } },
        () => resolve(),
      );
      child.stdin?.end(stdin);
    });
  }

  it('is not imported by list, and is imported by serve', async () => {
    const listLog = path.join(project, 'list.log');
    await run(['list'], listLog);
    const listed = loadedModules(readFileSync(listLog, 'utf8'));
    expect(listed.esm.some((url) => url.endsWith('/packages/cli/dist/toolshed.js'))).toBe(true);
    expect([...listed.esm, ...listed.cjs].filter((url) => /@modelcontextprotocol|packages\/mcp\//.test(url))).toEqual([]);

    const serveLog = path.join(project, 'serve.log');
    await run(['serve'], serveLog); // stdin closes at once, so serve ends
    expect(existsSync(serveLog)).toBe(true);
    expect(loadedModules(readFileSync(serveLog, 'utf8')).esm).toEqual(
      expect.arrayContaining([expect.stringMatching(/@modelcontextprotocol\/sdk\/dist\/esm\/server\/index\.js$/)]),
    );
  });
});
