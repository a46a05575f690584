import type { JsonSchema } from '@toolshed/core';
import { hasParts } from '../parts/has-parts.js';
import type { Adapter } from '../adapter.js';
import { callIdOf, replyIdOf } from '../call-id.js';
import { stringField } from '../parsed-call.js';
import { checkMaxChars, checkMaxPartBytes, outcomeText } from '../result-text.js';
import { ANTHROPIC_MAX_PART_BYTES, anthropicBlocks, type AnthropicToolResultBlock } from './parts.js';
import { definitionsOf } from '../source.js';

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
  /** Text, or text and content blocks when the call returned parts (images, PDFs). */
  content: string | AnthropicToolResultBlock[];
  is_error?: boolean;
}

/** The user message that answers an assistant turn's tool calls. */
export interface AnthropicToolResultMessage {
  role: 'user';
  content: AnthropicToolResult[];
}

/**
 * Anthropic Messages. Tools: `{name, description, input_schema}`. Calls: the
 * `tool_use` blocks of an assistant message (pass the message or its
 * `content`; text and thinking blocks are skipped). Results: one user message
 * holding every `tool_result` block, as the API requires, `is_error: true` on
 * a failure. A call's images and PDFs go in its `tool_result` as image and
 * document blocks; any other part is named in a text block.
 */
export const anthropic: Adapter<AnthropicTool[], AnthropicToolResultMessage, 'anthropic'> = {
  format: 'anthropic',
  tools: (source) =>
    definitionsOf(source).map((definition) => ({
      name: definition.name,
      description: definition.description,
      input_schema: definition.inputSchema as AnthropicTool['input_schema'],
    })),
  parseCalls(reply) {
    const list = Array.isArray(reply) ? reply : (reply as { content?: unknown } | null | undefined)?.content;
    if (!Array.isArray(list)) return [];
    return list
      .filter((block: unknown) => stringField(block, 'type') === 'tool_use')
      .map((block: unknown) => ({
        callId: callIdOf(stringField(block, 'id')),
        name: stringField(block, 'name') ?? '(unnamed)',
        input: (block as { input?: unknown }).input ?? {},
      }));
  },
  results(outcomes, options) {
    const maxChars = checkMaxChars(options);
    const maxPartBytes = checkMaxPartBytes(options, ANTHROPIC_MAX_PART_BYTES);
    return {
      role: 'user',
      content: outcomes.map((outcome) => ({
        type: 'tool_result',
        tool_use_id: replyIdOf(outcome.callId),
        content: outcome.ok && hasParts(outcome) ? anthropicBlocks(outcome, maxChars, maxPartBytes) : outcomeText(outcome, maxChars),
        ...(outcome.ok ? {} : { is_error: true }),
      })),
    };
  },
};
