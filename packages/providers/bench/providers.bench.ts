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

// Five rounds of the group, 200 ms a case a round: on this shared machine a case's speed
// drifts over seconds, so each ratio is taken within one round and the report gives the
// median of the rounds' (scripts/bench-report.mjs).
const ROUNDS = 5;
const options = { time: 200, warmupTime: 50 };

for (let round = 1; round <= ROUNDS; round++)
  describe(`tool-call batch of 8 (round ${round})`, () => {
    bench(
      'floor: JSON.parse + dispatch',
      async () => {
        await parseAndDispatch(plainCalls);
      },
      options,
    );
    bench(
      'floor: JSON.parse + dispatch, strict-shaped input',
      async () => {
        await parseAndDispatch(restoredCalls);
      },
      options,
    );
    bench(
      'floor: JSON.parse + dispatch + tool messages',
      async () => {
        const outcomes = await parseAndDispatch(plainCalls);
        outcomes.map((o) => ({ role: 'tool', tool_call_id: o.callId, content: JSON.stringify(o.ok ? o.output : o.error) }));
      },
      options,
    );
    bench(
      'dispatchCalls',
      async () => {
        await dispatchCalls(registry, openaiChat.parseCalls(plainCalls), { concurrency: 8 });
      },
      options,
    );
    // A whole turn: read the calls, dispatch them, and build the tool messages.
    bench(
      'runToolCalls',
      async () => {
        await runToolCalls(registry, openaiChat, plainCalls, { concurrency: 8 });
      },
      options,
    );
    bench(
      'runToolCalls strict',
      async () => {
        await runToolCalls(registry, openaiChatStrict, toolCalls, { concurrency: 8 });
      },
      options,
    );
  });

describe('tool list', () => {
  bench(
    'floor: registry.list()',
    () => {
      registry.list();
    },
    options,
  );
  bench(
    'openaiChat.tools',
    () => {
      openaiChat.tools(registry);
    },
    options,
  );
  bench(
    'openaiChatStrict.tools',
    () => {
      openaiChatStrict.tools(registry);
    },
    options,
  );
});
