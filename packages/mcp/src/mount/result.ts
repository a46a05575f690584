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
  if (content.every((item) => item.type === 'text') && result.structuredContent === undefined) return textOf(content);
  return writable(result.structuredContent ?? { content }, tool, server);
}

/**
 * An answer JSON.parse took can still be more than JSON.stringify gives back: nesting deeper
 * than the stack. Passed on, it would make every log, transcript and reply of the outcome throw.
 */
function writable(output: unknown, tool: string, server: string): unknown {
  try {
    JSON.stringify(output);
  } catch (error) {
    const reason = (error instanceof Error ? error.message : String(error)).split('\n')[0];
    throw new ToolError(
      'execution_failed',
      `${tool} failed (MCP server "${server}"): its answer cannot be written back as JSON (${reason}).`,
    );
  }
  return output;
}
