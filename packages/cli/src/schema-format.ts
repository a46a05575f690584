import type { ToolDefinition } from '@toolshed/core';
import { TOOL_FORMATS, type ToolFormat } from '@toolshed/providers/formats';

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
