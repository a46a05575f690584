import { isToolRegistry, type ToolDefinition, type ToolRegistry } from '@toolshed/core';
import type { ParseOptions } from '../adapter.js';
import type { ParsedToolCall } from '../parsed-call.js';
import { definitionsOf, type ToolSource } from '../source.js';
import { restoreOmittedKeys } from './strict-restore.js';
import { toStrictSchema, type NullPlan } from './strict-schema.js';

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
      const definition = source.get(name)?.definition;
      if (!definition) return undefined;
      plans.set(name, planOf(definition));
    }
    return plans.get(name);
  }
  const definition = definitionsOf(source).find((definition) => definition.name === name);
  if (!definition) return undefined;
  if (!definitionPlans.has(definition)) definitionPlans.set(definition, planOf(definition));
  return definitionPlans.get(definition);
}

/**
 * The calls with the nulls strict mode forced turned back into missing keys.
 * Without the tools that were sent, the nulls would reach the tools' schemas
 * and be refused: that is a mistake in the harness, so it throws at once.
 */
export function unstrict(adapter: string, calls: ParsedToolCall[], options: ParseOptions | undefined): ParsedToolCall[] {
  const tools = options?.tools;
  if (tools === undefined) {
    throw new TypeError(
      `${adapter}.parseCalls needs {tools}: the tools that were sent (the registry or its list), ` +
        'to turn the nulls strict mode makes the model send back into left-out keys. runToolCalls passes its registry.',
    );
  }
  return calls.map((call) => {
    if (call.error || typeof call.input !== 'object' || call.input === null) return call;
    const plan = nullPlanFor(tools, call.name);
    return plan ? { ...call, input: restoreOmittedKeys(call.input, plan) } : call;
  });
}
