import { isToolRegistry, type ToolDefinition, type ToolRegistry } from '@toolshed/core';

/** Where tool definitions come from: a registry, or the list it gave (e.g. from a plugin manifest). */
export type ToolSource = ToolRegistry | readonly ToolDefinition[];

export function definitionsOf(source: ToolSource): ToolDefinition[] {
  // By brand, not instanceof: a registry from another copy of core is a registry too.
  if (isToolRegistry(source)) return source.list();
  if (!Array.isArray(source)) {
    throw new TypeError('Expected a ToolRegistry or an array of tool definitions (registry.list()).');
  }
  return source as ToolDefinition[];
}
