// A server that sends tools/list_changed without pause: the mount lists again a bounded number of
// times, ends with the server's last list, and holds no more memory than before the storm.
import { createServer, type Server as HttpServer } from 'node:http';
import v8 from 'node:v8';
import vm from 'node:vm';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ToolDefinition } from '@toolshed/core';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { RELIST_INTERVAL_MS } from './mount.js';
import { listenLocal, registryOf, scratch, stopServer, until, type Scratch } from './mount.fixture.js';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

const TOOLS = 200;
/** Tools the server added so far, one per storm; the list is its 200 tools and these. */
const added: string[] = [];
let listings = 0;

function tool(name: string) {
  return {
    name,
    description: `Tool ${name}.`,
    // Enough schema for ajv to compile real code: formats, patterns, nesting.
    inputSchema: {
      type: 'object',
      properties: {
        id: { type: 'string', pattern: '^[a-z][a-z0-9-]{2,40}$' },
        when: { type: 'string', format: 'date-time' },
        mail: { type: 'string', format: 'email' },
        count: { type: 'integer', minimum: 0, maximum: 1000 },
        tags: { type: 'array', items: { type: 'string', maxLength: 30 }, maxItems: 20 },
        nested: { type: 'object', properties: { a: { type: 'number' }, b: { enum: ['x', 'y', 'z'] } }, required: ['a'] },
      },
      required: ['id'],
    },
  };
}

const STORM = {
  name: 'storm',
  description: 'Sends `count` tools/list_changed, adding tool `add` before the last.',
  inputSchema: { type: 'object', properties: { count: { type: 'integer' }, add: { type: 'string' } }, required: ['count', 'add'] },
};

let http: HttpServer;
let url: string;
beforeAll(async () => {
  http = createServer(async (request, response) => {
    const server = new Server({ name: 'stormy', version: '1.0.0' }, { capabilities: { tools: { listChanged: true } } });
    server.setRequestHandler(ListToolsRequestSchema, async () => {
      listings += 1;
      return { tools: [...Array.from({ length: TOOLS }, (_, i) => tool(`tool_${i}`)), ...added.map(tool), STORM] };
    });
    server.setRequestHandler(CallToolRequestSchema, async (call, extra) => {
      const { count, add } = call.params.arguments as { count: number; add: string };
      for (let i = 1; i <= count; i++) {
        // The change comes just before the last notification: the list the mount ends with must have it.
        if (i === count) added.push(add);
        await extra.sendNotification({ method: 'notifications/tools/list_changed' });
      }
      return { content: [{ type: 'text', text: `sent ${count}` }] };
    });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    response.on('close', () => void server.close());
    await server.connect(transport);
    await transport.handleRequest(request, response);
  });
  // Node closes an idle kept-alive socket after 5 s; on a loaded machine the client can send the
  // next request on it just then and read ECONNRESET. This test is about notifications, not that race.
  http.keepAliveTimeout = 120_000;
  url = await listenLocal(http);
});
afterAll(async () => {
  await stopServer(http);
});

let s: Scratch;
beforeEach(() => {
  s = scratch();
  added.length = 0;
  listings = 0;
});
afterEach(async () => {
  await s.cleanup();
});

function heap(): number {
  for (let i = 0; i < 3; i++) gc();
  return process.memoryUsage().heapUsed;
}

it('10,000 tools/list_changed in four storms: a bounded number of listings, the last list kept, memory flat', async () => {
  const mount = s.mount({ name: 'stormy', url });
  const registry = registryOf([[mount, await mount.refresh()]], { approve: 'allow-all' });
  let latest: ToolDefinition[] = [];
  let told = 0;
  mount.onToolsChanged((definitions) => {
    latest = definitions;
    told += 1;
  });
  const rewrites = () => s.logs.filter((line) => line.endsWith('its tools changed; the manifest cache is rewritten.')).length;
  const storm = async (count: number, add: string) => {
    const outcome = await registry.dispatch({ name: 'storm', input: { count, add } });
    expect(outcome.ok ? outcome : outcome.error).toMatchObject({ ok: true, output: `sent ${count}` });
    expect(await until(() => latest.some((definition) => definition.name === add))).toBe(true);
  };
  // First storms: the tools' checks compiled, the modules loaded, the code optimized (what V8
  // compiles for hot code was the heap's growth over the next storms, with nothing else kept).
  expect(await registry.dispatch({ name: 'tool_0', input: { id: 'Not an id' } })).toMatchObject({
    ok: false,
    error: { code: 'invalid_input' },
  });
  await storm(1000, 'warm_added');
  await storm(1000, 'hot_added');
  const before = heap();
  const warmListings = listings;

  for (const add of ['first_added', 'second_added', 'third_added', 'fourth_added']) await storm(2500, add);
  // A notification may still be on its way when the new tool is seen: wait until no listing comes.
  let settled: number;
  let rounds = 0;
  do {
    settled = listings;
    await new Promise((resolve) => setTimeout(resolve, RELIST_INTERVAL_MS * 2));
  } while (listings !== settled && ++rounds < 10);
  expect(listings).toBe(settled);

  const after = heap();
  // Each storm makes one listing at once and at most two after it (one for the notifications
  // that came during the first, one for a notification on its way when the new tool was seen).
  const relisted = listings - warmListings;
  expect(relisted).toBeGreaterThanOrEqual(4);
  expect(relisted).toBeLessThanOrEqual(12);
  // refresh() listed once; every re-listing rewrote the cache once and told the listeners once.
  expect(rewrites()).toBe(listings - 1);
  expect(told).toBe(listings - 1);
  const names = latest.map((definition) => definition.name);
  expect(names.slice(TOOLS)).toEqual(['warm_added', 'hot_added', 'first_added', 'second_added', 'third_added', 'fourth_added', 'storm']);
  // What the mount listed is in its cache: a new start serves the last list without asking the server.
  const again = s.mount({ name: 'stormy', url });
  expect(again.cached()?.map((definition) => definition.name)).toEqual(names);
  expect(listings).toBe(settled);
  // What is left is code V8 optimized meanwhile; one process-wide ajv kept 1.7 MiB more a listing of these 200 tools.
  expect(after - before).toBeLessThan(5 * 2 ** 20);
  // Ten thousand notifications each relisted and checked: minutes on a loaded two-core machine, not seconds.
}, 180_000);
