import { defineTool, ToolRegistry } from '@toolshed/core';
import { openaiChat } from '@toolshed/providers';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import * as v from 'valibot';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestRegistry } from '../test-fixtures/tools.mjs';
import { createMcpServer } from './index.js';

let client: Client | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
});

/** The real SDK client talking to our server over the SDK's in-memory transport. */
async function connect(registry: ToolRegistry): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer(registry).connect(serverSide);
  client = new Client({ name: 'approval-test', version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}

describe('a served registry keeps its approval setting', () => {
  it("denies a destructive, open-world call when the registry keeps core's default, and the handler never runs", async () => {
    const { registry, seen } = createTestRegistry({ approve: undefined });
    const mcp = await connect(registry);
    const result = await mcp.callTool({ name: 'delete_record', arguments: { id: 'tmp-1' } });
    expect(result).toEqual({
      isError: true,
      content: [
        {
          type: 'text',
          text:
            'delete_record needs approval (it is destructive and open-world) and this harness has no approval hook, so the call was not made. ' +
            'Do not retry it; tell the user what you wanted delete_record to do, or take another approach.',
        },
      ],
    });
    expect(seen.deleted).toBe(0);
    // Tools that need no approval still run, and the listing carries the hints a client asks by.
    expect(await mcp.callTool({ name: 'echo', arguments: { text: 'hi' } })).toMatchObject({ structuredContent: { text: 'hi' } });
    const listed = (await mcp.listTools()).tools.find((tool) => tool.name === 'delete_record');
    expect(listed?.annotations).toEqual({ readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true });
  });
});

describe('tools/call results use the same cap and note as every other path', () => {
  const big = 'x'.repeat(100_000);
  const registry = new ToolRegistry()
    .register(defineTool({ name: 'dump', description: 'A long text.', input: v.object({}), run: () => big }))
    .register(
      defineTool({
        name: 'rows',
        description: 'A long object, with an output schema.',
        input: v.object({}),
        output: v.object({ rows: v.string() }),
        run: () => ({ rows: big }),
      }),
    )
    .register(defineTool({ name: 'quiet', description: 'Return nothing.', input: v.object({}), run: () => undefined }));

  it('cuts a 100,000-character result to the text the result builders send', async () => {
    const mcp = await connect(registry);
    const [dumpMessage, rowsMessage] = openaiChat.results(
      await Promise.all([registry.dispatch({ name: 'dump', input: {} }), registry.dispatch({ name: 'rows', input: {} })]),
    );

    const dump = await mcp.callTool({ name: 'dump', arguments: {} });
    expect(dump).toEqual({ content: [{ type: 'text', text: dumpMessage!.content }] });
    expect(dumpMessage!.content.length).toBeLessThanOrEqual(30_000);
    expect(dumpMessage!.content).toMatch(/\n\[Truncated: showing the first \d+ of 100000 characters\. Ask for less/);

    // A cut object cannot be sent as structuredContent; the real client takes it as a
    // text success, since tools/list lists no output schema to check it against.
    const rows = await mcp.callTool({ name: 'rows', arguments: {} });
    expect(rows).toEqual({ content: [{ type: 'text', text: rowsMessage!.content }] });
    expect(rowsMessage!.content).toMatch(/^\{"rows":"x+\n\[Truncated: showing the first \d+ of 100011 characters/);
  });

  it('answers a call that returned nothing with a short text instead of empty content', async () => {
    const mcp = await connect(registry);
    expect(await mcp.callTool({ name: 'quiet', arguments: {} })).toEqual({
      content: [{ type: 'text', text: 'quiet finished and returned no output.' }],
    });
  });
});
