import type { JsonSchema } from '@toolshed/core';
import { definitionsOf, type ToolSource } from './source.js';

/** A tool as MCP `tools/list` describes it. */
export interface McpTool {
  name: string;
  title?: string;
  description: string;
  inputSchema: JsonSchema & { type: 'object' };
  outputSchema?: JsonSchema & { type: 'object' };
  annotations?: {
    title?: string;
    readOnlyHint?: boolean;
    destructiveHint?: boolean;
    idempotentHint?: boolean;
    openWorldHint?: boolean;
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
export function toMcpTools(source: ToolSource): McpTool[] {
  return definitionsOf(source).map((definition) => {
    const tool: McpTool = {
      name: definition.name,
      description: definition.description,
      inputSchema: definition.inputSchema as McpTool['inputSchema'],
    };
    const { annotations } = definition;
    if (annotations?.title !== undefined) tool.title = annotations.title;
    if (definition.outputSchema?.type === 'object') tool.outputSchema = definition.outputSchema as McpTool['inputSchema'];
    if (annotations) {
      const hints: NonNullable<McpTool['annotations']> = {};
      if (annotations.title !== undefined) hints.title = annotations.title;
      for (const [ours, theirs] of HINTS) {
        if (annotations[ours] !== undefined) hints[theirs] = annotations[ours];
      }
      if (Object.keys(hints).length > 0) tool.annotations = hints;
    }
    return tool;
  });
}
