import type { Exposure, ToolDefinition } from '@toolshed/core';
import { TOOL_FORMATS, type ToolFormat } from '@toolshed/providers/formats';
import { loadContext } from './load-context.js';
import { UsageError } from './usage-error.js';

/** What `--format` takes: the providers' list of formats, one per adapter (the names only, so nothing loads). */
export const SCHEMA_FORMATS = TOOL_FORMATS;
export type SchemaFormat = ToolFormat;

/**
 * The tools as a model API's `tools` field takes them, by that format's
 * adapter. The providers package loads only when a format is asked for. A
 * tool that cannot be made strict throws, naming the tool, the field and the reason.
 */
export async function formatTools(format: SchemaFormat, tools: ToolDefinition[]): Promise<unknown> {
  const { adapters } = await import('@toolshed/providers');
  return adapters[format].tools(tools);
}

/**
 * The tools for Anthropic's native tool search, built by `@toolshed/context`'s
 * `toAnthropicToolsWithSearch`, as a harness gets them from the library: its
 * search tool first, then every tool `shown` with `defer_loading: true`, except
 * the ones the config's `exposure.alwaysLoaded` keeps loaded. The search runs
 * over `all` (so `alwaysLoaded` is checked against every tool, whichever are shown).
 */
export async function anthropicDeferredTools(all: ToolDefinition[], shown: ToolDefinition[], exposure?: Exposure): Promise<unknown> {
  const { createToolSearch, toAnthropicToolsWithSearch } = await loadContext('schema --deferred');
  const { ToolRegistry } = await import('@toolshed/core');
  // The definitions only: a registry that lists and searches them and never runs one.
  const registry = new ToolRegistry();
  for (const definition of all) registry.registerDeferred({ definition, load: () => Promise.reject(new Error('listed only, never run')) });
  const alwaysLoaded = exposure && exposure.mode !== 'always' ? exposure.alwaysLoaded : undefined;
  let search;
  try {
    search = await createToolSearch(registry, { exposure: { mode: 'search', ...(alwaysLoaded ? { alwaysLoaded } : {}) } });
  } catch (error) {
    throw new UsageError(`exposure in toolshed.config.json: ${(error as Error).message}`);
  }
  return toAnthropicToolsWithSearch(shown, search);
}
