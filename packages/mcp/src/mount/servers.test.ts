import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { ToolEvent } from '@toolshed/core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { filesystemBin, packageDir, registryOf, scratch, type Scratch } from './mount.fixture.js';

let s: Scratch;
beforeEach(() => {
  s = scratch();
});
afterEach(async () => {
  await s.cleanup();
});

describe('@modelcontextprotocol/server-filesystem over stdio', () => {
  function files() {
    const root = path.join(s.dir, 'root');
    mkdirSync(root, { recursive: true });
    writeFileSync(path.join(root, 'notes.txt'), 'first line\nsecond line\n');
    return {
      root,
      mount: s.mount({ name: 'files', command: process.execPath, args: [filesystemBin, root], readOnlyTools: ['read_text_file'] }),
    };
  }

  it('reads a file (structured output): the read tool in readOnlyTools runs unasked, the others need approval', async () => {
    const { root, mount } = files();
    const definitions = await mount.refresh();
    expect(definitions.find((definition) => definition.name === 'read_text_file')!.annotations).toMatchObject({
      readOnly: true,
      destructive: false,
      openWorld: false,
    });
    // list_directory says it is read-only too, but the entry does not name it.
    for (const name of ['write_file', 'list_directory']) {
      expect(definitions.find((definition) => definition.name === name)!.annotations).toMatchObject({
        readOnly: false,
        destructive: true,
      });
    }
    const outcome = await registryOf([[mount, definitions]]).dispatch({
      name: 'read_text_file',
      input: { path: path.join(root, 'notes.txt') },
    });
    expect(outcome).toMatchObject({ ok: true, output: { content: 'first line\nsecond line\n' } });
  });

  it('denies write_file without an approver and changes nothing; with approval it writes', async () => {
    const { root, mount } = files();
    const definitions = await mount.refresh();
    const target = path.join(root, 'notes.txt');
    const denied = await registryOf([[mount, definitions]]).dispatch({
      name: 'write_file',
      input: { path: target, content: 'overwritten' },
    });
    expect(denied).toMatchObject({
      ok: false,
      error: { code: 'denied', message: expect.stringContaining('write_file needs approval (it is destructive and open-world)') },
    });
    expect(readFileSync(target, 'utf8')).toBe('first line\nsecond line\n');
    const asked: string[] = [];
    const approved = await registryOf([[mount, definitions]], {
      approve: (call) => {
        asked.push(call.name);
        return true;
      },
    }).dispatch({ name: 'write_file', input: { path: target, content: 'overwritten' } });
    expect(approved.ok).toBe(true);
    expect(asked).toEqual(['write_file']);
    expect(readFileSync(target, 'utf8')).toBe('overwritten');
  });

  it("what the README says an env list does not stop: the server reads the host's whole environment from /proc", async () => {
    // The host's environment as it was started; only the server's own process.env is bounded by its `env`.
    const environ = `/proc/${process.pid}/environ`;
    const mount = s.mount({
      name: 'files',
      command: process.execPath,
      args: [filesystemBin, path.dirname(environ)],
      readOnlyTools: ['read_text_file'],
    });
    const outcome = await registryOf([[mount, await mount.refresh()]]).dispatch({ name: 'read_text_file', input: { path: environ } });
    expect(outcome.ok).toBe(true);
    const read = outcome.ok ? JSON.stringify(outcome.output) : '';
    // Variables the server's own environment never gets (the test runner's): read all the same.
    const host = readFileSync(environ, 'utf8')
      .split('\0')
      .filter((entry) => entry.startsWith('VITEST'));
    expect(host.length).toBeGreaterThan(0);
    for (const entry of host) expect(read).toContain(JSON.stringify(entry).slice(1, -1));
  });

  it("a path outside its roots is the server's own error, execution_failed naming the server", async () => {
    const { mount } = files();
    const outcome = await registryOf([[mount, await mount.refresh()]]).dispatch({ name: 'read_text_file', input: { path: '/etc/passwd' } });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'execution_failed' } });
    if (outcome.ok) return;
    expect(outcome.error.message).toMatch(/^read_text_file failed \(MCP server "files"\): .*Access denied/);
  });
});

