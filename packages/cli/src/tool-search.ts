import type { Exposure, ToolRegistry } from '@toolshed/core';
import type { ToolSearch } from '@toolshed/context';
import { loadContext } from './load-context.js';
import { UsageError } from './usage-error.js';

export interface ServedSearch {
  /** One search per MCP session. */
  make(): Promise<ToolSearch>;
  /** How many tools are listed before any search (tool_search included). */
  upFront: number;
}

/**
 * Tool search for `serve`: on with --tool-search, or when the config's exposure
 * is `search` or `auto` (and auto finds the definitions over its share).
 * Checked once here, so a bad `alwaysLoaded` stops the command at startup.
 */
export async function servedSearch(registry: ToolRegistry, flag: boolean, stateless: boolean): Promise<ServedSearch | undefined> {
  const configured = registry.exposure;
  if (!flag && configured.mode === 'always') return undefined;
  if (stateless) {
    const from = flag ? '--tool-search' : `exposure "${configured.mode}" in toolshed.config.json`;
    throw new UsageError(
      `${from} needs sessions: a stateless server forgets between requests what a search found. Drop --stateless, or use exposure "always".`,
    );
  }
  const exposure: Exposure = configured.mode === 'always' ? { mode: 'search' } : configured;
  // Loaded here: only serving with search needs the index (and auto the tokenizer).
  const { createToolSearch } = await loadContext('tool search (serve --tool-search, or exposure in toolshed.config.json)');
  let first: ToolSearch;
  try {
    first = await createToolSearch(registry, { exposure });
  } catch (error) {
    throw new UsageError(`tool search: ${(error as Error).message}`);
  }
  if (!first.decision.deferred) return undefined;
  let spare: ToolSearch | undefined = first;
  return {
    upFront: first.tools().length,
    make: async () => {
      const made = spare ?? (await createToolSearch(registry, { exposure }));
      spare = undefined;
      return made;
    },
  };
}
