import type { ToolDefinition } from '@toolshed/core';

export const SCHEMA_FORMATS = ['openai', 'openai-strict', 'openai-responses', 'anthropic', 'gemini', 'mcp'] as const;
export type SchemaFormat = (typeof SCHEMA_FORMATS)[number];

/**
 * The tools as a model API's `tools` field takes them. The providers package
 * loads only when a format is asked for. A tool that cannot be made strict
 * throws, naming the tool, the field and the reason.
 */
export async function formatTools(format: SchemaFormat, tools: ToolDefinition[]): Promise<unknown> {
  const providers = await import('@toolshed/providers');
  switch (format) {
    case 'openai':
      return providers.toOpenAIChatTools(tools);
    case 'openai-strict':
      return providers.toOpenAIChatTools(tools, { strict: true });
    case 'openai-responses':
      return providers.toOpenAIResponsesTools(tools);
    case 'anthropic':
      return providers.toAnthropicTools(tools);
    case 'gemini':
      return providers.toGeminiTools(tools);
    case 'mcp':
      return providers.toMcpTools(tools);
  }
}
