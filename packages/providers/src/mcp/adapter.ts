import type { JsonSchema } from '@toolshed/core';
import type { Adapter } from '../adapter.js';
import { checkMaxChars } from '../result-text.js';
import { definitionsOf, type ToolSource } from '../source.js';
import { isToolsCall, parseToolsCall } from './calls.js';
import { errorResult, outcomeResult, type McpCallToolResult } from './results.js';

/** A tool as MCP `tools/list` describes it. */
export interface McpTool {
  name: string;
  description: string;
  inputSchema: JsonSchema & { type: 'object' };
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
 * Tools in the shape of MCP `tools/list`, as lean as the other formats: no
 * `outputSchema` (optional in MCP; the registry checks every output against the
 * tool's own schema before it is sent, and the result still carries it as
 * `structuredContent`), and the title once, in `annotations.title`, which every
 * MCP version reads (newer clients fall back to it when the top-level `title` is absent).
 */
function mcpTools(source: ToolSource): McpTool[] {
  return definitionsOf(source).map((definition) => {
    const { annotations } = definition;
    // Every hint is stated, false where the annotation is absent: Toolshed reads a missing
    // annotation as false, MCP a missing destructiveHint or openWorldHint as true, so a tool
    // left unsaid would need approval in every client.
    const hints: Partial<McpTool['annotations']> = {};
    if (annotations?.title !== undefined) hints.title = annotations.title;
    for (const [ours, theirs] of HINTS) hints[theirs] = annotations?.[ours] === true;
    return {
      name: definition.name,
      description: definition.description,
      inputSchema: definition.inputSchema as McpTool['inputSchema'],
      annotations: hints as McpTool['annotations'],
    };
  });
}

/**
 * MCP, the server's side. Tools: the `tools/list` result's `tools`, with
 * the annotation hints (and the title among them). Calls: `tools/call` requests (the
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
