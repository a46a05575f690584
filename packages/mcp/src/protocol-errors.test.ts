import { spawn } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { ToolEvent } from '@toolshed/core';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestRegistry } from '../test-fixtures/tools.mjs';
import { serveHttp, serveStdio, type HttpService } from './index.js';
import { MAX_LINE_BYTES } from './line-reader.js';

type Reply = { jsonrpc: string; id: unknown; result?: Record<string, unknown>; error?: { code: number; message: string } };

const INITIALIZE = {
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
};

/** An in-process stdio server spoken to in raw lines, with what it wrote to stdout and stderr. */
async function rawStdio() {
  const fixture = createTestRegistry();
  const events: ToolEvent[] = [];
  fixture.registry.subscribe((event) => events.push(event));
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const replies: Reply[] = [];
  let errText = '';
  let buffer = '';
  stdout.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    let newline: number;
    while ((newline = buffer.indexOf('\n')) >= 0) {
      replies.push(JSON.parse(buffer.slice(0, newline)) as Reply);
      buffer = buffer.slice(newline + 1);
    }
  });
  stderr.on('data', (chunk: Buffer) => (errText += chunk.toString('utf8')));
  const service = await serveStdio(fixture.registry, { stdin, stdout, stderr });
  const send = (message: object) => stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
  const next = async (count: number) => {
    await expect.poll(() => replies.length).toBeGreaterThanOrEqual(count);
    return replies[count - 1]!;
  };
  send({ id: 0, ...INITIALIZE });
  send({ method: 'notifications/initialized' });
  await next(1);
  return { ...fixture, events, stdin, service, replies, send, next, stderr: () => errText };
}

