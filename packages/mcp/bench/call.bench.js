// tools/call cost of a registry served by @toolshed/mcp, against the SDK's own
// high-level McpServer serving the same echo tool (zod schema, hand-written
// result): the floor anyone serving a tool with the SDK pays. Both use the
// SDK's real Client over its in-memory transport, interleaved in this one
// process, so the ratios hold whatever else the machine is doing. Over HTTP,
// serveHttp on 127.0.0.1 against the SDK's McpServer on its own transport.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ToolRegistry } from '@toolshed/core';
import { echo } from '@toolshed/tool-echo';
import { z } from 'zod';
import { createMcpServer, serveHttp } from '../dist/index.js';

async function inMemoryClient(server) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(clientSide);
  await client.listTools(); // so the client checks structuredContent, as real clients do
  return client;
}

const registry = new ToolRegistry().register(echo).seal();
const ours = await inMemoryClient(createMcpServer(registry));

const sdk = new McpServer({ name: 'floor', version: '1.0.0' });
sdk.registerTool(
  'echo',
  { description: echo.description, inputSchema: { text: z.string() }, outputSchema: { text: z.string() } },
  async ({ text }) => ({ content: [{ type: 'text', text: JSON.stringify({ text }) }], structuredContent: { text } }),
);
const floor = await inMemoryClient(sdk);

const params = { name: 'echo', arguments: { text: 'hello' } };
const cases = {
  'sdk McpServer': () => floor.callTool(params),
  'toolshed': () => ours.callTool(params),
  'toolshed+progress': () => ours.callTool(params, undefined, { onprogress: () => {} }),
  'registry.dispatch': () => registry.dispatch({ name: 'echo', input: params.arguments }),
};

async function measure(fn, iterations) {
  const start = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) await fn();
  return Number(process.hrtime.bigint() - start) / iterations;
}

// Many short rounds, cases interleaved, so a busy neighbour slows every case alike.
const iterations = 300;
const rounds = 40;
const samples = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
for (const fn of Object.values(cases)) await measure(fn, iterations); // warm up
for (let r = 0; r < rounds; r++) {
  for (const [name, fn] of Object.entries(cases)) samples[name].push(await measure(fn, iterations));
}
// Connected only now: the in-memory rounds never yield to the event loop, and a
// keep-alive socket left idle through them would be closed under the next request.
const http = await serveHttp(registry);
const overHttp = new Client({ name: 'bench', version: '1.0.0' });
await overHttp.connect(new StreamableHTTPClientTransport(new URL(http.url)));
await overHttp.listTools();
// The floor over HTTP: the SDK's McpServer on its own StreamableHTTPServerTransport,
// one session, on node:http, as the SDK's examples serve it.
const sdkHttpServer = new McpServer({ name: 'floor', version: '1.0.0' });
sdkHttpServer.registerTool(
  'echo',
  { description: echo.description, inputSchema: { text: z.string() }, outputSchema: { text: z.string() } },
  async ({ text }) => ({ content: [{ type: 'text', text: JSON.stringify({ text }) }], structuredContent: { text } }),
);
const sdkTransport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID() });
await sdkHttpServer.connect(sdkTransport);
const sdkHttp = createServer((req, res) => void sdkTransport.handleRequest(req, res));
await new Promise((resolve) => sdkHttp.listen(0, '127.0.0.1', resolve));
const floorHttp = new Client({ name: 'bench', version: '1.0.0' });
await floorHttp.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${sdkHttp.address().port}/mcp`)));
await floorHttp.listTools();

const httpSamples = [];
const floorHttpSamples = [];
await measure(() => overHttp.callTool(params), 100);
await measure(() => floorHttp.callTool(params), 100);
for (let r = 0; r < 10; r++) {
  httpSamples.push(await measure(() => overHttp.callTool(params), 100));
  floorHttpSamples.push(await measure(() => floorHttp.callTool(params), 100));
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ns = Object.fromEntries(Object.entries(samples).map(([k, xs]) => [k, median(xs)]));
const base = ns['sdk McpServer'];

console.log(`mcp tools/call benchmark (${rounds} rounds x ${iterations} calls, median µs per call, in-memory transport)`);
for (const [name, value] of Object.entries(ns)) {
  console.log(`  ${name.padEnd(18)} ${(value / 1000).toFixed(1).padStart(7)} µs   ${(value / base).toFixed(2)}x sdk McpServer`);
}
const httpNs = median(httpSamples);
const floorHttpNs = median(floorHttpSamples);
console.log(`  ${'sdk over http'.padEnd(18)} ${(floorHttpNs / 1000).toFixed(1).padStart(7)} µs   1.00x sdk over http`);
console.log(`  ${'toolshed over http'.padEnd(18)} ${(httpNs / 1000).toFixed(1).padStart(7)} µs   ${(httpNs / floorHttpNs).toFixed(2)}x sdk over http`);
// The registry validates input and output, merges the client's cancellation
// signal and reports outcomes: allow it half again the bare SDK's cost.
const ratio = ns.toolshed / base;
console.log(`  target: toolshed <= 1.5x sdk McpServer: ${ratio <= 1.5 ? 'met' : 'NOT met'} (${ratio.toFixed(2)}x)`);

await Promise.all([ours.close(), floor.close(), overHttp.close(), floorHttp.close()]);
await http.close();
await sdkHttpServer.close();
sdkHttp.closeAllConnections();
sdkHttp.close();
