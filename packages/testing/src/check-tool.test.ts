import { defineTool, type AnyTool } from '@toolshed/core';
import * as v from 'valibot';
import { afterEach, describe, expect, it } from 'vitest';
import { checkTool } from './check-tool.js';

const Text = v.object({ text: v.pipe(v.string(), v.description('The text to return.')) });
const DESCRIPTION = 'Return the given text unchanged, to check that tool calls work.';

function tool(overrides: Partial<AnyTool> = {}): AnyTool {
  return {
    name: 'echo',
    description: DESCRIPTION,
    input: Text,
    output: Text,
    run: ({ text }: { text: string }) => ({ text }),
    ...overrides,
  };
}

const kinds = (problems: { kind: string }[]) => problems.map((problem) => problem.kind);

describe('checkTool on a conforming tool', () => {
  it('finds nothing, and the handler only ever ran on the samples', async () => {
    const inputs: unknown[] = [];
    const counted = defineTool({
      name: 'echo',
      description: DESCRIPTION,
      input: v.object({ text: v.string(), times: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(3))) }),
      output: Text,
      run: ({ text }) => {
        inputs.push(text);
        return { text };
      },
    });
    const problems = await checkTool(counted, { samples: [{ text: 'a' }, { text: 'b', times: 2 }] });
    expect(problems).toEqual([]);
    // Each sample ran twice (output check, abort check); none of the 100 invalid inputs ran.
    expect(inputs).toEqual(['a', 'b', 'a', 'b']);
  });
});

