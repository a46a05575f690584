import type { JsonSchema, ToolDefinition } from '@toolshed/core';
import type { CallToolResult, Tool, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';

/** A tool as MCP lists it, plus how its outputs travel as `structuredContent`. */
export interface McpToolEntry {
  tool: Tool;
  /**
   * MCP only allows object-typed output schemas and object `structuredContent`;
   * a tool whose output is anything else has it wrapped as `{ result: output }`.
   */
  wrapsOutput: boolean;
}

const HINTS = [
  ['readOnly', 'readOnlyHint'],
  ['destructive', 'destructiveHint'],
  ['idempotent', 'idempotentHint'],
  ['openWorld', 'openWorldHint'],
] as const;

function toAnnotations(annotations: ToolDefinition['annotations']): ToolAnnotations | undefined {
  if (!annotations) return undefined;
  const out: ToolAnnotations = {};
  if (annotations.title !== undefined) out.title = annotations.title;
  for (const [ours, theirs] of HINTS) {
    if (annotations[ours] !== undefined) out[theirs] = annotations[ours];
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

function wrapSchema(schema: JsonSchema): JsonSchema {
  // Definitions stay at the root so that `#/$defs/...` references still resolve.
  const { $defs, ...inner } = schema;
  const wrapped: JsonSchema = { type: 'object', properties: { result: inner }, required: ['result'] };
  if ($defs !== undefined) wrapped.$defs = $defs;
  return wrapped;
}

/** Describe a registry tool the way `tools/list` returns it: its JSON Schemas pass through unchanged. */
export function toMcpTool(definition: ToolDefinition): McpToolEntry {
  const tool: Tool = {
    name: definition.name,
    description: definition.description,
    inputSchema: definition.inputSchema as Tool['inputSchema'],
  };
  const title = definition.annotations?.title;
  if (title !== undefined) tool.title = title;
  let wrapsOutput = false;
  if (definition.outputSchema) {
    wrapsOutput = definition.outputSchema.type !== 'object';
    tool.outputSchema = (wrapsOutput ? wrapSchema(definition.outputSchema) : definition.outputSchema) as Tool['outputSchema'];
  }
  const annotations = toAnnotations(definition.annotations);
  if (annotations) tool.annotations = annotations;
  return { tool, wrapsOutput };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An `isError` result: the model reads the message and can correct its call. */
export function errorResult(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/**
 * Turn a successful call's output into a `tools/call` result: the output as text
 * for every client, and as `structuredContent` where MCP allows it (an object;
 * required when the tool declares an output schema).
 */
export function successResult(name: string, output: unknown, entry: McpToolEntry | undefined): CallToolResult {
  let json: string | undefined;
  try {
    json = JSON.stringify(output);
  } catch (error) {
    // V8 explains a cycle over several lines; the first says enough.
    const reason = (error instanceof Error ? error.message : String(error)).split('\n')[0];
    return errorResult(`${name} returned output that cannot be sent as JSON (${reason}). This is a fault in the tool, not in your call.`);
  }
  if (json === undefined) return { content: [] };
  const result: CallToolResult = { content: [{ type: 'text', text: typeof output === 'string' ? output : json }] };
  if (entry?.wrapsOutput) result.structuredContent = { result: output };
  else if (isPlainObject(output)) result.structuredContent = output;
  return result;
}
