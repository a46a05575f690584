import type { ToolRegistry } from '@toolshed/core';
import { toAiSdkTools } from '@toolshed/providers/ai-sdk';
import { jsonSchema, tool, type Tool, type ToolSet } from 'ai';
import { TOOL_SEARCH_NAME } from '../search/search-tool.js';
import type { ToolSearch } from '../search/session.js';

/** The `tool_search` tool for the AI SDK, running the search of `search`. */
export function toAiSdkSearchTool(search: ToolSearch): Tool {
  const definition = search.searchTool;
  return tool({
    description: definition.description,
    inputSchema: jsonSchema(definition.inputSchema as Parameters<typeof jsonSchema>[0]),
    execute: async (input, { toolCallId, abortSignal }) => {
      const outcome = await search.dispatch(
        { name: TOOL_SEARCH_NAME, input, callId: toolCallId },
        abortSignal ? { signal: abortSignal } : {},
      );
      if (outcome.ok) return outcome.output;
      throw new Error(outcome.error.message);
    },
  });
}

/**
 * What to spread into `generateText` / `streamText`: every tool (as
 * `toAiSdkTools` makes them) plus `tool_search`, `activeTools` for the first
 * step, and a `prepareStep` that sends each later step the tools found so far.
 */
export function toAiSdkToolSearch(
  registry: ToolRegistry,
  search: ToolSearch,
  options?: Parameters<typeof toAiSdkTools>[1],
): { tools: ToolSet; activeTools: string[]; prepareStep: () => { activeTools: string[] } } {
  const tools: ToolSet = toAiSdkTools(registry, options);
  if (search.decision.deferred) tools[TOOL_SEARCH_NAME] = toAiSdkSearchTool(search);
  return {
    tools,
    activeTools: search.activeToolNames(),
    prepareStep: () => ({ activeTools: search.activeToolNames() }),
  };
}
