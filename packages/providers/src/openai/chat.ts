import type { JsonSchema } from '@toolshed/core';
import type { Adapter } from '../adapter.js';
import { definitionsOf, type ToolSource } from '../source.js';
import { parseChatCalls } from './calls.js';
import { type OpenAIPartsMessage, toolMessages, type OpenAIToolMessage } from './results.js';
import { unstrict } from './strict-calls.js';
import { parametersFor } from './strict-tools.js';

/** A Chat Completions function tool (`tools` in the request). */
export interface OpenAIChatTool {
  type: 'function';
  function: { name: string; description: string; parameters: JsonSchema; strict?: boolean };
}

function chatTools(source: ToolSource, strict: boolean): OpenAIChatTool[] {
  const definitions = definitionsOf(source);
  const parameters = parametersFor(definitions, strict);
  return definitions.map((definition, index) => ({
    type: 'function',
    function: {
      name: definition.name,
      description: definition.description,
      parameters: parameters[index]!,
      ...(strict ? { strict: true } : {}),
    },
  }));
}

/**
 * OpenAI Chat Completions. Tools: `{type: "function", function: {name,
 * description, parameters}}`. Calls: the assistant message's `tool_calls`
 * (pass the message or the array). Results: one `role: "tool"` message per
 * outcome, to append after the assistant message.
 */
export const openaiChat: Adapter<OpenAIChatTool[], (OpenAIToolMessage | OpenAIPartsMessage)[], 'openai'> = {
  format: 'openai',
  tools: (source) => chatTools(source, false),
  parseCalls: (reply) => parseChatCalls(reply),
  results: toolMessages,
};

/**
 * OpenAI Chat Completions with `strict: true`: each schema rewritten to fit
 * strict mode (throws a StrictSchemaError naming each tool that cannot be),
 * and the nulls that forces on the model turned back into missing keys when
 * its calls are read (`parseCalls(reply, {tools})`).
 */
export const openaiChatStrict: Adapter<OpenAIChatTool[], (OpenAIToolMessage | OpenAIPartsMessage)[], 'openai-strict'> = {
  format: 'openai-strict',
  tools: (source) => chatTools(source, true),
  parseCalls: (reply, options) => unstrict('openaiChatStrict', parseChatCalls(reply), options),
  results: toolMessages,
};
