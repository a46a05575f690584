import { request } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestRegistry } from '../test-fixtures/tools.mjs';
import { serveHttp, type HttpService } from './index.js';

const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

let fixtures: ReturnType<typeof createTestRegistry>[];
let services: HttpService[];

beforeEach(async () => {
  fixtures = [createTestRegistry(), createTestRegistry()];
  services = await Promise.all(fixtures.map((f) => serveHttp(f.registry, { stateless: true })));
});

afterEach(async () => {
  await Promise.all(services.map((s) => s.close()));
});

/**
 * A client whose requests go to the two servers in turn, as behind a round-robin
 * load balancer without session affinity; `served` records where each went.
 */
function roundRobinClient(served: { server: number; method: string; sessionHeader: string | null }[]): {
  client: Client;
  transport: StreamableHTTPClientTransport;
} {
  let next = 0;
  const transport = new StreamableHTTPClientTransport(new URL(services[0]!.url), {
    fetch: async (url, init) => {
      const server = next++ % services.length;
      const target = new URL(services[server]!.url);
      const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as { method?: string }) : undefined;
      const response = await fetch(new URL(String(url)).pathname === target.pathname ? target : url, init);
      served.push({ server, method: body?.method ?? init?.method ?? 'GET', sessionHeader: response.headers.get('mcp-session-id') });
      return response;
    },
  });
  return { client: new Client({ name: 'round-robin', version: '1.0.0' }), transport };
}

describe('serveHttp({stateless: true})', () => {
  it('serves a client whose requests alternate between two servers', async () => {
    const served: { server: number; method: string; sessionHeader: string | null }[] = [];
    const { client, transport } = roundRobinClient(served);
    await client.connect(transport);
    try {
      expect(transport.sessionId).toBeUndefined();
      expect((await client.listTools()).tools.map((t) => t.name)).toContain('echo');
      for (let i = 0; i < 6; i += 1) {
        const result = await client.callTool({ name: 'echo', arguments: { text: `call ${i}` } });
        expect(result.structuredContent).toEqual({ text: `call ${i}` });
      }
      const calls = served.filter((s) => s.method === 'tools/call');
      expect(calls).toHaveLength(6);
      // Both servers answered calls, and neither handed out a session.
      expect(new Set(calls.map((c) => c.server))).toEqual(new Set([0, 1]));
      expect(served.every((s) => s.sessionHeader === null)).toBe(true);
      expect(services.map((s) => s.sessionCount)).toEqual([0, 0]);
    } finally {
      await client.close();
    }
  });

  it("sends progress on the call's own response", async () => {
    const client = new Client({ name: 'stateless', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(services[0]!.url)));
    try {
      const received: Progress[] = [];
      const advances: Promise<unknown>[] = [];
      // Each step waits for an advance call (its own POST), so no notification shares a read with the result.
      const result = await client.callTool({ name: 'steps', arguments: { count: 3, ackKey: 'k' } }, undefined, {
        onprogress: (p) => {
          received.push(p);
          advances.push(client.callTool({ name: 'advance', arguments: { key: 'k' } }));
        },
      });
      await Promise.all(advances);
      expect(result.structuredContent).toEqual({ done: 3 });
      expect(received).toEqual([
        { progress: 1, total: 3, message: 'step 1 of 3' },
        { progress: 2, total: 3, message: 'step 2 of 3' },
        { progress: 3, total: 3, message: 'step 3 of 3' },
      ]);
    } finally {
      await client.close();
    }
  });

  it('aborts a call whose client closes the connection', async () => {
    const req = request(services[0]!.url, { method: 'POST', headers: MCP_HEADERS });
    req.on('error', () => {});
    req.on('response', (res) => res.on('data', () => {}));
    req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'slow', arguments: {} } }));
    await expect.poll(() => fixtures[0]!.seen.slowStarted).toBe(1);
    req.destroy();
    await fixtures[0]!.slowAborted;
    expect(fixtures[0]!.seen.slowAborted).toBe(1);
  });

  it.each(['GET', 'DELETE'])('answers %s with 405 and Allow: POST', async (method) => {
    const res = await fetch(services[0]!.url, { method, headers: { accept: 'text/event-stream' } });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
    expect(((await res.json()) as { error: { message: string } }).error.message).toBe(
      `Method not allowed: this server is stateless and answers only POST (got ${method}).`,
    );
  });

  it('ignores a session id a client sends, and keeps none', async () => {
    const res = await fetch(services[0]!.url, {
      method: 'POST',
      headers: { ...MCP_HEADERS, 'mcp-session-id': 'from-another-replica' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'echo', arguments: { text: 'x' } } }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('mcp-session-id')).toBeNull();
    expect(await res.text()).toContain('"structuredContent":{"text":"x"}');
    expect(services[0]!.sessionCount).toBe(0);
  });
});
