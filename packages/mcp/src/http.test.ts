import { request } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import type { ToolEvent } from '@toolshed/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestRegistry } from '../test-fixtures/tools.mjs';
import { serveHttp, type HttpService } from './index.js';

let fixture: ReturnType<typeof createTestRegistry>;
let service: HttpService;
let client: Client;
let events: ToolEvent[];

async function connect(url: string): Promise<Client> {
  const c = new Client({ name: 'http-test', version: '1.0.0' });
  await c.connect(new StreamableHTTPClientTransport(new URL(url)));
  return c;
}

/** A raw request, for what the SDK client would never send (bad Host, wrong path, no session). */
function rawRequest(
  url: string,
  init: { method: string; headers?: Record<string, string>; body?: string },
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: init.method, headers: init.headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});
/** Let a `steps` call that waits with this key go on (see test-fixtures/tools.mjs). */
// Every advance call is kept, so a test can wait for them before its client closes.
const advances: Promise<unknown>[] = [];
function advance(c: Client, key: string): Promise<unknown> {
  const call = c.callTool({ name: 'advance', arguments: { key } });
  advances.push(call);
  return call;
}

const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

beforeEach(async () => {
  fixture = createTestRegistry();
  events = [];
  fixture.registry.subscribe((event) => events.push(event));
  service = await serveHttp(fixture.registry);
  client = await connect(service.url);
});

afterEach(async () => {
  await Promise.allSettled(advances.splice(0));
  await client.close();
  await service.close();
});

