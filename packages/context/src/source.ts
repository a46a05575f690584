import type { ToolDefinition, ToolRegistry } from '@toolshed/core';

/** A registry, or plain definitions from any source (a manifest, an MCP server's `tools/list`, a JSON file). */
export type ToolSource = Pick<ToolRegistry, 'list'> | readonly ToolDefinition[];

export function definitionsOf(source: ToolSource): ToolDefinition[] {
  if (Array.isArray(source)) return source as ToolDefinition[];
  if (typeof source === 'object' && source !== null && typeof (source as { list?: unknown }).list === 'function') {
    return (source as Pick<ToolRegistry, 'list'>).list();
  }
  throw new TypeError('Expected a ToolRegistry or an array of tool definitions ({name, description, inputSchema}).');
}
