// tools/call cost of a registry served by @toolshed/mcp, against the SDK's own
// high-level McpServer serving the same echo tool (zod schema, hand-written
// result): the floor anyone serving a tool with the SDK pays. Both use the
// SDK's real Client, over its in-memory transport, then over Streamable HTTP
// on 127.0.0.1 (serveHttp against the SDK's McpServer on its own transport).
// Each case is its own function in the same tinybench loop (vitest bench);
// scripts/bench-report.mjs prints ratios and the targets of bench/targets.json.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ToolRegistry } from '@toolshed/core';
import { echo } from '../test-fixtures/tools.mjs';
import { bench, describe } from 'vitest';
import { z } from 'zod';
import { createMcpServer, serveHttp } from '../dist/index.js';

async function connected(transport: Parameters<Client['connect']>[0]): Promise<Client> {
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(transport);
  await client.listTools(); // so the client checks structuredContent, as real clients do
  return client;
}

async function inMemoryClient(server: { connect(transport: InMemoryTransport): Promise<void> }): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  return connected(clientSide);
}

function sdkServer(): McpServer {
  const server = new McpServer({ name: 'floor', version: '1.0.0' });
  server.registerTool(
    'echo',
    { description: echo.description, inputSchema: { text: z.string() }, outputSchema: { text: z.string() } },
    async ({ text }) => ({ content: [{ type: 'text', text: JSON.stringify({ text }) }], structuredContent: { text } }),
  );
  return server;
}

const registry = new ToolRegistry().register(echo).seal();
const ours = await inMemoryClient(createMcpServer(registry));
const floor = await inMemoryClient(sdkServer());
const params = { name: 'echo', arguments: { text: 'hello' } };

describe('tools/call, in-memory transport', () => {
  bench('floor: sdk McpServer', async () => {
    await floor.callTool(params);
  });
  bench('toolshed', async () => {
    await ours.callTool(params);
  });
  bench('toolshed with progress', async () => {
    await ours.callTool(params, undefined, { onprogress: () => {} });
  });
  bench('registry.dispatch alone', async () => {
    await registry.dispatch({ name: 'echo', input: params.arguments });
  });
});

// The HTTP side is connected when its first case starts: a keep-alive socket
// left idle through the in-memory cases could be closed under the next request.
let http: { overHttp: Client; floorHttp: Client; close(): Promise<void> } | undefined;
async function startHttp() {
  const served = await serveHttp(registry);
  const overHttp = await connected(new StreamableHTTPClientTransport(new URL(served.url)));
  const sdkHttpServer = sdkServer();
  const sdkTransport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID() });
  await sdkHttpServer.connect(sdkTransport);
  const sdkHttp = createServer((req, res) => void sdkTransport.handleRequest(req, res));
  await new Promise<void>((resolve) => sdkHttp.listen(0, '127.0.0.1', resolve));
  const floorHttp = await connected(
    new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${(sdkHttp.address() as AddressInfo).port}/mcp`)),
  );
  http = {
    overHttp,
    floorHttp,
    async close() {
      await Promise.all([ours.close(), floor.close(), overHttp.close(), floorHttp.close()]);
      await served.close();
      await sdkHttpServer.close();
      sdkHttp.closeAllConnections();
      sdkHttp.close();
    },
  };
}

describe('tools/call, Streamable HTTP on 127.0.0.1', () => {
  bench(
    'floor: sdk McpServer over http',
    async () => {
      await http!.floorHttp.callTool(params);
    },
    { setup: async () => (http ? undefined : startHttp()) },
  );
  bench(
    'toolshed over http',
    async () => {
      await http!.overHttp.callTool(params);
    },
    { teardown: async (_task, mode) => (mode === 'run' ? http?.close() : undefined) },
  );
});