const opened: { close(): Promise<unknown> }[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

describe('stdio: a line that is not a JSON-RPC message', () => {
  const cases: [string, string, number, unknown, string][] = [
    ['bad JSON', '{"jsonrpc":"2.0","id":1,"method":', -32700, null, 'Parse error: the line is not JSON ('],
    ['text', 'hello server', -32700, null, 'Parse error: the line is not JSON ('],
    [
      'a batch',
      '[{"jsonrpc":"2.0","id":1,"method":"ping"}]',
      -32600,
      null,
      'Invalid Request: batches (JSON arrays) are not supported by MCP since 2025-06-18. Send one JSON-RPC message per line.',
    ],
    ['an empty batch', '[]', -32600, null, 'Invalid Request: batches (JSON arrays) are not supported'],
    ['no jsonrpc', '{"id":7,"method":"ping"}', -32600, 7, 'Invalid Request: "jsonrpc" must be "2.0" (got nothing).'],
    ['jsonrpc 1.0', '{"jsonrpc":"1.0","id":"a","method":"ping"}', -32600, 'a', 'Invalid Request: "jsonrpc" must be "2.0" (got "1.0").'],
    ['a string', '"ping"', -32600, null, 'Invalid Request: a JSON-RPC message is an object, not string.'],
    ['null', 'null', -32600, null, 'Invalid Request: a JSON-RPC message is an object, not null.'],
    [
      'neither request nor response',
      '{"jsonrpc":"2.0","id":8}',
      -32600,
      8,
      'Invalid Request: it is neither a request (id, method), a notification (method) nor a response (id, result or error).',
    ],
    ['an object id', '{"jsonrpc":"2.0","id":{"x":1},"method":"ping"}', -32600, null, 'Invalid Request: it is neither'],
  ];

  it.each(cases)('answers %s with a JSON-RPC error, notes it on stderr, and keeps serving', async (_name, line, code, id, message) => {
    const { stdin, send, next, events, stderr, service } = await rawStdio();
    opened.push(service);
    stdin.write(`${line}\n`);
    const reply = await next(2);
    expect(reply.jsonrpc).toBe('2.0');
    expect(reply.id).toBe(id);
    expect(reply.error!.code).toBe(code);
    expect(reply.error!.message.startsWith(message)).toBe(true);
    // Line 1 was initialize, line 2 notifications/initialized.
    expect(stderr()).toBe(`toolshed mcp: stdin line 3: ${reply.error!.message} (answered ${code})\n`);
    expect(events).toEqual([]);
    send({ id: 9, method: 'tools/call', params: { name: 'echo', arguments: { text: 'still here' } } });
    expect((await next(3)).result).toMatchObject({ structuredContent: { text: 'still here' } });
  });

  it('skips blank lines and reads CRLF line ends', async () => {
    const { stdin, next, replies, stderr, service } = await rawStdio();
    opened.push(service);
    stdin.write('\n   \r\n{"jsonrpc":"2.0","id":4,"method":"ping"}\r\n');
    expect(await next(2)).toEqual({ jsonrpc: '2.0', id: 4, result: {} });
    expect(replies).toHaveLength(2);
    expect(stderr()).toBe('');
  });
});

describe('HTTP: a JSON body that is not a JSON-RPC message', () => {
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  // The body, the id of the answer, and how the answer's message starts (as stdio says it).
  const cases: [string, string, unknown, string][] = [
    [
      'no jsonrpc',
      '{"id":7,"method":"tools/call","params":{"name":"echo","arguments":{"text":"x"}}}',
      7,
      'Invalid Request: "jsonrpc" must be "2.0" (got nothing).',
    ],
    [
      'no jsonrpc, an initialize',
      `{"id":1,"method":"initialize","params":${JSON.stringify(INITIALIZE.params)}}`,
      1,
      'Invalid Request: "jsonrpc" must be "2.0" (got nothing).',
    ],
    ['jsonrpc 1.0', '{"jsonrpc":"1.0","id":"a","method":"ping"}', 'a', 'Invalid Request: "jsonrpc" must be "2.0" (got "1.0").'],
    ['a string', '"ping"', null, 'Invalid Request: a JSON-RPC message is an object, not string.'],
    ['null', 'null', null, 'Invalid Request: a JSON-RPC message is an object, not null.'],
    [
      'neither request nor response',
      '{"jsonrpc":"2.0","id":8}',
      8,
      'Invalid Request: it is neither a request (id, method), a notification (method) nor a response',
    ],
  ];

  async function serve(stateless: boolean) {
    const fixture = createTestRegistry();
    const events: ToolEvent[] = [];
    fixture.registry.subscribe((event) => events.push(event));
    const service = await serveHttp(fixture.registry, { stateless });
    opened.push(service);
    return { service, events };
  }
  const postRaw = (url: string, body: string, extra: Record<string, string> = {}) =>
    fetch(url, { method: 'POST', headers: { ...headers, ...extra }, body });

  async function expectInvalid(res: Response, id: unknown, message: string): Promise<void> {
    expect(res.status).toBe(400);
    const reply = (await res.json()) as Reply;
    expect(reply).toMatchObject({ jsonrpc: '2.0', id, error: { code: -32600 } });
    expect(reply.error!.message.startsWith(message)).toBe(true);
  }

  it.each(cases)('before a session: %s gets 400 and -32600, and no session is opened', async (_name, body, id, message) => {
    const { service, events } = await serve(false);
    await expectInvalid(await postRaw(service.url, body), id, message);
    expect(service.sessionCount).toBe(0);
    expect(events).toEqual([]);
  });

  it.each(cases)('in a session: %s gets 400 and -32600, nothing runs, and the session goes on', async (_name, body, id, message) => {
    const { service, events } = await serve(false);
    const init = await postRaw(service.url, JSON.stringify({ jsonrpc: '2.0', id: 0, ...INITIALIZE }));
    const session = { 'mcp-session-id': init.headers.get('mcp-session-id')!, 'mcp-protocol-version': '2025-06-18' };
    await init.text();
    await expectInvalid(await postRaw(service.url, body, session), id, message);
    expect(events).toEqual([]);
    const call = { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'echo', arguments: { text: 'still here' } } };
    const res = await postRaw(service.url, JSON.stringify(call), session);
    expect(await res.text()).toContain('still here');
    expect(service.sessionCount).toBe(1);
  });

  it.each(cases)('stateless: %s gets 400 and -32600, and nothing runs', async (_name, body, id, message) => {
    const { service, events } = await serve(true);
    await expectInvalid(await postRaw(service.url, body, { 'mcp-protocol-version': '2025-06-18' }), id, message);
    expect(events).toEqual([]);
  });
});

