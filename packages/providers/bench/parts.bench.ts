// A 1 MB image through dispatch (the registry's checks: declared kind, base64, magic bytes,
// caps) and through each adapter's results, against the floor of copying its bytes once.
// Targets (bench/targets.json): each adds at most 1 ms beyond the floor.
import { randomBytes } from 'node:crypto';
import { defineTool, ToolRegistry, withParts } from '@toolshed/core';
import * as v from 'valibot';
import { bench, describe } from 'vitest';
import { anthropic, gemini, mcp, openaiChat, openaiResponses } from '../dist/index.js';

// A PNG signature and 1 MiB of noise: what the checks read is the signature and the whole base64.
const bytes = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(1024 * 1024 - 8)]);
const data = bytes.toString('base64');
const registry = new ToolRegistry()
  .register(
    defineTool({
      name: 'shot',
      description: 'A screenshot.',
      input: v.object({}),
      parts: ['image'],
      run: () => withParts('A screenshot.', [{ type: 'image', mimeType: 'image/png', data }]),
    }),
  )
  .seal();
const outcome = await registry.dispatch({ name: 'shot', input: {}, callId: 'call_1' });
if (!outcome.ok || outcome.parts?.length !== 1) throw new Error('the bench image was refused');
const outcomes = [outcome];
// Sinks, so no case's work can be dropped as unused.
let sink: unknown;

const ROUNDS = 5;
const options = { time: 200, warmupTime: 50 };

for (let round = 1; round <= ROUNDS; round++)
  describe(`1 MB image (round ${round})`, () => {
    bench(
      'floor: copy its bytes once',
      () => {
        sink = Buffer.from(bytes);
      },
      options,
    );
    bench(
      'dispatch',
      async () => {
        sink = await registry.dispatch({ name: 'shot', input: {} });
      },
      options,
    );
    bench(
      'anthropic results',
      () => {
        sink = anthropic.results(outcomes);
      },
      options,
    );
    bench(
      'openai responses results',
      () => {
        sink = openaiResponses.results(outcomes);
      },
      options,
    );
    bench(
      'openai chat results',
      () => {
        sink = openaiChat.results(outcomes);
      },
      options,
    );
    bench(
      'gemini results',
      () => {
        sink = gemini.results(outcomes);
      },
      options,
    );
    bench(
      'mcp results',
      () => {
        sink = mcp.results(outcomes);
      },
      options,
    );
  });

export { sink };