describe('serveHttp', () => {
  it('listens on 127.0.0.1 by default, on a free port, at /mcp', () => {
    expect(service.host).toBe('127.0.0.1');
    expect(service.port).toBeGreaterThan(0);
    expect(service.url).toBe(`http://127.0.0.1:${service.port}/mcp`);
  });

  it('lists the registry tools with their input schemas and hints, no output schema and the title once', async () => {
    const { tools } = await client.listTools();
    const definitions = fixture.registry.list();
    expect(tools.map((tool) => tool.name)).toEqual(definitions.map((d) => d.name));

    const echo = tools.find((tool) => tool.name === 'echo')!;
    const echoDefinition = definitions.find((d) => d.name === 'echo')!;
    expect(echo.description).toBe(echoDefinition.description);
    expect(echo.inputSchema).toEqual(echoDefinition.inputSchema);
    // The registry checks outputs itself; listing their schemas would cost every tools/list as much again.
    expect(echoDefinition.outputSchema).toBeDefined();
    expect(echo.outputSchema).toBeUndefined();
    expect(echo.annotations).toEqual({ readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false });

    const remove = tools.find((tool) => tool.name === 'delete_record')!;
    expect(remove.annotations).toEqual({ readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true });
    expect(remove.outputSchema).toBeUndefined();

    const count = tools.find((tool) => tool.name === 'count_words')!;
    expect(count.title).toBeUndefined();
    expect(count.annotations).toEqual({
      title: 'Count words',
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });

    // A tool without annotations states every hint false: MCP would read a missing destructiveHint or openWorldHint as true.
    const steps = tools.find((tool) => tool.name === 'steps')!;
    expect(steps.annotations).toEqual({ readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false });
    expect(steps.title).toBeUndefined();
  });

  it('calls a tool: text content and structuredContent', async () => {
    await client.listTools(); // the client learns the tools first, as a real one does
    const result = await client.callTool({ name: 'echo', arguments: { text: 'hello' } });
    expect(result.isError).toBeFalsy();
    expect(result.content).toEqual([{ type: 'text', text: '{"text":"hello"}' }]);
    expect(result.structuredContent).toEqual({ text: 'hello' });
    const end = events.find((e) => e.type === 'call.end');
    expect(end?.type === 'call.end' && end.outcome.ok).toBe(true);
  });

  it('gives a non-object output as text only', async () => {
    await client.listTools();
    const result = await client.callTool({ name: 'count_words', arguments: { text: 'one two three' } });
    expect(result).toEqual({ content: [{ type: 'text', text: '3' }] });
  });

  it('returns a string output as plain text, without structuredContent', async () => {
    const result = await client.callTool({ name: 'delete_record', arguments: { id: 'tmp-1' } });
    expect(result).toEqual({ content: [{ type: 'text', text: 'deleted tmp-1' }] });
  });

  it('answers invalid input with isError and the field, and never runs the handler', async () => {
    const result = await client.callTool({ name: 'echo', arguments: { text: 42 } });
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([{ type: 'text', text: 'Invalid input for echo.text: expected string, received number' }]);
    expect(result.structuredContent).toBeUndefined();

    const missing = await client.callTool({ name: 'delete_record' });
    expect(missing.isError).toBe(true);
    expect((missing.content as { text: string }[])[0]!.text).toMatch(/^Invalid input for delete_record\.id: /);
    expect(fixture.seen.deleted).toBe(0);
  });

  it('answers an unknown tool with -32602 naming the available tools, and the transcript sees the call', async () => {
    await expect(client.callTool({ name: 'ecoh', arguments: { text: 'x' } })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringMatching(/^MCP error -32602: Unknown tool "ecoh"; available tools: echo, slow, /),
    });
    const end = events.find((e) => e.type === 'call.end');
    expect(end?.type === 'call.end' && !end.outcome.ok && end.outcome.error.code).toBe('unknown_tool');
  });

  it("passes a tool's own refusal through as isError", async () => {
    const result = await client.callTool({ name: 'delete_record', arguments: { id: 'users' } });
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([
      { type: 'text', text: 'delete_record may only delete temporary records (ids starting with "tmp-"); "users" is not one.' },
    ]);
    expect(fixture.seen.deleted).toBe(0);
  });

  it('reports output JSON cannot carry as a fault of the tool', async () => {
    const result = await client.callTool({ name: 'big_number', arguments: {} });
    expect(result.isError).toBe(true);
    expect((result.content as { text: string }[])[0]!.text).toMatch(
      /^big_number returned output that cannot be sent as JSON \(.*BigInt.*\)\. This is a fault in the tool/,
    );
  });

  it('aborts the handler when the client cancels the call', async () => {
    const cancel = new AbortController();
    const call = client.callTool({ name: 'slow', arguments: {} }, undefined, {
      signal: cancel.signal,
      // The tool reports progress once it waits: cancel then, not after a guessed delay.
      onprogress: () => cancel.abort('user pressed stop'),
    });
    await expect(call).rejects.toThrow();
    await fixture.slowAborted;
    expect(fixture.seen).toMatchObject({ slowStarted: 1, slowAborted: 1 });
    await expect.poll(() => events.some((e) => e.type === 'call.end')).toBe(true);
    const end = events.find((e) => e.type === 'call.end');
    expect(end?.type === 'call.end' && !end.outcome.ok && end.outcome.error).toEqual({
      code: 'aborted',
      message: 'The call to slow was cancelled by the caller (user pressed stop).',
    });
    expect(fixture.seen.abortReason).toBe('user pressed stop');
    // The session survives a cancellation.
    const after = await client.callTool({ name: 'echo', arguments: { text: 'still here' } });
    expect(after.structuredContent).toEqual({ text: 'still here' });
  });

  it('sends progress notifications when the client asks for them', async () => {
    const received: Progress[] = [];
    const result = await client.callTool({ name: 'steps', arguments: { count: 3, ackKey: 'a' } }, undefined, {
      onprogress: (progress) => {
        received.push(progress);
        advance(client, 'a');
      },
    });
    expect(result.structuredContent).toEqual({ done: 3 });
    expect(received).toEqual([
      { progress: 1, total: 3, message: 'step 1 of 3' },
      { progress: 2, total: 3, message: 'step 2 of 3' },
      { progress: 3, total: 3, message: 'step 3 of 3' },
    ]);
  });

  it('drops progress that does not increase, as MCP requires', async () => {
    const received: number[] = [];
    await client.callTool({ name: 'steps', arguments: { count: 2, repeatEach: true, ackKey: 'a' } }, undefined, {
      onprogress: ({ progress }) => {
        received.push(progress);
        advance(client, 'a');
      },
    });
    expect(received).toEqual([1, 2]);
  });

  it('keeps one session per client: progress reaches only the caller', async () => {
    const other = await connect(service.url);
    try {
      const mine: number[] = [];
      const theirs: number[] = [];
      await Promise.all([
        client.callTool({ name: 'steps', arguments: { count: 2, ackKey: 'mine' } }, undefined, {
          onprogress: (p) => {
            mine.push(p.progress);
            advance(client, 'mine');
          },
        }),
        other.callTool({ name: 'steps', arguments: { count: 3, ackKey: 'theirs' } }, undefined, {
          onprogress: (p) => {
            theirs.push(p.progress);
            advance(other, 'theirs');
          },
        }),
      ]);
      expect(mine).toEqual([1, 2]);
      expect(theirs).toEqual([1, 2, 3]);
    } finally {
      await other.close();
    }
  });

  it('routes progress per session and request: two sessions calling with the same call id each hear only their own', async () => {
    const other = await connect(service.url);
    try {
      const mine: string[] = [];
      const theirs: string[] = [];
      const meta = { 'toolshed/callId': 'retry-1' };
      const calls = Promise.all([
        client.callTool({ name: 'steps', arguments: { count: 2, ackKey: 'mine' }, _meta: meta }, undefined, {
          onprogress: (p) => {
            mine.push(p.message!);
            advance(client, 'mine');
          },
        }),
        other.callTool({ name: 'steps', arguments: { count: 3, ackKey: 'theirs' }, _meta: meta }, undefined, {
          onprogress: (p) => {
            theirs.push(p.message!);
            advance(other, 'theirs');
          },
        }),
      ]);
      // Each call waits for its own progress to be heard before its next step: a call whose
      // progress went to the other session would never end.
      await expect.poll(() => mine.length > 0 && theirs.length > 0, { timeout: 5000 }).toBe(true);
      await calls;
      expect(mine).toEqual(['step 1 of 2', 'step 2 of 2']);
      expect(theirs).toEqual(['step 1 of 3', 'step 2 of 3', 'step 3 of 3']);
      expect(events.filter((event) => event.type === 'call.start' && event.name === 'steps').map((event) => event.callId)).toEqual([
        'retry-1',
        'retry-1',
      ]);
    } finally {
      await other.close();
    }
  });

  it('ends a session the client deletes, aborting its calls', async () => {
    const transport = new StreamableHTTPClientTransport(new URL(service.url));
    const other = new Client({ name: 'leaving', version: '1.0.0' });
    await other.connect(transport);
    const sessionId = transport.sessionId!;
    const call = other.callTool({ name: 'slow', arguments: {} }).catch(() => undefined);
    await expect.poll(() => fixture.seen.slowStarted).toBe(1);
    await transport.terminateSession();
    await fixture.slowAborted;
    expect(fixture.seen.slowAborted).toBe(1);
    const res = await rawRequest(service.url, {
      method: 'POST',
      headers: { ...MCP_HEADERS, 'mcp-session-id': sessionId },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
    });
    expect(res.status).toBe(404);
    await other.close();
    await call;
    // Other sessions go on.
    expect((await client.callTool({ name: 'echo', arguments: { text: 'ok' } })).structuredContent).toEqual({ text: 'ok' });
  });

  it('close() aborts calls in flight and stops listening', async () => {
    // The SDK client is left waiting (until its own timeout or close) when a server goes away.
    const call = client.callTool({ name: 'slow', arguments: {} }).catch(() => undefined);
    await expect.poll(() => fixture.seen.slowStarted).toBe(1);
    await service.close();
    await fixture.slowAborted;
    expect(fixture.seen.slowAborted).toBe(1);
    await client.close();
    await call;
    await expect(rawRequest(service.url, { method: 'POST', headers: MCP_HEADERS, body: INITIALIZE })).rejects.toThrow(/ECONNREFUSED/);
  });
});

