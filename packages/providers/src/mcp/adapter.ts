import type { JsonSchema } from '@toolshed/core';
import type { Adapter } from '../adapter.js';
import { checkMaxChars } from '../result-text.js';
import { definitionsOf, type ToolSource } from '../source.js';
import { isToolsCall, parseToolsCall } from './calls.js';
import { errorResult, outcomeResult, type McpCallToolResult } from './results.js';

/** A tool as MCP `tools/list` describes it. */
export interface McpTool {
  name: string;
  title?: string;
  description: string;
  inputSchema: JsonSchema & { type: 'object' };
  outputSchema?: JsonSchema & { type: 'object' };
  /** Every hint, stated: false where the tool's annotation is absent (see mcpTools). */
  annotations: {
    title?: string;
    readOnlyHint: boolean;
    destructiveHint: boolean;
    idempotentHint: boolean;
    openWorldHint: boolean;
  };
}

const HINTS = [
  ['readOnly', 'readOnlyHint'],
  ['destructive', 'destructiveHint'],
  ['idempotent', 'idempotentHint'],
  ['openWorld', 'openWorldHint'],
] as const;

/**
 * Tools in the shape of MCP `tools/list`. MCP only allows object output
 * schemas, so a tool whose output is not an object is listed without one
 * (its output then travels as text content only).
 */
function mcpTools(source: ToolSource): McpTool[] {
  return definitionsOf(source).map((definition) => {
    const tool: Omit<McpTool, 'annotations'> & Partial<Pick<McpTool, 'annotations'>> = {
      name: definition.name,
      description: definition.description,
      inputSchema: definition.inputSchema as McpTool['inputSchema'],
    };
    const { annotations } = definition;
    if (annotations?.title !== undefined) tool.title = annotations.title;
    if (definition.outputSchema?.type === 'object') tool.outputSchema = definition.outputSchema as McpTool['inputSchema'];
    // Every hint is stated, false where the annotation is absent: Toolshed reads a missing
    // annotation as false, MCP a missing destructiveHint or openWorldHint as true, so a tool
    // left unsaid would need approval once mounted back (toolshed serve into another Toolshed).
    const hints: Partial<McpTool['annotations']> = {};
    if (annotations?.title !== undefined) hints.title = annotations.title;
    for (const [ours, theirs] of HINTS) hints[theirs] = annotations?.[ours] === true;
    return { ...tool, annotations: hints as McpTool['annotations'] };
  });
}

/**
 * MCP, the server's side. Tools: the `tools/list` result's `tools`, with
 * `title` and the annotation hints. Calls: `tools/call` requests (the
 * request, its `params`, or a list of either; other requests are skipped),
 * named by
 * `_meta["toolshed/callId"]` when the client gives one. Results: one
 * `CallToolResult` per outcome: the output as text, and as
 * `structuredContent` when it is an object, and content parts as image, audio,
 * resource and resource_link blocks; a failure as its message with `isError: true`.
 */
export const mcp: Adapter<McpTool[], McpCallToolResult[], 'mcp'> = {
  format: 'mcp',
  tools: mcpTools,
  parseCalls: (reply) => (Array.isArray(reply) ? reply : [reply]).filter(isToolsCall).map(parseToolsCall),
  results(outcomes, options) {
    const maxChars = checkMaxChars(options);
    return outcomes.map((outcome) => (outcome.ok ? outcomeResult(outcome, maxChars) : errorResult(outcome.error.message, maxChars)));
  },
};
