import type { Outcome } from '@toolshed/core';
import { replyIdOf } from '../call-id.js';
import { checkMaxChars, outcomeText, type ResultOptions } from '../result-text.js';

/** A Chat Completions `role: "tool"` message. */
export interface OpenAIToolMessage {
  role: 'tool';
  tool_call_id: string;
  content: string;
}

/** A Responses API `function_call_output` input item. */
export interface OpenAIFunctionCallOutput {
  type: 'function_call_output';
  call_id: string;
  output: string;
}

/** One `role: "tool"` message per outcome, to append after the assistant message. */
export function toolMessages(outcomes: readonly Outcome[], options?: ResultOptions): OpenAIToolMessage[] {
  const maxChars = checkMaxChars(options);
  return outcomes.map((outcome) => ({ role: 'tool', tool_call_id: replyIdOf(outcome.callId), content: outcomeText(outcome, maxChars) }));
}

/** One `function_call_output` item per outcome, for the next Responses request's `input`. */
export function functionCallOutputs(outcomes: readonly Outcome[], options?: ResultOptions): OpenAIFunctionCallOutput[] {
  const maxChars = checkMaxChars(options);
  return outcomes.map((outcome) => ({
    type: 'function_call_output',
    call_id: replyIdOf(outcome.callId),
    output: outcomeText(outcome, maxChars),
  }));
}
