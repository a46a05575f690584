// Dispatch overhead of echo against two floors, each case its own function in
// the same tinybench loop (vitest bench), so a floor pays exactly the loop's
// cost and nothing of the others' shapes:
// - a hand-written dispatcher of the kind in every tutorial: look the tool up,
//   safeParse, await the handler, return an outcome with its duration;
// - the least any harness pays: `await run(v.parse(schema, input))`.
// Ratios and targets: bench/targets.json, printed by scripts/bench-report.mjs.
import * as v from 'valibot';
import { bench, describe } from 'vitest';
import { ToolRegistry, defineTool } from '../dist/index.js';

const schema = v.object({ text: v.string() });
const run = ({ text }: { text: string }) => ({ text });
const echo = defineTool({ name: 'echo', description: 'Return the given text.', input: schema, run });
const registry = new ToolRegistry().register(echo).seal();
const input = { text: 'hello' };
const call = { name: 'echo', input };

type HandWritten = { schema: typeof schema; handler: (input: { text: string }) => unknown };
const tools: Record<string, HandWritten> = { echo: { schema, handler: run } };
async function handWritten(name: string, args: unknown) {
  const started = performance.now();
  const tool = tools[name];
  if (!tool) return { ok: false, error: `unknown tool '${name}'`, durationMs: performance.now() - started };
  const parsed = v.safeParse(tool.schema, args);
  if (!parsed.success) return { ok: false, error: `invalid args: ${parsed.issues[0].message}`, durationMs: performance.now() - started };
  try {
    const result = await tool.handler(parsed.output);
    return { ok: true, result, durationMs: performance.now() - started };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error), durationMs: performance.now() - started };
  }
}

// Five rounds of the group, 200 ms a case a round: on this shared machine a case's speed
// drifts over seconds (a floor of 130 ns measured 210 ns a minute later), so each ratio is
// taken within one round and the report gives the median of the rounds' (bench-report.mjs).
const ROUNDS = 5;
const options = { time: 200, warmupTime: 50 };

for (let round = 1; round <= ROUNDS; round++)
  describe(`dispatch of echo (round ${round})`, () => {
    bench(
      'floor: hand-written dispatcher',
      async () => {
        await handWritten('echo', input);
      },
      options,
    );
    bench(
      'floor: await run(v.parse(schema, input))',
      async () => {
        await run(v.parse(schema, input));
      },
      options,
    );
    bench(
      'registry.dispatch',
      async () => {
        await registry.dispatch(call);
      },
      options,
    );
    bench(
      'registry.dispatch with timeoutMs',
      async () => {
        await registry.dispatch(call, { timeoutMs: 10_000 });
      },
      options,
    );
  });
