import { request } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestRegistry } from '../test-fixtures/tools.mjs';
import { serveHttp, type HttpService } from './index.js';

const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

const opened: HttpService[] = [];
async function serve(options: Parameters<typeof serveHttp>[1] = {}) {
  const fixture = createTestRegistry();
  const service = await serveHttp(fixture.registry, options);
  opened.push(service);
  return { fixture, service };
}
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

function post(url: string, body: string, headers: Record<string, string> = {}) {
  return fetch(url, { method: 'POST', headers: { ...MCP_HEADERS, ...headers }, body });
}

async function errorOf(res: Response): Promise<{ code: number; message: string }> {
  return ((await res.json()) as { error: { code: number; message: string } }).error;
}

describe('Origin', () => {
  it('refuses a web origin by default with 403, and answers loopback origins and clients that send none', async () => {
    const { service } = await serve();
    for (const origin of [
      'http://evil.example',
      'https://127.0.0.1.evil.example',
      'http://localhost.evil.example:80',
      'null',
      'not a url',
      'file:///tmp/a.html',
    ]) {
      const res = await post(service.url, INITIALIZE, { origin });
      expect(res.status, origin).toBe(403);
      expect((await errorOf(res)).message).toBe(
        `Forbidden: requests from the web origin ${JSON.stringify(origin)} are not allowed. The server's operator can allow it (allowedOrigins, or --allow-origin for toolshed serve).`,
      );
    }
    expect(service.sessionCount).toBe(0);
    for (const origin of [`http://127.0.0.1:${service.port}`, 'http://localhost:6274', 'https://[::1]:8443', undefined]) {
      expect((await post(service.url, INITIALIZE, origin === undefined ? {} : { origin })).status, origin).toBe(200);
    }
    expect(service.sessionCount).toBe(4);
  });

  it('lets allowed origins in, compared as origins, and refuses look-alikes', async () => {
    const { service } = await serve({ allowedOrigins: ['HTTPS://APP.EXAMPLE:443/'] });
    expect((await post(service.url, INITIALIZE, { origin: 'https://app.example' })).status).toBe(200);
    for (const origin of ['https://app.example:8443', 'http://app.example', 'https://app.example.evil', 'null']) {
      expect((await post(service.url, INITIALIZE, { origin })).status, origin).toBe(403);
    }
  });

  it('checks the Origin of requests inside a session and in stateless mode too', async () => {
    const { service } = await serve({ allowedOrigins: ['https://app.example'] });
    const init = await post(service.url, INITIALIZE);
    const sessionId = init.headers.get('mcp-session-id')!;
    const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    const res = await post(service.url, list, {
      'mcp-session-id': sessionId,
      'mcp-protocol-version': '2025-06-18',
      origin: 'http://evil.example',
    });
    expect(res.status).toBe(403);
    const stateless = await serve({ stateless: true });
    expect((await post(stateless.service.url, list, { origin: 'http://evil.example' })).status).toBe(403);
  });

  it('refuses at start an allowed origin that is not one', async () => {
    for (const text of ['localhost:6274', 'http://localhost:6274/app', 'http://localhost:6274?x=1', 'file:///tmp/page.html', '']) {
      await expect(serveHttp(createTestRegistry().registry, { allowedOrigins: [text] }), text).rejects.toThrow(
        `allowedOrigins: ${JSON.stringify(text)} is not an origin; write it as a browser sends it, scheme, host and port, e.g. http://localhost:6274.`,
      );
    }
  });
});

