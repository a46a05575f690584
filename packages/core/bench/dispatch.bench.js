// Dispatch overhead: registry.dispatch of echo against the floor a
// hand-written harness pays anyway, `await run(v.parse(schema, input))`.
// Everything runs in this one process, interleaved, so the ratios hold
// whatever the machine is doing.
import * as v from 'valibot';
import { ToolRegistry, defineTool } from '../dist/index.js';

const schema = v.object({ text: v.string() });
const run = ({ text }) => ({ text });
const echo = defineTool({ name: 'echo', description: 'Return the given text.', input: schema, run });
const registry = new ToolRegistry().register(echo).seal();
const input = { text: 'hello' };
const call = { name: 'echo', input };

const cases = {
  floor: async () => await run(v.parse(schema, input)),
  dispatch: () => registry.dispatch(call),
  'dispatch+timeout': () => registry.dispatch(call, { timeoutMs: 10_000 }),
};

async function measure(fn, iterations) {
  const start = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) await fn();
  return Number(process.hrtime.bigint() - start) / iterations;
}

const iterations = 20_000;
const rounds = 15;
const samples = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
for (const fn of Object.values(cases)) await measure(fn, iterations); // warm up
for (let r = 0; r < rounds; r++) {
  for (const [name, fn] of Object.entries(cases)) samples[name].push(await measure(fn, iterations));
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ns = Object.fromEntries(Object.entries(samples).map(([k, xs]) => [k, median(xs)]));

console.log(`dispatch benchmark (${rounds} rounds x ${iterations} calls, median ns per call)`);
for (const [name, value] of Object.entries(ns)) {
  console.log(`  ${name.padEnd(18)} ${value.toFixed(0).padStart(7)} ns   ${(value / ns.floor).toFixed(2)}x floor`);
}
const ratio = ns.dispatch / ns.floor;
console.log(`  target: dispatch without timeout <= 2x floor: ${ratio <= 2 ? 'met' : 'NOT met'} (${ratio.toFixed(2)}x)`);
