import { anthropic, type AnthropicTool, type ToolSource } from '@toolshed/providers';
import type { ToolSearch } from './session.js';

/** Anthropic's own server-side tool search: `regex` (the model writes patterns) or `bm25` (natural language). */
export type AnthropicSearchVariant = 'bm25' | 'regex';

export type AnthropicToolSearchTool =
  | { type: 'tool_search_tool_bm25_20251119'; name: 'tool_search_tool_bm25' }
  | { type: 'tool_search_tool_regex_20251119'; name: 'tool_search_tool_regex' };

export type AnthropicDeferrableTool = AnthropicTool & { defer_loading?: true };

/**
 * Every tool for the Messages API with Anthropic's native tool search: its
 * search tool first, then each tool the search holds back marked
 * `defer_loading: true` (Claude sees it only once its search finds it), and
 * the always-loaded tools as they are (the result fits the SDK's `ToolUnion[]`).
 * When nothing is deferred this is `anthropic.tools(source)`. The source is
 * the registry, or some of its definitions (`toolshed schema <tools...> --deferred`).
 */
export function toAnthropicToolsWithSearch(
  source: ToolSource,
  search: ToolSearch,
  options: { variant?: AnthropicSearchVariant } = {},
): (AnthropicToolSearchTool | AnthropicDeferrableTool)[] {
  const variant = options.variant ?? 'bm25';
  if (variant !== 'bm25' && variant !== 'regex') throw new TypeError(`variant must be "bm25" or "regex", got ${JSON.stringify(variant)}.`);
  const tools = anthropic.tools(source);
  if (!search.decision.deferred) return tools;
  const searchTool: AnthropicToolSearchTool =
    variant === 'bm25'
      ? { type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' }
      : { type: 'tool_search_tool_regex_20251119', name: 'tool_search_tool_regex' };
  return [searchTool, ...tools.map((tool) => (search.isDeferred(tool.name) ? { ...tool, defer_loading: true as const } : tool))];
}