describe('sessions: idle timeout', () => {
  it('closes a session idle for sessionIdleTimeoutMs; its id then gets 404 and a new session works', async () => {
    const { service } = await serve({ sessionIdleTimeoutMs: 300 });
    const transport = new StreamableHTTPClientTransport(new URL(service.url));
    const client = new Client({ name: 'idle', version: '1.0.0' });
    await client.connect(transport);
    const sessionId = transport.sessionId!;
    expect(service.sessionCount).toBe(1);
    // Gone without deleting its session (a crash, a closed laptop): the session expires.
    await client.close();
    await expect.poll(() => service.sessionCount).toBe(0);
    const res = await post(service.url, JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }), {
      'mcp-session-id': sessionId,
      'mcp-protocol-version': '2025-06-18',
    });
    expect(res.status).toBe(404);
    expect(await errorOf(res)).toEqual({
      code: -32001,
      message: 'Session not found: it was closed, idle for over 300 ms, or the server restarted. Start a new session with initialize.',
    });
    const again = new Client({ name: 'idle', version: '1.0.0' });
    await again.connect(new StreamableHTTPClientTransport(new URL(service.url)));
    expect((await again.callTool({ name: 'echo', arguments: { text: 'back' } })).structuredContent).toEqual({ text: 'back' });
    await again.close();
  });

  it('does not close a session while a request of it is open, and closes it once none is', async () => {
    const { service, fixture } = await serve({ sessionIdleTimeoutMs: 300 });
    // Raw requests, so that no GET stream of an SDK client keeps the session open: only the call does.
    const init = await post(service.url, INITIALIZE);
    const sessionId = init.headers.get('mcp-session-id')!;
    await init.text();
    const response = await post(
      service.url,
      JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'slow', arguments: {} } }),
      {
        'mcp-session-id': sessionId,
        'mcp-protocol-version': '2025-06-18',
      },
    );
    const reading = response.body!.getReader();
    void reading.read().catch(() => undefined);
    await expect.poll(() => fixture.seen.slowStarted).toBe(1);
    // Over three idle periods pass while the call's response is open: the session stays.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(service.sessionCount).toBe(1);
    await reading.cancel();
    await expect.poll(() => service.sessionCount).toBe(0);
  });

  it('refuses a timeout that is not a whole number of milliseconds', async () => {
    await expect(serveHttp(createTestRegistry().registry, { sessionIdleTimeoutMs: 0 })).rejects.toThrow(
      'sessionIdleTimeoutMs must be a whole number from 1 to 2147483647; got 0.',
    );
    await expect(serveHttp(createTestRegistry().registry, { maxSessions: 1.5 })).rejects.toThrow(
      'maxSessions must be a whole number from 1 to 9007199254740991; got 1.5.',
    );
  });
});

describe('sessions: cap', () => {
  it('opens exactly maxSessions of each concurrent burst; the rest get 503 with Retry-After', async () => {
    const cap = 5;
    const { service } = await serve({ maxSessions: cap });
    for (let round = 0; round < 10; round += 1) {
      const answers = await Promise.all(Array.from({ length: cap * 3 }, () => post(service.url, INITIALIZE)));
      const statuses = answers.map((r) => r.status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(round === 0 ? cap : 0);
      expect(statuses.filter((s) => s === 503)).toHaveLength(round === 0 ? cap * 2 : cap * 3);
      expect(service.sessionCount).toBe(cap);
      const refused = answers.find((r) => r.status === 503)!;
      expect(refused.headers.get('retry-after')).toBe('60');
      expect((await errorOf(refused)).message).toBe(
        `Too many sessions: this server keeps at most ${cap} open. End a session you no longer use (DELETE it), or try again once idle ones expire.`,
      );
      await Promise.all(answers.map((r) => (r.bodyUsed ? undefined : r.body?.cancel())));
    }
    // The SDK client is told why.
    const client = new Client({ name: 'cap', version: '1.0.0' });
    await expect(client.connect(new StreamableHTTPClientTransport(new URL(service.url)))).rejects.toThrow(/Too many sessions/);
    expect(service.sessionCount).toBe(cap);
  });

  it('holds the cap when every initialize of a burst is still sending its body', async () => {
    const cap = 3;
    const { service } = await serve({ maxSessions: cap });
    for (let round = 0; round < 5; round += 1) {
      // All requests send their headers first; the bodies follow once the server has begun on every one.
      const pending = Array.from({ length: cap * 4 }, () => {
        const req = request(service.url, { method: 'POST', headers: { ...MCP_HEADERS, 'content-length': Buffer.byteLength(INITIALIZE) } });
        req.flushHeaders();
        const status = new Promise<number>((resolve, reject) => {
          req.on('response', (res) => {
            res.resume();
            resolve(res.statusCode!);
          });
          req.on('error', reject);
        });
        return { req, status };
      });
      await new Promise((resolve) => setTimeout(resolve, 100));
      for (const { req } of pending) req.end(INITIALIZE);
      const statuses = await Promise.all(pending.map((p) => p.status));
      expect(statuses.filter((s) => s === 200)).toHaveLength(round === 0 ? cap : 0);
      expect(service.sessionCount).toBe(cap);
    }
  });

  it('frees a place when a session is deleted', async () => {
    const { service } = await serve({ maxSessions: 1 });
    const transport = new StreamableHTTPClientTransport(new URL(service.url));
    const client = new Client({ name: 'cap', version: '1.0.0' });
    await client.connect(transport);
    expect((await post(service.url, INITIALIZE)).status).toBe(503);
    await transport.terminateSession();
    await client.close();
    expect(service.sessionCount).toBe(0);
    expect((await post(service.url, INITIALIZE)).status).toBe(200);
  });
});