describe(`stdio: the ${MAX_LINE_BYTES / 1024 / 1024} MiB line limit`, () => {
  /** A count_words call whose line is exactly `bytes` long, with the id last, as the SDK client writes it. */
  function callLine(bytes: number, id: number): string {
    const shell = (text: string) =>
      JSON.stringify({ method: 'tools/call', params: { name: 'count_words', arguments: { text } }, jsonrpc: '2.0', id });
    return shell('x'.repeat(bytes - shell('').length));
  }

  it('reads a line of exactly the limit, and answers one byte more with an error naming the limit and the request id', async () => {
    const { stdin, next, events, stderr, service } = await rawStdio();
    opened.push(service);
    const atLimit = callLine(MAX_LINE_BYTES, 1);
    expect(Buffer.byteLength(atLimit)).toBe(MAX_LINE_BYTES);
    stdin.write(`${atLimit}\n`);
    const ok = await next(2);
    expect(ok.id).toBe(1);
    // The tool read all of it: one word.
    expect(ok.result).toEqual({ content: [{ type: 'text', text: '1' }] });

    const over = callLine(MAX_LINE_BYTES + 1, 2);
    // In pieces, as a pipe delivers it.
    for (let at = 0; at < over.length; at += 65536) stdin.write(over.slice(at, at + 65536));
    stdin.write('\n');
    const refused = await next(3);
    expect(refused).toEqual({
      jsonrpc: '2.0',
      id: 2,
      error: {
        code: -32600,
        message: `Message too long: ${MAX_LINE_BYTES + 1} bytes on one line; this server reads at most 10 MiB (10485760 bytes) per message. The message was dropped; send smaller arguments.`,
      },
    });
    expect(stderr()).toContain(`toolshed mcp: stdin line 4: Message too long: ${MAX_LINE_BYTES + 1} bytes`);
    // The first call ran; the second never reached the registry.
    expect(events.filter((e) => e.type === 'call.start')).toHaveLength(1);
  });

  it('answers an overlong line with id null when the id is not at its end', async () => {
    const { stdin, next, send, service } = await rawStdio();
    opened.push(service);
    stdin.write(
      `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"text":"${'y'.repeat(MAX_LINE_BYTES)}"}}}\n`,
    );
    expect((await next(2)).id).toBeNull();
    send({ id: 4, method: 'ping' });
    expect(await next(3)).toEqual({ jsonrpc: '2.0', id: 4, result: {} });
  });

  it('keeps a real server process running after an overlong line, and it exits 0 when its input ends', { timeout: 30_000 }, async () => {
    const script = fileURLToPath(new URL('../test-fixtures/stdio-server.mjs', import.meta.url));
    const child = spawn(process.execPath, [script], { stdio: ['pipe', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
    const lines = () =>
      out
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Reply);
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 0, ...INITIALIZE })}\n`);
    child.stdin.write(`${callLine(MAX_LINE_BYTES + 1000, 1)}\n`);
    child.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: 'after' } } })}\n`,
    );
    child.stdin.on('error', () => {}); // a server that died is reported below, with its stderr
    const died = exited.then((code) => {
      throw new Error(`the server exited with ${code} before answering: ${err}`);
    });
    await Promise.race([expect.poll(() => lines().length, { timeout: 20_000 }).toBe(3), died]);
    const [, refused, after] = lines();
    expect(refused).toMatchObject({ id: 1, error: { code: -32600, message: expect.stringMatching(/^Message too long: 10486760 bytes/) } });
    expect(after).toMatchObject({ id: 2, result: { structuredContent: { text: 'after' } } });
    expect(err).toMatch(/^toolshed mcp: stdin line 2: Message too long/);
    died.catch(() => {});
    child.stdin.end();
    expect(await exited).toBe(0);
  });
});

