import type { JsonSchema, Outcome } from '@toolshed/core';
import { callIdOf, replyIdOf } from './call-id.js';
import { definitionsOf, type ToolSource } from './source.js';
import { stringField, type ParsedToolCall } from './parsed-call.js';
import { checkMaxChars, outcomeText, type ResultOptions } from './result-text.js';

/** A tool for the Anthropic Messages API. */
export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: JsonSchema & { type: 'object' };
}

/** An Anthropic `tool_result` content block. */
export interface AnthropicToolResult {
  type: 'tool_result';
  tool_use_id: string;
  content: string;
  is_error?: boolean;
}

/** Tools for the Messages API: `{name, description, input_schema}`. */
export function toAnthropicTools(source: ToolSource): AnthropicTool[] {
  return definitionsOf(source).map((definition) => ({
    name: definition.name,
    description: definition.description,
    input_schema: definition.inputSchema as JsonSchema & { type: 'object' },
  }));
}

/**
 * Read the `tool_use` blocks of an assistant message (pass its `content`
 * array or the message). Text and thinking blocks are skipped.
 */
export function parseAnthropicToolUses(
  content: readonly unknown[] | { content?: readonly unknown[] | string } | null | undefined,
): ParsedToolCall[] {
  const list = Array.isArray(content) ? content : (content as { content?: unknown } | null)?.content;
  if (!Array.isArray(list)) return [];
  return list
    .filter((block) => stringField(block, 'type') === 'tool_use')
    .map((block) => ({
      callId: callIdOf(stringField(block, 'id')),
      name: stringField(block, 'name') ?? '(unnamed)',
      input: (block as { input?: unknown }).input ?? {},
    }));
}

/** One `tool_result` block per outcome; failures carry `is_error: true`. */
export function toAnthropicToolResults(outcomes: readonly Outcome[], options?: ResultOptions): AnthropicToolResult[] {
  const maxChars = checkMaxChars(options);
  return outcomes.map((outcome) => ({
    type: 'tool_result',
    tool_use_id: replyIdOf(outcome.callId),
    content: outcomeText(outcome, maxChars),
    ...(outcome.ok ? {} : { is_error: true }),
  }));
}

/** The user message that answers an assistant turn's tool calls: every result in one message, as the API requires. */
export function toAnthropicToolResultMessage(
  outcomes: readonly Outcome[],
  options?: ResultOptions,
): { role: 'user'; content: AnthropicToolResult[] } {
  return { role: 'user', content: toAnthropicToolResults(outcomes, options) };
}
