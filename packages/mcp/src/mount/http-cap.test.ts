// A Streamable HTTP server that answers with one huge or endless message: the mount holds at
// most MAX_MESSAGE_BYTES of it, fails the call naming the server and the cap, and stays bounded.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MAX_MESSAGE_BYTES } from './connection.js';
import { listenLocal, registryOf, scratch, stopServer, type Scratch } from './mount.fixture.js';

const MiB = 1024 * 1024;
const CHUNK = Buffer.alloc(64 * 1024, 'a');

type Answer = 'json' | 'sse-endless' | 'sse-many';
interface Sent {
  bytes: number;
}

/** Streams what `answer` says for a tools/call with request `id`, counting what was written. */
async function answerCall(answer: Answer, id: unknown, response: ServerResponse, sent: Sent): Promise<void> {
  const write = (data: string | Buffer) =>
    new Promise<boolean>((resolve) => {
      if (response.destroyed) return resolve(false);
      sent.bytes += Buffer.byteLength(data);
      if (response.write(data)) resolve(true);
      else {
        const done = () => {
          response.off('drain', done).off('close', done);
          resolve(!response.destroyed);
        };
        response.on('drain', done).on('close', done);
      }
    });
  if (answer === 'json') {
    // One JSON-RPC answer of 128 MiB of text, sent whole: before the cap the SDK buffered it all.
    response.writeHead(200, { 'content-type': 'application/json' });
    await write(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"content":[{"type":"text","text":"`);
    for (let i = 0; i < (128 * MiB) / CHUNK.length; i++) if (!(await write(CHUNK))) return;
    await write('"}]}}');
    response.end();
  } else if (answer === 'sse-endless') {
    // One event that never ends: data lines without the blank line that closes an event.
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    await write('event: message\ndata: {"jsonrpc":"2.0","id":');
    // Bounded so that a regression fails the test instead of filling the machine.
    while (sent.bytes < 512 * MiB) if (!(await write(CHUNK))) return;
    response.end();
  } else {
    // Many small messages that together pass the cap, then the answer: only one message is capped.
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    const text = 'p'.repeat(60 * 1024);
    const progress = (step: number) =>
      `event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: `${step} ${text}` } })}\r\n\r\n`;
    for (let step = 1; sent.bytes < MAX_MESSAGE_BYTES * 1.5; step++) if (!(await write(progress(step)))) return;
    await write(
      `event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: 'done' }] } })}\n\n`,
    );
    response.end();
  }
}

let server: Server;
let url: string;
const sent: Sent = { bytes: 0 };
beforeAll(async () => {
  server = createServer(async (request: IncomingMessage, response: ServerResponse) => {
    const answer = new URL(request.url ?? '/', 'http://x').searchParams.get('answer') as Answer;
    let parsed: unknown;
    if (request.method === 'POST') {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const message = parsed as { method?: string; id?: unknown };
      if (message.method === 'tools/call') return answerCall(answer, message.id, response, sent);
    }
    const mcp = new McpServer({ name: 'big', version: '1.0.0' });
    mcp.registerTool('big', { description: 'Answers big.', inputSchema: { n: z.number().optional() } }, async () => ({
      content: [{ type: 'text', text: 'never' }],
    }));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    response.on('close', () => {
      void transport.close();
      void mcp.close();
    });
    await mcp.connect(transport);
    await transport.handleRequest(request, response, parsed);
  });
  url = await listenLocal(server);
});
afterAll(async () => {
  await stopServer(server);
});

let s: Scratch;
beforeEach(() => {
  s = scratch();
  sent.bytes = 0;
});
afterEach(async () => {
  await s.cleanup();
});

/** What the host holds beyond its start: heap and the buffers outside it, sampled while `work` runs. */
async function peakGrowth<T>(work: () => Promise<T>): Promise<{ result: T; growth: number }> {
  const held = () => {
    const usage = process.memoryUsage();
    return usage.heapUsed + usage.arrayBuffers;
  };
  const before = held();
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, held());
  }, 5);
  try {
    const result = await work();
    peak = Math.max(peak, held());
    return { result, growth: peak - before };
  } finally {
    clearInterval(sampler);
  }
}

describe('an answer over the cap on one message, over Streamable HTTP', () => {
  it.each([
    ['one 128 MiB JSON answer', 'json'],
    ['one endless SSE event', 'sse-endless'],
  ] as const)('%s: the call fails naming the server and the cap; the host holds far less than was sent', async (_, answer) => {
    const mount = s.mount({ name: 'big', url: `${url}?answer=${answer}` });
    const registry = registryOf([[mount, await mount.refresh()]], { approve: 'allow-all' });
    const { result: outcome, growth } = await peakGrowth(() => registry.dispatch({ name: 'big', input: {} }));
    expect(outcome).toMatchObject({
      ok: false,
      error: {
        code: 'execution_failed',
        message:
          'big failed: MCP server "big" sent a message of over 10 MiB (the most one message may hold); it was disconnected during the call; it may or may not have taken effect. It is connected again on the next call.',
      },
    });
    expect(mount.state()).toMatchObject({ status: 'failed', message: expect.stringContaining('over 10 MiB') });
    // The download stops at the cap (what was sent beyond it is what sockets buffer), and the
    // host holds the message up to the cap in a few forms (bytes, text), never what was sent.
    expect(sent.bytes).toBeLessThan(2 * MAX_MESSAGE_BYTES);
    expect(growth).toBeLessThan(6 * MAX_MESSAGE_BYTES);
    // The server is connected again, and answers what it can.
    expect(s.logs.filter((line) => line.includes('over 10 MiB'))).toHaveLength(2); // the fault, then the state
  });

  it('many messages that together pass the cap are each taken: only one message is capped', async () => {
    const mount = s.mount({ name: 'chatty', url: `${url}?answer=sse-many` });
    const registry = registryOf([[mount, await mount.refresh()]], { approve: 'allow-all' });
    expect(await registry.dispatch({ name: 'big', input: {} })).toMatchObject({ ok: true, output: 'done' });
    expect(sent.bytes).toBeGreaterThan(MAX_MESSAGE_BYTES);
    expect(mount.state().status).toBe('connected');
  });

  it('a tools/list answer over the cap fails the listing, naming the server and the cap', async () => {
    const listing = createServer(async (request, response) => {
      let message: { method?: string; id?: unknown } | undefined;
      if (request.method === 'POST') {
        const chunks: Buffer[] = [];
        for await (const chunk of request) chunks.push(chunk as Buffer);
        message = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { method?: string; id?: unknown };
        if (message.method === 'tools/list') return answerCall('json', message.id, response, sent);
      }
      const mcp = new McpServer({ name: 'big', version: '1.0.0' });
      mcp.registerTool('t', { description: 'A tool.' }, async () => ({ content: [] }));
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      response.on('close', () => void mcp.close());
      await mcp.connect(transport);
      await transport.handleRequest(request, response, message);
    });
    const listingUrl = await listenLocal(listing);
    try {
      const mount = s.mount({ name: 'biglist', url: listingUrl });
      await expect(mount.refresh()).rejects.toThrow(
        'MCP server "biglist" could not list its tools: sent a message of over 10 MiB (the most one message may hold); it was disconnected',
      );
    } finally {
      await stopServer(listing);
    }
  });
});
