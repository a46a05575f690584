import { ToolError } from '@toolshed/core/contract';

interface Content {
  type: string;
  text?: string;
  [key: string]: unknown;
}

export interface CallResult {
  content?: Content[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

function textOf(content: readonly Content[]): string {
  return content
    .filter((item) => item.type === 'text' && typeof item.text === 'string')
    .map((item) => item.text)
    .join('\n');
}

/**
 * A `tools/call` result as a Toolshed output: `structuredContent` when the server
 * sends it (checked against the tool's outputSchema by the registry), else the text
 * of an all-text result as one string, else `{content}` as the server sent it (images,
 * resources). `isError: true` is a failure in the tool's own words, naming the server.
 */
export function toOutput(result: CallResult, tool: string, server: string): unknown {
  const content = Array.isArray(result.content) ? result.content : [];
  if (result.isError === true) {
    const text = textOf(content).trim();
    // Not cut here: like any tool's outcome, it is capped where it is written for a model.
    throw new ToolError(
      'execution_failed',
      `${tool} failed (MCP server "${server}"): ${text === '' ? 'the server gave no message' : text}`,
    );
  }
  if (result.structuredContent !== undefined) return result.structuredContent;
  if (content.every((item) => item.type === 'text')) return textOf(content);
  return { content };
}