describe('Toolshed served over stdio (serveStdio) and mounted by Toolshed', () => {
  const config = { name: 'toolshed', command: process.execPath, args: [path.join(packageDir, 'test-fixtures/stdio-server.mjs')] };

  it("keeps the served tools' titles, schemas and outputs; the hints are another server's claim, trusted only where readOnlyTools says", async () => {
    const mount = s.mount({ ...config, readOnlyTools: ['echo', 'count_words'] });
    const definitions = await mount.refresh();
    const countWords = definitions.find((definition) => definition.name === 'count_words')!;
    expect(countWords.annotations).toEqual({
      title: 'Count words',
      readOnly: true,
      destructive: false,
      idempotent: false,
      openWorld: false,
    });
    expect(definitions.find((definition) => definition.name === 'delete_record')!.annotations).toEqual({
      readOnly: false,
      destructive: true,
      idempotent: false,
      openWorld: true,
    });
    expect(definitions.find((definition) => definition.name === 'echo')!.annotations).toEqual({
      readOnly: true,
      destructive: false,
      idempotent: false,
      openWorld: false,
    });
    const registry = registryOf([[mount, definitions]]);
    expect(await registry.dispatch({ name: 'echo', input: { text: 'round trip' } })).toMatchObject({
      ok: true,
      output: { text: 'round trip' },
    });
    expect(await registry.dispatch({ name: 'count_words', input: { text: 'one two three' } })).toMatchObject({ ok: true, output: '3' });
    // A destructive tool is still destructive once mounted: denied with no approver.
    expect(await registry.dispatch({ name: 'delete_record', input: { id: 'tmp-1' } })).toMatchObject({
      ok: false,
      error: { code: 'denied' },
    });
  });

  it("carries the caller's call id to the served registry (so a served ledger answers a retry)", async () => {
    const mount = s.mount({
      name: 'call-ids',
      command: process.execPath,
      args: [path.join(packageDir, 'test-fixtures/call-id-server.mjs')],
    });
    const registry = registryOf([[mount, await mount.refresh()]], { approve: 'allow-all' });
    for (const callId of ['call-77', 'call-77', 'call-78'])
      expect(await registry.dispatch({ name: 'which_call', callId, input: {} })).toMatchObject({ ok: true, output: { callId } });
  });

  it('passes progress through and cancels the served call when the caller aborts', async () => {
    const mount = s.mount(config);
    const registry = registryOf([[mount, await mount.refresh()]], { approve: 'allow-all' });
    const events: ToolEvent[] = [];
    registry.subscribe((event) => events.push(event));
    const controller = new AbortController();
    const running = registry.dispatch({ name: 'slow', input: {} }, { signal: controller.signal });
    for (let i = 0; i < 200 && !events.some((event) => event.type === 'call.progress'); i++)
      await new Promise((resolve) => setTimeout(resolve, 25));
    expect(events.find((event) => event.type === 'call.progress')).toMatchObject({ progress: { progress: 0, message: 'waiting' } });
    controller.abort('stop');
    expect(await running).toMatchObject({ ok: false, error: { code: 'aborted' } });
    // The served registry saw the cancellation: its handler's signal fired.
    let seen: { slowAborted: number } = { slowAborted: 0 };
    for (let i = 0; i < 200 && seen.slowAborted === 0; i++) {
      const probe = await registry.dispatch({ name: 'probe', input: {} });
      if (probe.ok) seen = probe.output as { slowAborted: number };
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(seen.slowAborted).toBe(1);
  });
});

describe('a server built with the MCP SDK over Streamable HTTP on 127.0.0.1', () => {
  const TOKEN = 'tok-3f9a-secret';
  let server: Server;
  let url: string;
  beforeAll(async () => {
    server = createServer(async (request, response) => {
      if (request.headers.authorization !== `Bearer ${TOKEN}`) {
        response.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'unauthorized' }));
        return;
      }
      const mcp = new McpServer({ name: 'http-test', version: '1.0.0' });
      mcp.registerTool(
        'add',
        { description: 'Add two numbers.', inputSchema: { a: z.number(), b: z.number().int() }, annotations: { readOnlyHint: true } },
        async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }),
      );
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      response.on('close', () => {
        void transport.close();
        void mcp.close();
      });
      await mcp.connect(transport);
      await transport.handleRequest(request, response);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('lists and calls its tools, sending the configured headers', async () => {
    const mount = s.mount({ name: 'remote', url, headers: { Authorization: `Bearer ${TOKEN}` } });
    const definitions = await mount.refresh();
    expect(definitions.map((definition) => definition.name)).toEqual(['add']);
    // It says readOnlyHint; that is its claim, and nothing in the entry trusts it.
    expect(definitions[0]!.annotations).toMatchObject({ readOnly: false, destructive: true, openWorld: true });
    const registry = registryOf([[mount, definitions]], { approve: 'allow-all' });
    expect(await registry.dispatch({ name: 'add', input: { a: 2, b: 3 } })).toMatchObject({ ok: true, output: '5' });
    expect(await registry.dispatch({ name: 'add', input: { a: 2, b: 1.5 } })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', message: 'Invalid input for add.b: expected integer, received number' },
    });
  });

  it('a refused connection names the server and the URL, never the token or the query', async () => {
    const mount = s.mount({ name: 'remote', url: `${url}?key=${TOKEN}`, headers: { Authorization: 'Bearer wrong' } });
    const error = (await mount.refresh().catch((caught: Error) => caught)) as Error;
    expect(error.message).toContain(`MCP server "remote" could not connect at ${url}:`);
    expect(error.message).not.toContain(TOKEN);
    expect(mount.state()).toMatchObject({ status: 'failed', attempts: 1 });
    expect(JSON.stringify(mount.state())).not.toContain(TOKEN);
  });

  it('a server that goes away: the call fails naming the server, and the next call after it is back connects again', async () => {
    const mount = s.mount({ name: 'remote', url, headers: { Authorization: `Bearer ${TOKEN}` } });
    const registry = registryOf([[mount, await mount.refresh()]], { approve: 'allow-all' });
    expect(await registry.dispatch({ name: 'add', input: { a: 1, b: 1 } })).toMatchObject({ ok: true, output: '2' });
    const port = (server.address() as AddressInfo).port;
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    const failed = await registry.dispatch({ name: 'add', input: { a: 1, b: 2 } });
    expect(failed).toMatchObject({
      ok: false,
      error: {
        code: 'execution_failed',
        message: expect.stringContaining('add failed: MCP server "remote" could not be reached during the call'),
      },
    });
    expect(mount.state()).toMatchObject({ status: 'failed', attempts: 1 });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    expect(await registry.dispatch({ name: 'add', input: { a: 1, b: 3 } })).toMatchObject({ ok: true, output: '4' });
    expect(mount.state().status).toBe('connected');
  });

  it('a server that is not there: could not connect, naming the server', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const mount = s.mount({ name: 'gone', url: `http://127.0.0.1:${port}/mcp` });
    await expect(mount.refresh()).rejects.toThrow(`MCP server "gone" could not connect at http://127.0.0.1:${port}/mcp: fetch failed`);
  });
});
