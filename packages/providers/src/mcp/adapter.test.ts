import { describe, expect, it } from 'vitest';
import { makeRegistry } from '../tools.fixture.js';
import { mcp } from './adapter.js';

describe('mcp.tools', () => {
  it('maps definitions to the tools/list shape with MCP annotation hints', () => {
    const { registry } = makeRegistry();
    const [weather, search, remove, ping] = mcp.tools(registry);
    // The title once, where every MCP version reads it.
    expect(weather).toEqual({
      name: 'get_weather',
      description: 'Current weather for a city.',
      inputSchema: registry.get('get_weather')!.definition.inputSchema,
      annotations: { title: 'Weather', readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    });
    // Every hint is stated, false where Toolshed has no annotation: MCP would read a missing
    // destructiveHint or openWorldHint as true.
    expect(search).toEqual({
      name: 'search',
      description: 'Search documents.',
      inputSchema: registry.get('search')!.definition.inputSchema,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    });
    expect(remove!.annotations).toEqual({ readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false });
    // No output schema is listed, object or not: the registry checks outputs before they are sent.
    expect(registry.get('search')!.definition.outputSchema).toMatchObject({ type: 'object' });
    expect(ping).toEqual({
      name: 'ping',
      description: 'Answer pong.',
      inputSchema: { type: 'object', properties: {}, required: [] },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    });
  });

  it('gives copies: changing the result does not change the registry', () => {
    const { registry } = makeRegistry();
    const [weather] = mcp.tools(registry);
    (weather!.inputSchema.properties as Record<string, unknown>).location = 'changed';
    expect(mcp.tools(registry)[0]!.inputSchema.properties).toMatchObject({ location: { type: 'string' } });
  });
});
