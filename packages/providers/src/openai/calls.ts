import { callIdOf } from '../call-id.js';
import { parseArguments, stringField, type ParsedToolCall } from '../parsed-call.js';

function notAFunction(callId: string, name: string, kind: string, input: unknown): ParsedToolCall {
  return {
    callId,
    name,
    input,
    error: {
      code: 'invalid_input',
      message: `Invalid call to ${name}: it was sent as a "${kind}" tool call, but ${name} is a function tool. Call it as a function with JSON arguments.`,
    },
  };
}

/**
 * Read `message.tool_calls` from a Chat Completions reply (the assistant
 * message, or its `tool_calls` array). Malformed JSON arguments become calls
 * that `runToolCalls` answers with an `invalid_input` outcome; nothing throws.
 */
export function parseChatCalls(reply: unknown): ParsedToolCall[] {
  const list = Array.isArray(reply) ? reply : (reply as { tool_calls?: unknown } | null | undefined)?.tool_calls;
  if (!Array.isArray(list)) return [];
  return list.map((item: unknown) => {
    const callId = callIdOf(stringField(item, 'id'));
    const type = stringField(item, 'type') ?? 'function';
    if (type !== 'function') {
      const custom = (item as Record<string, unknown>)[type];
      return notAFunction(callId, stringField(custom, 'name') ?? '(unnamed)', type, stringField(custom, 'input'));
    }
    const fn = (item as { function?: unknown } | null)?.function;
    const name = stringField(fn, 'name') ?? '(unnamed)';
    return parseArguments(callId, name, (fn as { arguments?: unknown } | undefined)?.arguments);
  });
}

/**
 * Read the `function_call` items of a Responses API reply (the response, or
 * its `output` array). Other items (messages, reasoning) are skipped.
 */
export function parseResponsesCalls(reply: unknown): ParsedToolCall[] {
  const list = Array.isArray(reply) ? reply : (reply as { output?: unknown } | null | undefined)?.output;
  if (!Array.isArray(list)) return [];
  return list
    .filter((item: unknown) => stringField(item, 'type') === 'function_call')
    .map((item: unknown) => {
      const callId = callIdOf(stringField(item, 'call_id') ?? stringField(item, 'id'));
      const name = stringField(item, 'name') ?? '(unnamed)';
      return parseArguments(callId, name, (item as { arguments?: unknown }).arguments);
    });
}
