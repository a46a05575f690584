/**
 * Every format the adapters give tools in, by name: what `toolshed schema
 * --format` offers. Apart from the adapters (entry `@toolshed/providers/formats`),
 * so that a command line can offer the names without loading any adapter.
 */
export const TOOL_FORMATS = [
  'openai',
  'openai-strict',
  'openai-responses',
  'openai-responses-strict',
  'anthropic',
  'gemini',
  'mcp',
] as const;

export type ToolFormat = (typeof TOOL_FORMATS)[number];
