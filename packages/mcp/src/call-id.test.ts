import { defineTool, ToolRegistry } from '@toolshed/core';
import { MCP_CALL_ID_META as CALL_ID_META } from '@toolshed/providers';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import * as v from 'valibot';
import { afterEach, expect, it } from 'vitest';
import { createMcpServer } from './index.js';

const seen: string[] = [];
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  seen.length = 0;
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function connect(): Promise<Client> {
  const registry = new ToolRegistry()
    .register(
      defineTool({
        name: 'which',
        description: 'Says its call id.',
        input: v.object({}),
        run: (_input, ctx) => (seen.push(ctx.callId), ctx.callId),
      }),
    )
    .seal();
  const server = createMcpServer(registry);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'test', version: '1' });
  await client.connect(clientSide);
  closers.push(async () => {
    await client.close();
    await server.close();
  });
  return client;
}

it(`dispatches with the call id a client names in _meta["${CALL_ID_META}"], the same on a retry`, async () => {
  const client = await connect();
  await client.callTool({ name: 'which', arguments: {}, _meta: { [CALL_ID_META]: 'call-42' } });
  await client.callTool({ name: 'which', arguments: {}, _meta: { [CALL_ID_META]: 'call-42' } });
  await client.callTool({ name: 'which', arguments: {} });
  expect(seen.slice(0, 2)).toEqual(['call-42', 'call-42']);
  expect(seen[2]).toMatch(/^call_[0-9a-f-]{36}$/);
});

it.each([
  ['a number', 42, 'got number'],
  ['an empty string', '', 'got 0 characters'],
  ['a string too long', 'x'.repeat(201), 'got 201 characters'],
  ['a line break', 'call\n42', 'without control characters'],
])('refuses a call id that is %s with -32602, naming the field, and runs nothing', async (_label, value, said) => {
  const client = await connect();
  const error = (await client.callTool({ name: 'which', arguments: {}, _meta: { [CALL_ID_META]: value } }).catch((e: unknown) => e)) as {
    code: number;
    message: string;
  };
  expect(error.code).toBe(-32602);
  expect(error.message).toContain(`_meta["${CALL_ID_META}"] must be a string of 1 to 200 characters`);
  expect(error.message).toContain(said);
  expect(seen).toEqual([]);
});
