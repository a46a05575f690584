import type { ToolRegistry } from '@toolshed/core';
import { toAiSdkTools } from '@toolshed/providers/ai-sdk';
import { jsonSchema, type LanguageModel, type LanguageModelMiddleware, tool, type Tool, type ToolSet, wrapLanguageModel } from 'ai';
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
 * A middleware that sends the model, at each call, only the registry's tools
 * the search has made visible (tools that are not the registry's pass as they are).
 */
function visibleToolsOnly(search: ToolSearch): LanguageModelMiddleware {
  return {
    specificationVersion: 'v4',
    transformParams: async ({ params }) => {
      if (!params.tools) return params;
      const visible = new Set(search.activeToolNames());
      return { ...params, tools: params.tools.filter((tool) => !search.isDeferred(tool.name) || visible.has(tool.name)) };
    },
  };
}

/**
 * What to spread into `generateText` / `streamText`: every tool (as
 * `toAiSdkTools` makes them) plus `tool_search`, and a `prepareStep` that
 * wraps each step's model so that the request lists only `tool_search`, the
 * always-loaded tools and those found so far. Every tool stays active: the AI
 * SDK checks each call's name against the step's active tools, and a deferred
 * tool called in the same reply as the search that finds it must run, as it
 * does in every other provider path.
 */
export function toAiSdkToolSearch(
  registry: ToolRegistry,
  search: ToolSearch,
  options?: Parameters<typeof toAiSdkTools>[1],
): { tools: ToolSet; prepareStep: (step: { model: LanguageModel }) => { model?: LanguageModel } } {
  if (!search.decision.deferred) return { tools: toAiSdkTools(registry, options), prepareStep: () => ({}) };
  const tools: ToolSet = { [TOOL_SEARCH_NAME]: toAiSdkSearchTool(search), ...toAiSdkTools(registry, options) };
  const middleware = visibleToolsOnly(search);
  return {
    tools,
    prepareStep: ({ model }) => {
      // generateText and streamText hand prepareStep the model they resolved; an id is never seen here.
      if (typeof model === 'string') {
        throw new TypeError(`toAiSdkToolSearch's prepareStep needs a model instance, got the id "${model}"; pass the provider's model.`);
      }
      return { model: wrapLanguageModel({ model, middleware }) };
    },
  };
}
