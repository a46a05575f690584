import type { Outcome } from '@toolshed/core';
import { replyIdOf } from '../call-id.js';
import { hasParts } from '../parts/has-parts.js';
import { checkMaxChars, checkMaxPartBytes, outcomeText, type ResultOptions } from '../result-text.js';
import { chatParts, OPENAI_MAX_PART_BYTES, type OpenAIChatUserPart, type OpenAIFunctionOutputItem, responsesItems } from './parts.js';

/** A Chat Completions `role: "tool"` message. */
export interface OpenAIToolMessage {
  role: 'tool';
  tool_call_id: string;
  content: string;
}

/** The user message after the tool messages that carries their images, audio and files (tool messages take text only). */
export interface OpenAIPartsMessage {
  role: 'user';
  content: OpenAIChatUserPart[];
}

/** A Responses API `function_call_output` input item. */
export interface OpenAIFunctionCallOutput {
  type: 'function_call_output';
  call_id: string;
  /** Text, or a list of text, images and files when the call returned parts. */
  output: string | OpenAIFunctionOutputItem[];
}

/**
 * One `role: "tool"` message per outcome, to append after the assistant message; when calls
 * returned parts, one user message after them carries the parts, each marked with its call.
 */
export function toolMessages(outcomes: readonly Outcome[], options?: ResultOptions): (OpenAIToolMessage | OpenAIPartsMessage)[] {
  const maxChars = checkMaxChars(options);
  const maxPartBytes = checkMaxPartBytes(options, OPENAI_MAX_PART_BYTES);
  const parts: OpenAIChatUserPart[] = [];
  const messages: (OpenAIToolMessage | OpenAIPartsMessage)[] = outcomes.map((outcome) => {
    const tool_call_id = replyIdOf(outcome.callId);
    if (!outcome.ok || !hasParts(outcome)) return { role: 'tool', tool_call_id, content: outcomeText(outcome, maxChars) };
    const split = chatParts(outcome, tool_call_id, maxChars, maxPartBytes);
    parts.push(...split.parts);
    return { role: 'tool', tool_call_id, content: split.text };
  });
  if (parts.length > 0) messages.push({ role: 'user', content: parts });
  return messages;
}

/** One `function_call_output` item per outcome, for the next Responses request's `input`. */
export function functionCallOutputs(outcomes: readonly Outcome[], options?: ResultOptions): OpenAIFunctionCallOutput[] {
  const maxChars = checkMaxChars(options);
  const maxPartBytes = checkMaxPartBytes(options, OPENAI_MAX_PART_BYTES);
  return outcomes.map((outcome) => ({
    type: 'function_call_output',
    call_id: replyIdOf(outcome.callId),
    output: outcome.ok && hasParts(outcome) ? responsesItems(outcome, maxChars, maxPartBytes) : outcomeText(outcome, maxChars),
  }));
}
