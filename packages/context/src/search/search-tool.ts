import { defineTool } from '@toolshed/core';
import * as v from 'valibot';

export const TOOL_SEARCH_NAME = 'tool_search';

export interface FoundTool {
  name: string;
  description: string;
}

export interface SearchToolOutput {
  tools: FoundTool[];
  note?: string;
}

const MAX_LIMIT = 20;

/**
 * The provider-neutral `tool_search` tool. `find` runs the search and makes
 * the hits callable; the tool only shapes the answer for the model.
 */
export function searchTool(find: (query: string, limit: number | undefined) => FoundTool[]) {
  return defineTool({
    name: TOOL_SEARCH_NAME,
    description:
      'Find tools for a task. Only some tools are listed; more exist. Say in a few words what you need (e.g. "read a file", "post to slack"); the best matches are returned and can be called from your next step on. If none of them fits, search again in other words before deciding that no tool can do it.',
    input: v.object({
      query: v.pipe(
        v.string(),
        v.trim(),
        v.minLength(1, 'expected some words saying what the tool should do'),
        v.maxLength(500),
        v.description('What you want to do.'),
      ),
      limit: v.optional(
        v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(MAX_LIMIT), v.description('How many tools at most (default 5).')),
      ),
    }),
    annotations: { title: 'Tool search', readOnly: true },
    run: ({ query, limit }): SearchToolOutput => {
      const tools = find(query, limit);
      if (tools.length > 0) return { tools };
      return { tools, note: `No tool matched "${query}". Try other words for the task, or fewer of them.` };
    },
  });
}