describe('malformed params: -32602 naming the field', () => {
  const toolsCall: [string, unknown, string][] = [
    ['no params', undefined, 'Invalid params for tools/call: params: expected object, received undefined.'],
    ['no name', { arguments: {} }, 'Invalid params for tools/call: params.name: expected string, received undefined.'],
    ['a number as name', { name: 5 }, 'Invalid params for tools/call: params.name: expected string, received number.'],
    [
      'arguments as a string',
      { name: 'echo', arguments: 'hi' },
      'Invalid params for tools/call: params.arguments: expected record, received string.',
    ],
  ];

  it.each(toolsCall)('stdio tools/call with %s', async (_name, params, message) => {
    const { send, next, events, service } = await rawStdio();
    opened.push(service);
    send({ id: 5, method: 'tools/call', ...(params === undefined ? {} : { params }) });
    const reply = await next(2);
    expect(reply).toEqual({
      jsonrpc: '2.0',
      id: 5,
      error: { code: -32602, message: `${message} Send params of the form {"name": "<tool>", "arguments": {...}}.` },
    });
    expect(events).toEqual([]);
  });

  it('stdio: a malformed initialize already waiting in the input when serving starts', async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} })}\n`);
    const service = await serveStdio(createTestRegistry().registry, { stdin, stdout, stderr: new PassThrough() });
    opened.push(service);
    let out = '';
    stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    await expect.poll(() => out).toContain('\n');
    expect(JSON.parse(out)).toMatchObject({
      id: 1,
      error: { code: -32602, message: expect.stringMatching(/^Invalid params for initialize: params\.protocolVersion: /) },
    });
  });

  it('stdio initialize without clientInfo.version', async () => {
    const { send, next, service } = await rawStdio();
    opened.push(service);
    send({ id: 6, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x' } } });
    expect((await next(2)).error).toEqual({
      code: -32602,
      message:
        'Invalid params for initialize: params.clientInfo.version: expected string, received undefined. Send params of the form {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "...", "version": "..."}}.',
    });
  });

  async function http(options: Parameters<typeof serveHttp>[1] = {}): Promise<HttpService> {
    const service = await serveHttp(createTestRegistry().registry, options);
    opened.push(service);
    return service;
  }
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const post = (url: string, body: object, extra: Record<string, string> = {}) =>
    fetch(url, { method: 'POST', headers: { ...headers, ...extra }, body: JSON.stringify({ jsonrpc: '2.0', ...body }) });
  /** The one JSON-RPC message of a response, JSON or a one-event SSE stream. */
  async function message(res: Response): Promise<Reply> {
    const text = await res.text();
    return JSON.parse(res.headers.get('content-type')?.includes('text/event-stream') ? /^data: (.*)$/m.exec(text)![1]! : text) as Reply;
  }

  it('HTTP initialize with params missing: 400 and -32602, and no session is kept', async () => {
    const service = await http();
    const res = await post(service.url, { id: 1, method: 'initialize', params: { capabilities: {} } });
    expect(res.status).toBe(400);
    const reply = await message(res);
    expect(reply.id).toBe(1);
    expect(reply.error!.code).toBe(-32602);
    expect(reply.error!.message).toMatch(
      /^Invalid params for initialize: params\.protocolVersion: expected string, received undefined; params\.clientInfo: expected object, received undefined\. /,
    );
    expect(service.sessionCount).toBe(0);
  });

  it.each([false, true])('HTTP tools/call with a number as name (stateless: %s)', async (stateless) => {
    const service = await http({ stateless });
    const init = await post(service.url, { id: 1, ...INITIALIZE });
    const session = init.headers.get('mcp-session-id');
    await init.text();
    const extra: Record<string, string> = { 'mcp-protocol-version': '2025-06-18', ...(session ? { 'mcp-session-id': session } : {}) };
    const reply = await message(await post(service.url, { id: 2, method: 'tools/call', params: { name: 5 } }, extra));
    expect(reply).toEqual({
      jsonrpc: '2.0',
      id: 2,
      error: {
        code: -32602,
        message:
          'Invalid params for tools/call: params.name: expected string, received number. Send params of the form {"name": "<tool>", "arguments": {...}}.',
      },
    });
  });
});
