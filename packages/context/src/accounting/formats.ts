import type { ToolDefinition } from '@toolshed/core';
import { adapters, TOOL_FORMATS } from '@toolshed/providers';

/** The request formats whose tool definitions can be measured: every format the providers have an adapter for. */
export const CONTEXT_FORMATS = TOOL_FORMATS;
export type ContextFormat = (typeof CONTEXT_FORMATS)[number];

export function isContextFormat(value: unknown): value is ContextFormat {
  return typeof value === 'string' && (CONTEXT_FORMATS as readonly string[]).includes(value);
}

/** One tool exactly as a format sends it, and the parts of it that come from the tool's definition. */
export interface RenderedTool {
  name: string;
  sent: unknown;
  description: string;
  inputSchema: unknown;
}

/** The value that goes into the request (`tools`, or MCP's `tools/list` result) and each tool in it. */
export interface Rendered {
  payload: unknown;
  tools: RenderedTool[];
}

function part(name: string, sent: unknown, description: string, inputSchema: unknown): RenderedTool {
  return { name, sent, description, inputSchema };
}

/** Render definitions the way the providers package sends them (its adapters); nothing here re-implements a format. */
export function render(format: ContextFormat, definitions: readonly ToolDefinition[]): Rendered {
  switch (format) {
    case 'openai':
    case 'openai-strict': {
      const tools = adapters[format].tools(definitions);
      return {
        payload: tools,
        tools: tools.map((tool) => part(tool.function.name, tool, tool.function.description, tool.function.parameters)),
      };
    }
    case 'openai-responses':
    case 'openai-responses-strict': {
      const tools = adapters[format].tools(definitions);
      return { payload: tools, tools: tools.map((tool) => part(tool.name, tool, tool.description, tool.parameters)) };
    }
    case 'anthropic': {
      const tools = adapters.anthropic.tools(definitions);
      return { payload: tools, tools: tools.map((tool) => part(tool.name, tool, tool.description, tool.input_schema)) };
    }
    case 'gemini': {
      const payload = adapters.gemini.tools(definitions);
      return {
        payload,
        tools: payload[0].functionDeclarations.map((declaration) =>
          part(declaration.name, declaration, declaration.description, declaration.parameters),
        ),
      };
    }
    case 'mcp': {
      const tools = adapters.mcp.tools(definitions);
      return {
        payload: { tools },
        tools: tools.map((tool) => part(tool.name, tool, tool.description, tool.inputSchema)),
      };
    }
  }
}
