// What a conformance check costs a plugin's test run: checkTool on an
// echo-like tool (two samples, 100 invalid inputs) against the floor of
// dispatching the same number of calls (2 x 2 samples + 100 invalid inputs)
// through a registry by hand. Each case is its own function in the same
// tinybench loop (vitest bench); scripts/bench-report.mjs prints the ratio.
import { ToolRegistry, defineTool } from '@toolshed/core';
import * as v from 'valibot';
import { bench, describe } from 'vitest';
import { checkTool } from '../dist/index.js';

const Text = v.object({ text: v.string(), times: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))) });
const echo = defineTool({
  name: 'echo',
  description: 'Return the given text unchanged, to check that tool calls work.',
  input: Text,
  output: v.object({ text: v.string() }),
  run: ({ text }) => ({ text }),
});
const samples = [{ text: 'a' }, { text: 'b', times: 2 }];
const registry = new ToolRegistry().register(echo);
const invalid = Array.from({ length: 100 }, (_, i) => (i % 2 ? { text: i } : { times: 'x' }));

describe('conformance check of one tool', () => {
  bench('floor: the same calls dispatched by hand', async () => {
    for (let i = 0; i < 2; i++) for (const input of samples) await registry.dispatch({ name: 'echo', input });
    for (const input of invalid) await registry.dispatch({ name: 'echo', input });
  });
  bench('checkTool', async () => {
    const problems = await checkTool(echo, { samples, seed: 1 });
    if (problems.length > 0) throw new Error(problems.map((p) => p.message).join('\n'));
  });
});
