import { fileURLToPath } from 'node:url';
import { PassThrough } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestRegistry } from '../test-fixtures/tools.mjs';
import { serveStdio } from './index.js';

// A real child process speaking MCP on its stdio, built from ../dist.
const script = fileURLToPath(new URL('../test-fixtures/stdio-server.mjs', import.meta.url));

let client: Client;
let transport: StdioClientTransport;

beforeEach(async () => {
  client = new Client({ name: 'stdio-test', version: '1.0.0' });
  transport = new StdioClientTransport({ command: process.execPath, args: [script], stderr: 'pipe' });
  await client.connect(transport);
});

afterEach(async () => {
  await client.close();
});

function text(result: object): string {
  return (result as { content: { text: string }[] }).content[0]!.text;
}

describe('serveStdio in a child process', { timeout: 30_000 }, () => {
  it('introduces itself with the given name', () => {
    expect(client.getServerVersion()).toMatchObject({ name: 'toolshed-test', version: '1.0.0' });
    expect(client.getServerCapabilities()?.tools).toBeDefined();
  });

  it('lists the tools', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      'echo',
      'slow',
      'steps',
      'advance',
      'count_words',
      'delete_record',
      'big_number',
      'probe',
    ]);
    const { registry } = createTestRegistry();
    expect(tools[0]!.inputSchema).toEqual(registry.get('echo')!.definition.inputSchema);
  });

  it('calls a tool', async () => {
    await client.listTools();
    const result = await client.callTool({ name: 'echo', arguments: { text: 'over stdio' } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ text: 'over stdio' });
    expect(text(result)).toBe('{"text":"over stdio"}');
  });

  it('answers invalid input with isError and an unknown tool with -32602', async () => {
    const invalid = await client.callTool({ name: 'echo', arguments: {} });
    expect(invalid.isError).toBe(true);
    // The registry's own message, naming the field, passes through unchanged.
    const direct = await createTestRegistry().registry.dispatch({ name: 'echo', input: {} });
    expect(direct.ok).toBe(false);
    expect(text(invalid)).toBe(!direct.ok && direct.error.message);
    expect(text(invalid)).toMatch(/^Invalid input for echo\.text: /);
    // An unknown tool is a protocol error in MCP (2025-06-18 and 2025-11-25): -32602, with the registry's message.
    await expect(client.callTool({ name: 'nope', arguments: {} })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringMatching(/^MCP error -32602: Unknown tool "nope"; available tools: echo, /),
    });
  });

  it('aborts the handler of a cancelled call', async () => {
    const cancel = new AbortController();
    await expect(
      client.callTool({ name: 'slow', arguments: {} }, undefined, { signal: cancel.signal, onprogress: () => cancel.abort('stop') }),
    ).rejects.toThrow();
    // stdio delivers in order: the cancellation is handled before this call arrives.
    const probe = await client.callTool({ name: 'probe', arguments: {} });
    expect(probe.structuredContent).toMatchObject({ slowStarted: 1, slowAborted: 1, abortReason: 'stop' });
  });

  it('sends progress notifications', async () => {
    const received: Progress[] = [];
    const advances: Promise<unknown>[] = [];
    // Each step waits for the client to acknowledge it (see test-fixtures/tools.mjs);
    // the acknowledgements are awaited so none is cut off when the client closes.
    const result = await client.callTool({ name: 'steps', arguments: { count: 2, ackKey: 'k' } }, undefined, {
      onprogress: (progress) => {
        received.push(progress);
        advances.push(client.callTool({ name: 'advance', arguments: { key: 'k' } }));
      },
    });
    await Promise.all(advances);
    expect(result.structuredContent).toEqual({ done: 2 });
    expect(received).toEqual([
      { progress: 1, total: 2, message: 'step 1 of 2' },
      { progress: 2, total: 2, message: 'step 2 of 2' },
    ]);
  });
});

/** Speak raw JSON lines to an in-process stdio server. */
async function rawStdio() {
  const fixture = createTestRegistry();
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const lines: Record<string, unknown>[] = [];
  let buffer = '';
  stdout.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    let newline: number;
    while ((newline = buffer.indexOf('\n')) >= 0) {
      lines.push(JSON.parse(buffer.slice(0, newline)) as Record<string, unknown>);
      buffer = buffer.slice(newline + 1);
    }
  });
  const service = await serveStdio(fixture.registry, { stdin, stdout });
  const send = (message: object) => stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
  send({
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
  });
  send({ method: 'notifications/initialized' });
  const answer = async (id: number) => {
    await expect.poll(() => lines.some((line) => line.id === id)).toBe(true);
    return lines.find((line) => line.id === id)!;
  };
  return { ...fixture, stdin, service, lines, send, answer };
}

describe('serveStdio in process', () => {
  it('sends progress only when the request carries a progress token', async () => {
    const { send, answer, lines, service } = await rawStdio();
    send({ id: 1, method: 'tools/call', params: { name: 'steps', arguments: { count: 2 } } });
    expect(await answer(1)).toMatchObject({ result: { structuredContent: { done: 2 } } });
    expect(lines.filter((line) => line.method === 'notifications/progress')).toEqual([]);

    send({ id: 2, method: 'tools/call', params: { name: 'steps', arguments: { count: 2 }, _meta: { progressToken: 'tok' } } });
    expect(await answer(2)).toMatchObject({ result: { structuredContent: { done: 2 } } });
    expect(lines.filter((line) => line.method === 'notifications/progress').map((line) => line.params)).toEqual([
      { progressToken: 'tok', progress: 1, total: 2, message: 'step 1 of 2' },
      { progressToken: 'tok', progress: 2, total: 2, message: 'step 2 of 2' },
    ]);
    await service.close();
  });

  it('treats missing arguments as an empty object, so the missing field is named', async () => {
    const { send, answer, service } = await rawStdio();
    send({ id: 1, method: 'tools/call', params: { name: 'echo' } });
    const reply = (await answer(1)) as { result: { isError: boolean; content: { text: string }[] } };
    expect(reply.result.isError).toBe(true);
    expect(reply.result.content[0]!.text).toMatch(/^Invalid input for echo\.text: /);
    await service.close();
  });

  it('closes when the client closes its input, aborting calls in flight', async () => {
    const { send, stdin, service, seen, slowAborted } = await rawStdio();
    send({ id: 1, method: 'tools/call', params: { name: 'slow', arguments: {} } });
    await expect.poll(() => seen.slowStarted).toBe(1);
    stdin.end();
    await service.closed;
    await slowAborted;
    expect(seen.slowAborted).toBe(1);
  });
});
