import { isRecord } from '@toolshed/core/contract';
import type { SuccessOutcome } from '@toolshed/core';
import { partIssueNotes } from '../part-notes.js';
import { capText, DEFAULT_MAX_CHARS, emptyResultText, outputText, unwritableOutputMessage } from '../result-text.js';
import { type McpContent, mcpContent } from './content.js';

/** An MCP `tools/call` result (`CallToolResult`): text, then the call's content parts as MCP blocks. */
export interface McpCallToolResult {
  content: McpContent[];
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
 * nothing else there). A tool with an object output schema, checked by the
 * registry, always carries the structured form (unless it is cut, below).
 *
 * Text longer than `maxChars` (default 30000) is cut with the same note as every
 * other path to a model. A cut object cannot be sent as `structuredContent`, so it
 * goes as text only: still a success, since the call did its work (a model told it
 * failed may send it again). No client refuses that, because `tools/list` lists no
 * output schemas.
 */
export function successResult(name: string, output: unknown, maxChars: number = DEFAULT_MAX_CHARS): McpCallToolResult {
  let text: string;
  try {
    text = outputText(output);
  } catch (error) {
    return errorResult(unwritableOutputMessage(name, error));
  }
  // Some clients pass results on to APIs that refuse an empty one (Anthropic's tool_result).
  if (text === '') return { content: [{ type: 'text', text: emptyResultText(name) }] };
  if (text.length > maxChars) return { content: [{ type: 'text', text: capText(text, maxChars) }] };
  const result: McpCallToolResult = { content: [{ type: 'text', text }] };
  if (isRecord(output)) result.structuredContent = output;
  return result;
}

/**
 * A success with its parts: the text result, then each part as its MCP block, then a text block
 * naming any part the registry left out. Without text of its own, a result with parts sends no
 * "returned no output" line: the parts are its output.
 */
export function outcomeResult(outcome: SuccessOutcome, maxChars: number = DEFAULT_MAX_CHARS): McpCallToolResult {
  const parts = outcome.parts ?? [];
  const notes = partIssueNotes(outcome);
  const result = successResult(outcome.name, outcome.output, maxChars);
  if (parts.length === 0 && notes === undefined) return result;
  const silent = parts.length > 0 && (outcome.output === undefined || outcome.output === '');
  const content: McpContent[] = silent ? [] : [...result.content];
  content.push(...parts.map(mcpContent));
  if (notes !== undefined) content.push({ type: 'text', text: capText(notes, maxChars) });
  return { ...result, content };
}
