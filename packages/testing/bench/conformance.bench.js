// What a conformance check costs a plugin's test run: checkTool on an
// echo-like tool (two samples, 100 invalid inputs) against the floor of
// dispatching the same number of calls (2 x 2 samples + 100 invalid inputs)
// through a registry by hand. Interleaved in one process, so the ratio holds
// whatever the machine is doing.
import { ToolRegistry, defineTool } from '@toolshed/core';
import * as v from 'valibot';
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

const cases = {
  floor: async () => {
    for (let i = 0; i < 2; i++) for (const input of samples) await registry.dispatch({ name: 'echo', input });
    for (const input of invalid) await registry.dispatch({ name: 'echo', input });
  },
  checkTool: async () => {
    const problems = await checkTool(echo, { samples, seed: 1 });
    if (problems.length > 0) throw new Error(problems.map((p) => p.message).join('\n'));
  },
};

async function measure(fn, iterations) {
  const start = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) await fn();
  return Number(process.hrtime.bigint() - start) / iterations / 1e6;
}

const iterations = 20;
const rounds = 9;
const results = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
for (const fn of Object.values(cases)) await measure(fn, 5); // warm up
for (let r = 0; r < rounds; r++) {
  for (const [name, fn] of Object.entries(cases)) results[name].push(await measure(fn, iterations));
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = Object.fromEntries(Object.entries(results).map(([k, xs]) => [k, median(xs)]));

console.log(`conformance benchmark (${rounds} rounds x ${iterations} checks, median ms per check of one tool)`);
for (const [name, value] of Object.entries(ms)) {
  console.log(`  ${name.padEnd(10)} ${value.toFixed(2).padStart(8)} ms   ${(value / ms.floor).toFixed(2)}x floor`);
}