describe('serveHttp refuses requests it should not answer', () => {
  it('refuses a Host other than a loopback name (DNS rebinding)', async () => {
    const res = await rawRequest(service.url, {
      method: 'POST',
      headers: { ...MCP_HEADERS, host: `evil.example:${service.port}` },
      body: INITIALIZE,
    });
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body).error.message).toBe(
      'Forbidden: this server answers only requests addressed to localhost, 127.0.0.1 or [::1] (Host was "evil.example:' +
        service.port +
        '").',
    );
  });

  it.each(['127.evil.example', 'localhost.evil.example', '127.0.0.1.evil.example'])('refuses the look-alike Host %s', async (name) => {
    const res = await rawRequest(service.url, {
      method: 'POST',
      headers: { ...MCP_HEADERS, host: `${name}:${service.port}` },
      body: INITIALIZE,
    });
    expect(res.status).toBe(403);
  });

  it('refuses a request without a Host', async () => {
    // HTTP/1.0 has no Host header; Node's client always sends one, so write the request by hand.
    const { connect } = await import('node:net');
    const reply = await new Promise<string>((resolve, reject) => {
      const socket = connect(service.port, '127.0.0.1', () => {
        socket.end(
          `POST /mcp HTTP/1.0\r\ncontent-type: application/json\r\naccept: application/json, text/event-stream\r\ncontent-length: ${Buffer.byteLength(INITIALIZE)}\r\n\r\n${INITIALIZE}`,
        );
      });
      let data = '';
      socket.on('data', (chunk) => (data += chunk.toString('utf8')));
      socket.on('end', () => resolve(data));
      socket.on('error', reject);
    });
    expect(reply).toMatch(/^HTTP\/1\.\d 403 /);
  });

  it.each(['localhost', '127.0.0.1', '[::1]'])('accepts %s as the Host', async (name) => {
    const res = await rawRequest(service.url, {
      method: 'POST',
      headers: { ...MCP_HEADERS, host: `${name}:${service.port}` },
      body: INITIALIZE,
    });
    expect(res.status).toBe(200);
  });

  it('answers other paths with 404 naming the endpoint', async () => {
    const res = await rawRequest(service.url.replace('/mcp', '/'), { method: 'POST', headers: MCP_HEADERS, body: INITIALIZE });
    expect(res.status).toBe(404);
    expect(JSON.parse(res.body).error.message).toBe('Not found: the MCP endpoint of this server is /mcp.');
  });

  it('answers an unknown session with 404 telling to start a new one', async () => {
    const res = await rawRequest(service.url, {
      method: 'POST',
      headers: { ...MCP_HEADERS, 'mcp-session-id': 'no-such-session' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    });
    expect(res.status).toBe(404);
    expect(JSON.parse(res.body).error.message).toMatch(/^Session not found: .* Start a new session with initialize\.$/);
  });

  it('refuses a GET without a session', async () => {
    const res = await rawRequest(service.url, { method: 'GET', headers: { accept: 'text/event-stream' } });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body).error.message).toMatch(/no mcp-session-id header/);
  });

  it('refuses a first request that is not initialize, and keeps no session for it', async () => {
    const res = await rawRequest(service.url, {
      method: 'POST',
      headers: MCP_HEADERS,
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    });
    expect(res.status).toBe(400);
    // The existing client's session is unaffected.
    expect((await client.listTools()).tools.length).toBe(fixture.registry.list().length);
  });
});

describe('serveHttp options', () => {
  it('serves on a chosen path, and says why it cannot listen', async () => {
    const second = await serveHttp(fixture.registry, { path: '/tools' });
    try {
      expect(second.url).toBe(`http://127.0.0.1:${second.port}/tools`);
      const c = await connect(second.url);
      expect((await c.listTools()).tools.length).toBe(fixture.registry.list().length);
      await c.close();
      await expect(serveHttp(fixture.registry, { host: '192.0.2.1' })).rejects.toThrow(
        'Cannot serve MCP on 192.0.2.1:0: 192.0.2.1 is not an address of this machine.',
      );
      await expect(serveHttp(fixture.registry, { port: second.port })).rejects.toThrow(
        `Cannot serve MCP on 127.0.0.1:${second.port}: the port is already in use; choose another port.`,
      );
    } finally {
      await second.close();
    }
  });
});