describe('checkTool finds each kind of problem, naming the tool and what to fix', () => {
  it('an object that is not a tool', async () => {
    const problems = await checkTool(null as unknown as AnyTool);
    expect(problems).toEqual([expect.objectContaining({ kind: 'shape', message: expect.stringContaining('make it with defineTool') })]);
  });

  it('a name model APIs refuse', async () => {
    const problems = await checkTool(tool({ name: 'get weather' }), { samples: [{ text: 'x' }] });
    expect(problems).toEqual([
      {
        kind: 'name',
        tool: 'get weather',
        message:
          'Tool "get weather": the name is not one model APIs accept; use a letter or "_" first, then letters, digits, "_" or "-", at most 64 in all (what OpenAI, Anthropic, Gemini and MCP all accept) (e.g. "get_weather").',
      },
    ]);
    // Gemini refuses a digit first, so the kit does too.
    expect(kinds(await checkTool(tool({ name: '2fa_check' }), { samples: [{ text: 'x' }] }))).toEqual(['name']);
  });

  it('a missing description', async () => {
    const problems = await checkTool(tool({ description: '  ' }), { samples: [{ text: 'x' }] });
    expect(problems).toEqual([
      expect.objectContaining({ kind: 'description', message: expect.stringMatching(/^Tool "echo": has no description; write one/) }),
    ]);
  });

  it('a description too short to tell a model when to use the tool', async () => {
    const problems = await checkTool(tool({ description: 'Echo.' }), { samples: [{ text: 'x' }] });
    expect(problems).toEqual([
      expect.objectContaining({
        kind: 'description',
        message: 'Tool "echo": the description "Echo." is 5 characters; write at least 20: what it does, when to use it, what it returns.',
      }),
    ]);
  });

  it('an input schema without a JSON Schema form', async () => {
    const problems = await checkTool(tool({ input: v.object({ when: v.date() }) }), { samples: [{ when: 'x' }] });
    expect(kinds(problems)).toEqual(['schema']);
    expect(problems[0]!.message).toMatch(/^Tool "echo": its input schema cannot be converted to JSON Schema: .*date/);
  });

  it('an input schema that is not an object', async () => {
    const problems = await checkTool(tool({ input: v.string() }));
    expect(kinds(problems)).toEqual(['schema']);
    expect(problems[0]!.message).toContain('its input schema must describe an object');
  });

  it('a handler that is not a function', async () => {
    const problems = await checkTool(tool({ run: 'nope' as unknown as AnyTool['run'] }));
    expect(kinds(problems)).toEqual(['shape']);
    expect(problems[0]!.message).toContain('"run" must be a function');
  });

  it('an input schema OpenAI strict mode cannot take', async () => {
    const input = v.object({ text: v.string(), labels: v.record(v.string(), v.string()) });
    const problems = await checkTool(tool({ input, output: undefined, run: () => 'ok' }), { samples: [{ text: 'x', labels: {} }] });
    expect(kinds(problems)).toEqual(['strict']);
    expect(problems[0]!.message).toMatch(
      /^Tool "echo": cannot be sent with OpenAI strict mode:\n {2}- field "labels": it is a record with open-ended keys/,
    );
    expect(problems[0]!.message).toContain('strict: true');
  });

  it('no samples to check output and abort handling with', async () => {
    const problems = await checkTool(tool());
    expect(problems).toEqual([expect.objectContaining({ kind: 'samples', message: expect.stringContaining('pass samples: [{...}]') })]);
  });

  it('a sample that is not valid input', async () => {
    const problems = await checkTool(tool(), { samples: [{ text: 5 }] });
    expect(kinds(problems)).toEqual(['samples']);
    expect(problems[0]!.message).toBe(
      'Tool "echo": sample 1 {"text":5} is not valid input, so it checks nothing: Invalid input for echo.text: expected string, received number Fix the sample.',
    );
  });

  it('an output that fails its own output schema on a sample', async () => {
    const problems = await checkTool(tool({ run: ({ text }: { text: string }) => ({ text: text.length }) }), {
      samples: [{ text: 'hello' }],
    });
    expect(kinds(problems)).toEqual(['output']);
    expect(problems[0]!.message).toMatch(
      /^Tool "echo": on sample 1 \{"text":"hello"\} it returned output that fails its own output schema: .*echo.text.*Fix the handler or the output schema\.$/,
    );
  });

  it('runs the handler of a tool that needs approval too, so its faults are found', async () => {
    const risky = { destructive: true, openWorld: true };
    const problems = await checkTool(tool({ annotations: risky, run: ({ text }: { text: string }) => ({ text: text.length }) }), {
      samples: [{ text: 'hello' }],
    });
    expect(kinds(problems)).toEqual(['output']);
    expect(await checkTool(tool({ annotations: risky }), { samples: [{ text: 'hello' }] })).toEqual([]);
  });

  describe('abort handling', () => {
    let release: () => void = () => {};
    afterEach(() => release());

    it('a handler that ignores the abort signal', async () => {
      const stuck = new Promise<void>((resolve) => {
        release = resolve;
      });
      const problems = await checkTool(
        tool({
          timeoutMs: 100,
          run: async ({ text }: { text: string }) => {
            await stuck;
            return { text };
          },
        }),
        { samples: [{ text: 'x' }], abortBoundMs: 50, invalidRuns: 10 },
      );
      expect(kinds(problems)).toEqual(['samples', 'abort']);
      expect(problems.find((problem) => problem.kind === 'abort')!.message).toBe(
        'Tool "echo": on sample 1 {"text":"x"} its handler kept running more than 50 ms after the call was aborted; pass ctx.signal to the I/O it awaits, or check ctx.signal.aborted in loops.',
      );
    });

    it('invalid input reaching a handler that never returns, found without waiting for it', async () => {
      const stuck = new Promise<void>((resolve) => {
        release = resolve;
      });
      const lax = tool({
        timeoutMs: 50,
        input: v.object({ text: v.fallback(v.string(), '') }),
        output: undefined,
        run: async () => {
          await stuck;
          return 'never';
        },
      });
      const problems = await checkTool(lax, { samples: [{ text: 'x' }], abortBoundMs: 20, seed: 7 });
      expect(kinds(problems)).toEqual(['samples', 'abort', 'invalid_input_reached_handler']);
    });

    it('a handler that stops when aborted passes', async () => {
      const problems = await checkTool(
        tool({
          timeoutMs: 50,
          run: ({ text }: { text: string }, ctx) =>
            new Promise((resolve, reject) => {
              ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason));
              if (text === 'done') resolve({ text });
            }),
        }),
        { samples: [{ text: 'done' }, { text: 'waits until aborted' }] },
      );
      expect(problems).toEqual([
        expect.objectContaining({
          kind: 'samples',
          message: expect.stringContaining('sample 2 {"text":"waits until aborted"} did not finish within 50 ms'),
        }),
      ]);
    });
  });

  it('invalid input that reaches the handler', async () => {
    const inputs: unknown[] = [];
    // v.fallback turns any bad value into '', so the handler runs on whatever a model sends.
    const lax = tool({
      input: v.object({ text: v.fallback(v.string(), '') }),
      output: undefined,
      run: (input: unknown) => {
        inputs.push(input);
        return 'ok';
      },
    });
    const problems = await checkTool(lax, { samples: [{ text: 'x' }], seed: 42 });
    expect(kinds(problems)).toEqual(['invalid_input_reached_handler']);
    expect(problems[0]!.message).toMatch(
      /^Tool "echo": its handler ran on invalid input .* \((field "text"|the required field "text").*\)\. Its valibot input schema accepts what its JSON Schema forbids/,
    );
    expect(problems[0]!.message).toContain('replay with seed 42');
    expect(inputs).toContainEqual({ text: '' });
  });

  it('reports several problems of one tool at once', async () => {
    const problems = await checkTool(tool({ name: 'bad name!', description: 'Short' }), { samples: [{ text: 1 }] });
    expect(kinds(problems)).toEqual(['name', 'description', 'samples']);
  });
});
