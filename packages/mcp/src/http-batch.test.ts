import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestRegistry } from '../test-fixtures/tools.mjs';
import { serveHttp, type HttpService } from './index.js';

const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const BATCH_ERROR =
  'Invalid Request: batches (JSON arrays) are not supported by MCP since 2025-06-18, so none of the 2 messages in this one was run. Send one JSON-RPC message per POST.';

/** Two tools/call requests of delete_record, whose runs the fixture counts in `seen.deleted`. */
const BATCH = JSON.stringify(
  [1, 2].map((id) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'delete_record', arguments: { id: `tmp-${id}` } } })),
);

let service: HttpService | undefined;
let client: Client | undefined;
afterEach(async () => {
  await client?.close();
  await service?.close();
  client = service = undefined;
});

async function expectRefused(response: Response, message = BATCH_ERROR): Promise<void> {
  expect(response.status).toBe(400);
  expect(await response.json()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message } });
}

describe('serveHttp refuses JSON-RPC batches', () => {
  it('in a session: 400 and -32600, neither call runs, and the session goes on', async () => {
    const fixture = createTestRegistry();
    service = await serveHttp(fixture.registry);
    client = new Client({ name: 'batch-test', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(service.url));
    await client.connect(transport);
    expect(transport.sessionId).toBeDefined();

    const response = await fetch(service.url, {
      method: 'POST',
      headers: { ...MCP_HEADERS, 'mcp-session-id': transport.sessionId!, 'mcp-protocol-version': LATEST_PROTOCOL_VERSION },
      body: BATCH,
    });
    await expectRefused(response);
    expect(fixture.seen.deleted).toBe(0);

    // The same session still serves a single call, and the count is live.
    expect(await client.callTool({ name: 'delete_record', arguments: { id: 'tmp-3' } })).toMatchObject({ content: [{ type: 'text' }] });
    expect(fixture.seen.deleted).toBe(1);
  });

  it('stateless: 400 and -32600, and neither call runs', async () => {
    const fixture = createTestRegistry();
    service = await serveHttp(fixture.registry, { stateless: true });
    await expectRefused(await fetch(service.url, { method: 'POST', headers: MCP_HEADERS, body: BATCH }));
    expect(fixture.seen.deleted).toBe(0);
  });

  it('an empty batch is refused the same way', async () => {
    service = await serveHttp(createTestRegistry().registry, { stateless: true });
    await expectRefused(
      await fetch(service.url, { method: 'POST', headers: MCP_HEADERS, body: '[]' }),
      BATCH_ERROR.replace('2 messages', '0 messages'),
    );
  });

  it('an initialize in a batch opens no session', async () => {
    const fixture = createTestRegistry();
    service = await serveHttp(fixture.registry);
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    };
    const response = await fetch(service.url, {
      method: 'POST',
      headers: MCP_HEADERS,
      body: JSON.stringify([initialize, { jsonrpc: '2.0', method: 'notifications/initialized' }]),
    });
    await expectRefused(response);
    expect(response.headers.get('mcp-session-id')).toBeNull();
    expect(service.sessionCount).toBe(0);
  });
});
