// Provider glue overhead against the floor a hand-written harness pays anyway:
// JSON.parse each call's arguments and registry.dispatch it. Each case is its
// own function in the same tinybench loop (vitest bench); ratios and targets
// (bench/targets.json) are printed by scripts/bench-report.mjs.
import { ToolRegistry, defineTool } from '@toolshed/core';
import * as v from 'valibot';
import { bench, describe } from 'vitest';
import { dispatchCalls, openaiChat, openaiChatStrict, runToolCalls } from '../dist/index.js';

const search = defineTool({
  name: 'search',
  description: 'Search documents.',
  input: v.object({
    query: v.string(),
    limit: v.optional(v.number(), 10),
    filter: v.optional(v.object({ tags: v.optional(v.array(v.string())), author: v.nullish(v.string()) })),
  }),
  run: ({ query }) => ({ hits: [query] }),
});
const registry = new ToolRegistry().register(search).seal();
const toolCalls = Array.from({ length: 8 }, (_, i) => ({
  id: `call_${i}`,
  type: 'function' as const,
  function: { name: 'search', arguments: `{"query":"q${i}","limit":null,"filter":{"tags":null,"author":null}}` },
}));
const plainCalls = toolCalls.map((call) => ({
  ...call,
  function: { ...call.function, arguments: `{"query":"${call.id}","limit":3}` },
}));
// What the strict calls become once their nulls are undone: the floor for the strict path.
const restoredCalls = toolCalls.map((call, i) => ({
  ...call,
  function: { ...call.function, arguments: `{"query":"q${i}","filter":{"author":null}}` },
}));
const parseAndDispatch = (calls: typeof toolCalls) =>
  Promise.all(calls.map((c) => registry.dispatch({ name: c.function.name, input: JSON.parse(c.function.arguments), callId: c.id })));

describe('tool-call batch of 8', () => {
  bench('floor: JSON.parse + dispatch', async () => {
    await parseAndDispatch(plainCalls);
  });
  bench('floor: JSON.parse + dispatch, strict-shaped input', async () => {
    await parseAndDispatch(restoredCalls);
  });
  bench('floor: JSON.parse + dispatch + tool messages', async () => {
    const outcomes = await parseAndDispatch(plainCalls);
    outcomes.map((o) => ({ role: 'tool', tool_call_id: o.callId, content: JSON.stringify(o.ok ? o.output : o.error) }));
  });
  bench('dispatchCalls', async () => {
    await dispatchCalls(registry, openaiChat.parseCalls(plainCalls), { concurrency: 8 });
  });
  // A whole turn: read the calls, dispatch them, and build the tool messages.
  bench('runToolCalls', async () => {
    await runToolCalls(registry, openaiChat, plainCalls, { concurrency: 8 });
  });
  bench('runToolCalls strict', async () => {
    await runToolCalls(registry, openaiChatStrict, toolCalls, { concurrency: 8 });
  });
});

describe('tool list', () => {
  bench('floor: registry.list()', () => {
    registry.list();
  });
  bench('openaiChat.tools', () => {
    openaiChat.tools(registry);
  });
  bench('openaiChatStrict.tools', () => {
    openaiChatStrict.tools(registry);
  });
});
