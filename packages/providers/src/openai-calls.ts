import { isToolRegistry, type ToolDefinition, type ToolRegistry } from '@toolshed/core';
import { findDefinition, type ToolSource } from './source.js';
import { callIdOf } from './call-id.js';
import { parseArguments, stringField, type ParsedToolCall } from './parsed-call.js';
import { restoreOmittedKeys } from './strict-restore.js';
import { toStrictSchema, type NullPlan } from './strict-schema.js';

export interface OpenAIParseOptions {
  /**
   * The tools you sent with `strict: true`. Where the strict rewrite made an
   * optional key nullable, a `null` from the model becomes a missing key, so
   * the tool's own schema decides (defaults apply, optional stays optional).
   */
  strict?: ToolSource;
}

// A registered tool's definition never changes (names cannot be re-registered),
// so its plan is computed once per registry; a plain list is keyed by definition.
const registryPlans = new WeakMap<ToolRegistry, Map<string, NullPlan | undefined>>();
const definitionPlans = new WeakMap<ToolDefinition, NullPlan | undefined>();

function planOf(definition: ToolDefinition): NullPlan | undefined {
  const rewrite = toStrictSchema(definition.inputSchema);
  return rewrite.ok ? rewrite.nulls : undefined;
}

function nullPlanFor(source: ToolSource, name: string): NullPlan | undefined {
  if (isToolRegistry(source)) {
    let plans = registryPlans.get(source);
    if (!plans) registryPlans.set(source, (plans = new Map()));
    if (!plans.has(name)) {
      const definition = findDefinition(source, name);
      if (!definition) return undefined;
      plans.set(name, planOf(definition));
    }
    return plans.get(name);
  }
  const definition = findDefinition(source, name);
  if (!definition) return undefined;
  if (!definitionPlans.has(definition)) definitionPlans.set(definition, planOf(definition));
  return definitionPlans.get(definition);
}

function unstrict(call: ParsedToolCall, options: OpenAIParseOptions): ParsedToolCall {
  if (!options.strict || call.error || typeof call.input !== 'object' || call.input === null) return call;
  const plan = nullPlanFor(options.strict, call.name);
  return plan ? { ...call, input: restoreOmittedKeys(call.input, plan) } : call;
}

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
 * Read `message.tool_calls` from a Chat Completions response (pass the array,
 * or the assistant message itself). Malformed JSON arguments become calls that
 * `runToolCalls` answers with an `invalid_input` outcome; nothing throws.
 */
export function parseOpenAIToolCalls(
  toolCalls: readonly unknown[] | { tool_calls?: readonly unknown[] | null } | null | undefined,
  options: OpenAIParseOptions = {},
): ParsedToolCall[] {
  const list = Array.isArray(toolCalls) ? toolCalls : ((toolCalls as { tool_calls?: unknown[] } | null)?.tool_calls ?? []);
  return list.map((item) => {
    const callId = callIdOf(stringField(item, 'id'));
    const type = stringField(item, 'type') ?? 'function';
    if (type !== 'function') {
      const custom = (item as Record<string, unknown>)[type];
      return notAFunction(callId, stringField(custom, 'name') ?? '(unnamed)', type, stringField(custom, 'input'));
    }
    const fn = (item as { function?: unknown }).function;
    const name = stringField(fn, 'name') ?? '(unnamed)';
    return unstrict(parseArguments(callId, name, (fn as { arguments?: unknown } | undefined)?.arguments), options);
  });
}

/**
 * Read the `function_call` items of a Responses API `output` (pass the array
 * or the response). Other items (messages, reasoning) are skipped.
 */
export function parseOpenAIResponsesCalls(
  output: readonly unknown[] | { output?: readonly unknown[] } | null | undefined,
  options: OpenAIParseOptions = {},
): ParsedToolCall[] {
  const list = Array.isArray(output) ? output : ((output as { output?: unknown[] } | null)?.output ?? []);
  return list
    .filter((item) => stringField(item, 'type') === 'function_call')
    .map((item) => {
      const callId = callIdOf(stringField(item, 'call_id') ?? stringField(item, 'id'));
      const name = stringField(item, 'name') ?? '(unnamed)';
      return unstrict(parseArguments(callId, name, (item as { arguments?: unknown }).arguments), options);
    });
}
