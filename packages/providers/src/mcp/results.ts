import { isRecord } from '@toolshed/core/contract';
import { capText, DEFAULT_MAX_CHARS, emptyResultText, unwritableOutputMessage } from '../result-text.js';

/** An MCP `tools/call` result (`CallToolResult`), text content only. */
export interface McpCallToolResult {
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  /** The SDK's result type is open-ended; this keeps ours assignable to it. */
  [key: string]: unknown;
}

/** An `isError` result: the model reads the message and can correct its call. */
export function errorResult(message: string, maxChars: number = DEFAULT_MAX_CHARS): McpCallToolResult {
  return { content: [{ type: 'text', text: capText(message, maxChars) }], isError: true };
}

/**
 * Turn a successful call's output into a `tools/call` result: the output as text
 * for every client, and as `structuredContent` when it is an object (MCP allows
 * nothing else there). A tool that lists an output schema has an object output,
 * checked by the registry, so its result always carries the structured form.
 *
 * Text longer than `maxChars` (default 30000) is cut with the same note as every
 * other path to a model. A cut object cannot be sent as `structuredContent`, and
 * a client that holds an output schema for the tool refuses a success without
 * it, so an object over the cap is sent as an `isError` result whose text is the
 * cut output and the note.
 */
export function successResult(name: string, output: unknown, maxChars: number = DEFAULT_MAX_CHARS): McpCallToolResult {
  let json: string | undefined;
  try {
    json = JSON.stringify(output);
  } catch (error) {
    return errorResult(unwritableOutputMessage(name, error));
  }
  // Some clients pass results on to APIs that refuse an empty one (Anthropic's tool_result).
  const text = typeof output === 'string' ? output : json;
  if (text === undefined || text === '') return { content: [{ type: 'text', text: emptyResultText(name) }] };
  if (text.length > maxChars) {
    const result: McpCallToolResult = { content: [{ type: 'text', text: capText(text, maxChars) }] };
    if (isRecord(output)) result.isError = true;
    return result;
  }
  const result: McpCallToolResult = { content: [{ type: 'text', text }] };
  if (isRecord(output)) result.structuredContent = output;
  return result;
}
