import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { defineTool } from './tool.js';
import { ToolRegistry } from './registry.js';
import type { ToolEvent } from './events.js';
import { ToolError } from './tool-error.js';

/** An echo tool that counts its runs, to prove the handler never ran on rejected calls. */
function countingEcho() {
  const calls: unknown[] = [];
  const tool = defineTool({
    name: 'echo',
    description: 'Return the given text.',
    input: v.object({ text: v.string() }),
    run: (input) => {
      calls.push(input);
      return { text: input.text };
    },
  });
  return { tool, calls };
}

function registryWith(...tools: Parameters<ToolRegistry['register']>[0][]) {
  const registry = new ToolRegistry();
  for (const tool of tools) registry.register(tool);
  return registry;
}

describe('dispatch: the seed cases', () => {
  it('runs a valid call and reports a structured success', async () => {
    const { tool, calls } = countingEcho();
    const outcome = await registryWith(tool).dispatch({ name: 'echo', input: { text: 'hello' } });
    expect(outcome).toMatchObject({ ok: true, name: 'echo', input: { text: 'hello' }, output: { text: 'hello' } });
    expect(outcome.callId).toMatch(/^call_[0-9a-f]{8}_[0-9a-z]+$/);
    expect(outcome.durationMs).toBeGreaterThanOrEqual(0);
    expect(calls).toEqual([{ text: 'hello' }]);
  });

  it.each([
    [{ text: 123 }, 'Invalid input for echo.text: expected string, received number'],
    [{}, 'Invalid input for echo.text: missing required field "text"'],
    [null, 'Invalid input for echo: expected object, received null'],
    [['hello'], 'Invalid input for echo: expected object, received array'],
    ['hello', 'Invalid input for echo: expected object, received string'],
    [undefined, 'Invalid input for echo: expected object, received undefined'],
    [{ text: null }, 'Invalid input for echo.text: expected string, received null'],
  ])('rejects %j with a message naming the path, and never runs the handler', async (input, message) => {
    const { tool, calls } = countingEcho();
    const outcome = await registryWith(tool).dispatch({ name: 'echo', input });
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.error.code).toBe('invalid_input');
    expect(outcome.error.message).toBe(message);
    expect(outcome.input).toEqual(input);
    expect(calls).toEqual([]);
  });

  it('reports an unknown tool with the tools that exist', async () => {
    const { tool, calls } = countingEcho();
    const outcome = await registryWith(tool).dispatch({ name: 'ehco', input: { text: 'hi' } });
    expect(outcome).toMatchObject({
      ok: false,
      name: 'ehco',
      error: { code: 'unknown_tool', message: 'Unknown tool "ehco"; available tools: echo.' },
    });
    expect(calls).toEqual([]);
  });

  it('never throws for a call that is not even an object', async () => {
    const registry = registryWith(countingEcho().tool);
    for (const call of [null, undefined, 42, 'echo', { name: 42 }, { name: null }]) {
      // biome-ignore lint/suspicious/noExplicitAny: the test hands the registry a value no type allows
      const outcome = await registry.dispatch(call as any);
      expect(outcome.ok).toBe(false);
      if (!outcome.ok) expect(outcome.error.code).toBe('unknown_tool');
    }
  });

  it('lists every issue with its path, first one in the message', async () => {
    const tool = defineTool({
      name: 'nested',
      description: 'Nested input.',
      input: v.object({ a: v.object({ items: v.array(v.object({ b: v.number() })) }), c: v.boolean() }),
      run: () => 'ran',
    });
    const outcome = await registryWith(tool).dispatch({
      name: 'nested',
      input: { a: { items: [{ b: 1 }, { b: 2 }, { b: 'three' }] }, c: 'yes' },
    });
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.error.issues).toEqual([
      { path: ['a', 'items', 2, 'b'], at: 'nested.a.items[2].b', message: 'expected number, received string' },
      { path: ['c'], at: 'nested.c', message: 'expected boolean, received string' },
    ]);
    expect(outcome.error.message).toBe(
      'Invalid input for nested.a.items[2].b: expected number, received string; nested.c: expected boolean, received string',
    );
  });

  it('quotes keys that are not identifiers in paths', async () => {
    const tool = defineTool({
      name: 'odd',
      description: 'Odd keys.',
      input: v.object({ 'first name': v.string() }),
      run: () => 'ran',
    });
    const outcome = await registryWith(tool).dispatch({ name: 'odd', input: { 'first name': 1 } });
    expect(!outcome.ok && outcome.error.message).toBe('Invalid input for odd["first name"]: expected string, received number');
  });

  it("passes on validation actions' own messages", async () => {
    const tool = defineTool({
      name: 'short',
      description: 'Short text.',
      input: v.object({ text: v.pipe(v.string(), v.maxLength(3, 'text must be at most 3 characters')) }),
      run: () => 'ran',
    });
    const outcome = await registryWith(tool).dispatch({ name: 'short', input: { text: 'long' } });
    expect(!outcome.ok && outcome.error.message).toBe('Invalid input for short.text: text must be at most 3 characters');
  });
});

describe('dispatch: non-JSON numbers and values', () => {
  const calls: unknown[] = [];
  const calc = defineTool({
    name: 'calc',
    description: 'Double a number.',
    input: v.object({ x: v.number(), tags: v.optional(v.array(v.unknown())) }),
    run: ({ x }) => {
      calls.push(x);
      return x * 2;
    },
  });

  it.each([
    [{ x: Number.NaN }, 'Invalid input for calc.x: expected a finite number, received NaN'],
    [{ x: Number.POSITIVE_INFINITY }, 'Invalid input for calc.x: expected a finite number, received Infinity'],
    [{ x: Number.NEGATIVE_INFINITY }, 'Invalid input for calc.x: expected a finite number, received -Infinity'],
    [{ x: 1, tags: [1, 2n] }, 'Invalid input for calc.tags[1]: expected a JSON number, received a bigint'],
    [{ x: 1, tags: [() => 1] }, 'Invalid input for calc.tags[0]: expected a JSON value, received a function'],
  ])('rejects %o before validation', async (input, message) => {
    const outcome = await registryWith(calc).dispatch({ name: 'calc', input });
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) {
      expect(outcome.error.code).toBe('invalid_input');
      expect(outcome.error.message).toBe(message);
    }
    expect(calls).toEqual([]);
  });

  it('rejects circular input', async () => {
    const tags: unknown[] = [];
    tags.push(tags);
    const outcome = await registryWith(calc).dispatch({ name: 'calc', input: { x: 1, tags } });
    expect(!outcome.ok && outcome.error.message).toBe(
      'Invalid input for calc.tags[0]: expected a JSON value, received a circular reference',
    );
    expect(calls).toEqual([]);
  });

  it("refuses input nested deeper than the stack (JSON.parse of a model's text takes it), and the next call runs", async () => {
    const text = `{"x":1,"tags":${'['.repeat(200_000)}${']'.repeat(200_000)}}`;
    const outcome = await registryWith(calc).dispatch({ name: 'calc', input: JSON.parse(text) });
    expect(!outcome.ok && outcome.error).toMatchObject({
      code: 'invalid_input',
      message: 'Invalid input for calc: expected a JSON value, received a value nested too deeply to check',
    });
    expect(calls).toEqual([]);
    expect(await registryWith(calc).dispatch({ name: 'calc', input: { x: 3, tags: [[[]]] } })).toMatchObject({ ok: true, output: 6 });
    calls.length = 0;
  });

  it('leaves an input JSON cannot carry out of the outcome and the events, so both are written as JSON (denied and unknown calls too)', async () => {
    const cycle: unknown[] = [];
    cycle.push(cycle);
    const deep = JSON.parse(`{"x":1,"tags":${'['.repeat(200_000)}${']'.repeat(200_000)}}`);
    const risky = defineTool({
      name: 'risky',
      description: 'Destructive: denied with nobody to ask.',
      input: v.object({ x: v.number() }),
      annotations: { destructive: true },
      run: () => 'ran',
    });
    const registry = new ToolRegistry().register(calc).register(risky);
    const written: string[] = [];
    registry.subscribe((event) => written.push(JSON.stringify(event)));
    const cases: [string, unknown, string][] = [
      ['calc', deep, 'invalid_input'],
      ['calc', { x: 1, tags: cycle }, 'invalid_input'],
      ['calc', { x: 1, tags: [10n] }, 'invalid_input'],
      ['calc', 10n, 'invalid_input'],
      ['risky', deep, 'denied'],
      ['nope', { x: 1, tags: cycle }, 'unknown_tool'],
    ];
    for (const [name, input, code] of cases) {
      const outcome = await registry.dispatch({ name, input, callId: `c-${written.length}` });
      expect(outcome).toMatchObject({ ok: false, error: { code } });
      expect(outcome.input).toBeUndefined();
      expect(JSON.parse(JSON.stringify(outcome))).toMatchObject({ ok: false, name, error: { code } });
    }
    // A start and an end per call, each written whole.
    expect(written.map((line) => JSON.parse(line).type)).toEqual(cases.flatMap(() => ['call.start', 'call.end']));
    expect(calls).toEqual([]);
    // A JSON input is still reported as sent.
    const input = { x: 1, tags: ['a'] };
    expect((await registry.dispatch({ name: 'calc', input })).input).toBe(input);
    calls.length = 0;
  });

  it("refuses an input whose getter throws (a harness's object), rather than throwing out of dispatch", async () => {
    const input = {
      x: 1,
      get tags(): unknown[] {
        throw new Error('no reading this');
      },
    };
    const outcome = await registryWith(calc).dispatch({ name: 'calc', input });
    expect(!outcome.ok && outcome.error).toMatchObject({
      code: 'invalid_input',
      message: 'Invalid input for calc: expected a JSON value, received a value that threw when read',
    });
    expect(calls).toEqual([]);
  });

  it('accepts the same value twice when it is not a cycle', async () => {
    const shared = { a: 1 };
    const outcome = await registryWith(calc).dispatch({ name: 'calc', input: { x: 2, tags: [shared, shared] } });
    expect(outcome).toMatchObject({ ok: true, output: 4 });
  });
});

describe('dispatch: prototype pollution', () => {
  it.each([
    '{"text":"hi","__proto__":{"polluted":1}}',
    '{"text":"hi","constructor":{"prototype":{"polluted":1}}}',
    '{"__proto__":{"text":"from proto"}}',
  ])('pollutes nothing with %s', async (json) => {
    const seen: unknown[] = [];
    const tool = defineTool({
      name: 'loose',
      description: 'Keeps unknown keys.',
      input: v.looseObject({ text: v.string() }),
      run: (input) => {
        seen.push(input);
        return input;
      },
    });
    const outcome = await registryWith(tool).dispatch({ name: 'loose', input: JSON.parse(json) });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
    expect(Object.prototype).not.toHaveProperty('text');
    for (const input of seen) {
      expect(Object.getPrototypeOf(input)).toBe(Object.prototype);
      expect((input as Record<string, unknown>).polluted).toBeUndefined();
    }
    if (json.startsWith('{"__proto__":{"text"')) {
      // The key "text" only exists inside __proto__, so it is missing, not inherited.
      expect(!outcome.ok && outcome.error.message).toBe('Invalid input for loose.text: missing required field "text"');
      expect(seen).toEqual([]);
    } else {
      expect(outcome.ok).toBe(true);
    }
  });
});

describe('dispatch: handler failures', () => {
  const failing = (name: string, run: () => unknown) =>
    defineTool({ name, description: 'Fails.', input: v.object({}), run: run as () => never });

  it.each([
    [
      'error',
      () => {
        throw new Error('disk full');
      },
      'error failed: disk full',
    ],
    [
      'string',
      () => {
        throw 'x';
      },
      'string failed: x',
    ],
    [
      'undefined',
      () => {
        throw undefined;
      },
      'undefined failed: it threw undefined instead of an Error',
    ],
    [
      'null',
      () => {
        throw null;
      },
      'null failed: it threw null instead of an Error',
    ],
    [
      'object',
      () => {
        throw { reason: 'quota' };
      },
      'object failed: it threw {"reason":"quota"}',
    ],
    ['rejected', () => Promise.reject(new Error('remote said no')), 'rejected failed: remote said no'],
    ['rejectedEmpty', () => Promise.reject(), 'rejectedEmpty failed: it threw undefined instead of an Error'],
  ])('%s becomes execution_failed with a readable message', async (name, run, message) => {
    const outcome = await registryWith(failing(name, run)).dispatch({ name, input: {} });
    expect(outcome).toMatchObject({ ok: false, name, error: { code: 'execution_failed', message } });
  });

  it('lets a handler choose denied or invalid_input with ToolError', async () => {
    const registry = registryWith(
      failing('guarded', () => {
        throw new ToolError('denied', 'guarded may not read /etc');
      }),
      failing('picky', () => {
        throw new ToolError('invalid_input', 'picky needs a later date');
      }),
    );
    expect(await registry.dispatch({ name: 'guarded', input: {} })).toMatchObject({
      ok: false,
      error: { code: 'denied', message: 'guarded may not read /etc' },
    });
    expect(await registry.dispatch({ name: 'picky', input: {} })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', message: 'picky needs a later date' },
    });
  });

  it('reports output that breaks the output schema as invalid_output', async () => {
    const tool = defineTool({
      name: 'liar',
      description: 'Returns the wrong shape.',
      input: v.object({}),
      output: v.object({ count: v.number() }),
      run: () => ({ count: 'many' }) as unknown as { count: number },
    });
    const outcome = await registryWith(tool).dispatch({ name: 'liar', input: {} });
    expect(outcome).toMatchObject({
      ok: false,
      error: {
        code: 'invalid_output',
        message:
          'liar returned output that breaks its own output schema (a fault in the tool, not in your call) at liar.count: expected number, received string',
        issues: [{ path: ['count'], at: 'liar.count' }],
      },
    });
  });

  it('returns the parsed output when the output schema transforms it', async () => {
    const tool = defineTool({
      name: 'upper',
      description: 'Upper-cases.',
      input: v.object({ text: v.string() }),
      output: v.pipe(v.string(), v.toUpperCase()),
      run: ({ text }) => text,
    });
    expect(await registryWith(tool).dispatch({ name: 'upper', input: { text: 'abc' } })).toMatchObject({ ok: true, output: 'ABC' });
  });

  it('validates async schemas', async () => {
    const tool = defineTool({
      name: 'asyncCheck',
      description: 'Async check.',
      input: v.objectAsync({
        id: v.pipeAsync(
          v.string(),
          v.checkAsync(async (id) => id !== 'taken', 'id is taken'),
        ),
      }),
      run: ({ id }) => id,
    });
    const registry = registryWith(tool);
    expect(await registry.dispatch({ name: 'asyncCheck', input: { id: 'free' } })).toMatchObject({ ok: true, output: 'free' });
    expect(await registry.dispatch({ name: 'asyncCheck', input: { id: 'taken' } })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', message: 'Invalid input for asyncCheck.id: id is taken' },
    });
  });
});

describe('dispatch: timeouts and aborts', () => {
  function hanging() {
    const seen: { signal?: AbortSignal; runs: number } = { runs: 0 };
    const tool = defineTool({
      name: 'hang',
      description: 'Never settles and ignores its signal.',
      input: v.object({}),
      run: (_input, ctx) => {
        seen.runs++;
        seen.signal = ctx.signal;
        return new Promise(() => {});
      },
    });
    return { tool, seen };
  }

  it('resolves a never-settling handler as timeout, and the handler sees its signal abort', async () => {
    const { tool, seen } = hanging();
    const outcome = await registryWith(tool).dispatch({ name: 'hang', input: {} }, { timeoutMs: 50 });
    expect(outcome).toMatchObject({
      ok: false,
      error: { code: 'timeout', message: 'hang did not finish within 50 ms and was stopped. Try a smaller request, or retry later.' },
    });
    expect(seen.signal?.aborted).toBe(true);
    expect((seen.signal!.reason as Error).name).toBe('TimeoutError');
  });

  it('names the origin it was registered from in the timeout message (a plugin, an MCP server), so the reader knows whose tool hung', async () => {
    const { tool } = hanging();
    const registry = new ToolRegistry().register(tool, { origin: 'mcp server "slow"' });
    expect(await registry.dispatch({ name: 'hang', input: {} }, { timeoutMs: 20 })).toMatchObject({
      ok: false,
      error: {
        code: 'timeout',
        message: 'hang (mcp server "slow") did not finish within 20 ms and was stopped. Try a smaller request, or retry later.',
      },
    });
  });

  it('says a timed-out tool that acts outside the host and is not idempotent may still have acted, and to retry only with the same call id', async () => {
    const stopped = async (annotations: Record<string, boolean> | undefined) => {
      const tool = defineTool({
        name: 'hang',
        description: 'Never settles.',
        input: v.object({}),
        annotations,
        run: () => new Promise(() => {}),
      });
      const outcome = await new ToolRegistry({ approve: 'allow-all' })
        .register(tool)
        .dispatch({ name: 'hang', callId: 'call_7', input: {} }, { timeoutMs: 10 });
      return (outcome as { error: { code: string; message: string } }).error;
    };
    const mayHaveActed = {
      code: 'timeout',
      message:
        'hang did not finish within 10 ms and was stopped, but what it was doing may still have happened or may still happen: hang acts outside the host and is not idempotent. ' +
        'Do not call it again as a new call: check whether it took effect first, and retry only with the same call id ("call_7").',
    };
    const retryLater = {
      code: 'timeout',
      message: 'hang did not finish within 10 ms and was stopped. Try a smaller request, or retry later.',
    };
    expect(await stopped({ destructive: true, openWorld: true })).toEqual(mayHaveActed);
    expect(await stopped({ destructive: true })).toEqual(mayHaveActed);
    expect(await stopped({ openWorld: true, idempotent: false })).toEqual(mayHaveActed);
    // Repeating it does no harm, or it changes nothing, or it says nothing of acting beyond the host.
    expect(await stopped({ destructive: true, idempotent: true })).toEqual(retryLater);
    expect(await stopped({ openWorld: true, readOnly: true })).toEqual(retryLater);
    expect(await stopped({ destructive: false, openWorld: false })).toEqual(retryLater);
    expect(await stopped(undefined)).toEqual(retryLater);
  });

  it('lets 30 calls at once that nobody can stop hand their signal on (as fetch does) without a listener-leak warning', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
    process.on('warning', onWarning);
    try {
      let release!: () => void;
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      const signals = new Set<AbortSignal>();
      const tool = defineTool({
        name: 'fetchish',
        description: 'Holds an abort listener on its signal for the length of the call.',
        input: v.object({}),
        run: async (_input, ctx) => {
          const onAbort = () => {};
          ctx.signal.addEventListener('abort', onAbort, { once: true });
          signals.add(ctx.signal);
          await gate;
          ctx.signal.removeEventListener('abort', onAbort);
          return 'done';
        },
      });
      const registry = registryWith(tool);
      const calls = Array.from({ length: 30 }, () => registry.dispatch({ name: 'fetchish', input: {} }));
      await new Promise((resolve) => setTimeout(resolve, 20));
      release();
      const outcomes = await Promise.all(calls);
      await new Promise((resolve) => setImmediate(resolve));
      expect(outcomes.every((outcome) => outcome.ok)).toBe(true);
      // The 30 shared one signal (calls without a timeout or a caller's signal), which never aborts.
      expect(signals.size).toBe(1);
      expect([...signals][0]!.aborted).toBe(false);
      expect(warnings.filter((warning) => warning.startsWith('MaxListenersExceededWarning'))).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('gives a handler that first reads its signal after the stop an aborted signal with the same reason, one object per call', async () => {
    const reads: Record<string, () => AbortSignal> = {};
    const tool = defineTool({
      name: 'late',
      description: 'Looks at its signal only later.',
      input: v.object({ key: v.string() }),
      run: ({ key }, ctx) => {
        reads[key] = () => ctx.signal;
        return new Promise(() => {});
      },
    });
    const registry = registryWith(tool);
    const timedOut = await registry.dispatch({ name: 'late', input: { key: 'timeout' } }, { timeoutMs: 10 });
    expect(!timedOut.ok && timedOut.error.code).toBe('timeout');
    const first = reads.timeout!();
    expect(first.aborted).toBe(true);
    expect((first.reason as Error).name).toBe('TimeoutError');
    expect(reads.timeout!()).toBe(first);

    const controller = new AbortController();
    const pending = registry.dispatch({ name: 'late', input: { key: 'caller' } }, { signal: controller.signal });
    controller.abort('user pressed stop');
    expect(await pending).toMatchObject({ ok: false, error: { code: 'aborted' } });
    expect(reads.caller!().aborted).toBe(true);
    expect(reads.caller!().reason).toBe('user pressed stop');
  });

  it("uses the tool's own default timeout", async () => {
    const { tool } = hanging();
    const outcome = await registryWith({ ...tool, timeoutMs: 20 }).dispatch({ name: 'hang', input: {} });
    expect(!outcome.ok && outcome.error.code).toBe('timeout');
  });

  it('does not run the handler when the caller aborted before the call', async () => {
    const { tool, seen } = hanging();
    const controller = new AbortController();
    controller.abort();
    const outcome = await registryWith(tool).dispatch({ name: 'hang', input: {} }, { signal: controller.signal });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'aborted', message: 'The call to hang was cancelled by the caller.' } });
    expect(seen.runs).toBe(0);
  });

  it('resolves promptly when the caller aborts during the call, passing the reason on', async () => {
    const { tool, seen } = hanging();
    const controller = new AbortController();
    const pending = registryWith(tool).dispatch({ name: 'hang', input: {} }, { signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(seen.runs).toBe(1);
    controller.abort('user pressed stop');
    const outcome = await pending;
    expect(outcome).toMatchObject({
      ok: false,
      error: { code: 'aborted', message: 'The call to hang was cancelled by the caller (user pressed stop).' },
    });
    expect(seen.signal?.aborted).toBe(true);
    expect(seen.signal?.reason).toBe('user pressed stop');
  });

  it('leaves a finished call alone when the timeout would have fired later', async () => {
    const { tool } = countingEcho();
    const controller = new AbortController();
    const outcome = await registryWith(tool).dispatch(
      { name: 'echo', input: { text: 'quick' } },
      { timeoutMs: 1000, signal: controller.signal },
    );
    controller.abort();
    expect(outcome).toMatchObject({ ok: true, output: { text: 'quick' } });
  });

  it('refuses a nonsensical timeout at once, as a programmer error', () => {
    const registry = registryWith(countingEcho().tool);
    expect(() => registry.dispatch({ name: 'echo', input: { text: 'x' } }, { timeoutMs: -1 })).toThrow(
      'dispatch options: "timeoutMs" must be a positive number of milliseconds, got -1',
    );
    expect(() => new ToolRegistry({ timeoutMs: Number.NaN })).toThrow('ToolRegistry options: "timeoutMs" must be a positive number');
  });
});

describe('dispatch: approval', () => {
  it('denies a call before it runs, with the reason', async () => {
    const { tool, calls } = countingEcho();
    const asked: unknown[] = [];
    const registry = new ToolRegistry({
      approve: (call, definition) => {
        asked.push([call.name, call.input, definition.name]);
        return { approved: false, reason: 'echo is switched off today' };
      },
    }).register(tool);
    const outcome = await registry.dispatch({ name: 'echo', input: { text: 'hi' } });
    expect(outcome).toMatchObject({
      ok: false,
      error: {
        code: 'denied',
        message:
          'The call to echo was denied: echo is switched off today. Do not retry it unchanged; ask the user or take another approach.',
      },
    });
    expect(asked).toEqual([['echo', { text: 'hi' }, 'echo']]);
    expect(calls).toEqual([]);
  });

  it('never asks about invalid input', async () => {
    let asked = 0;
    const registry = new ToolRegistry({ approve: () => (asked++, true) }).register(countingEcho().tool);
    await registry.dispatch({ name: 'echo', input: { text: 1 } });
    expect(asked).toBe(0);
  });

  it('denies when the approval hook throws, and a per-call hook overrides the registry one', async () => {
    const { tool, calls } = countingEcho();
    const registry = new ToolRegistry({
      approve: () => {
        throw new Error('policy service down');
      },
    }).register(tool);
    expect(await registry.dispatch({ name: 'echo', input: { text: 'a' } })).toMatchObject({
      ok: false,
      error: { code: 'denied', message: 'The call to echo was denied: the approval check failed (policy service down).' },
    });
    expect(await registry.dispatch({ name: 'echo', input: { text: 'b' } }, { approve: async () => true })).toMatchObject({ ok: true });
    expect(calls).toEqual([{ text: 'b' }]);
  });
});

describe('dispatch: approval by default', () => {
  function risky(annotations: { destructive?: boolean; openWorld?: boolean; readOnly?: boolean }, name = 'send_email') {
    const calls: unknown[] = [];
    const tool = defineTool({
      name,
      description: 'Send a message.',
      input: v.object({ to: v.string() }),
      annotations,
      run: (input) => {
        calls.push(input);
        return 'sent';
      },
    });
    return { tool, calls };
  }

  it.each([
    [{ openWorld: true }, 'open-world'],
    [{ destructive: true }, 'destructive'],
    [{ destructive: true, openWorld: true, readOnly: false }, 'destructive and open-world'],
  ])('denies a call to a tool with %j when no hook is given, and the handler never runs', async (annotations, risk) => {
    const { tool, calls } = risky(annotations);
    const events: ToolEvent[] = [];
    const registry = new ToolRegistry().register(tool);
    registry.subscribe((event) => events.push(event));
    const outcome = await registry.dispatch({ name: 'send_email', input: { to: 'a@example.com' }, callId: 'c1' });
    expect(outcome).toMatchObject({
      ok: false,
      callId: 'c1',
      error: {
        code: 'denied',
        message:
          `send_email needs approval (it is ${risk}) and this harness has no approval hook, so the call was not made. ` +
          'Do not retry it; tell the user what you wanted send_email to do, or take another approach.',
      },
    });
    expect(calls).toEqual([]);
    expect(events.map((event) => event.type)).toEqual(['call.start', 'call.end']);
  });

  it('runs tools that need no approval, and denies a risky call with no hook before reading its input', async () => {
    const { tool: echo, calls: echoed } = countingEcho();
    const { tool, calls } = risky({ destructive: true });
    const registry = new ToolRegistry().register(echo).register(tool);
    expect(await registry.dispatch({ name: 'echo', input: { text: 'hi' } })).toMatchObject({ ok: true });
    expect(echoed).toEqual([{ text: 'hi' }]);
    // Fixing the input could not make this call run: the model hears the denial, not the input error.
    for (const input of [{ to: 7 }, 'not an object']) {
      expect(await registry.dispatch({ name: 'send_email', input })).toMatchObject({ ok: false, error: { code: 'denied' } });
    }
    expect(calls).toEqual([]);
  });

  it('with a hook, checks the input before asking: invalid input is reported and the hook is not asked', async () => {
    const { tool, calls } = risky({ destructive: true });
    const asked: unknown[] = [];
    const registry = new ToolRegistry({ approve: (call) => (asked.push(call.input), true) }).register(tool);
    expect(await registry.dispatch({ name: 'send_email', input: { to: 7 } })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', message: 'Invalid input for send_email.to: expected string, received number' },
    });
    expect(asked).toEqual([]);
    expect(calls).toEqual([]);
  });

  it("'allow-all' on the registry runs every call; a per-call setting overrides it either way", async () => {
    const { tool, calls } = risky({ openWorld: true });
    const open = new ToolRegistry({ approve: 'allow-all' }).register(tool);
    expect(await open.dispatch({ name: 'send_email', input: { to: 'a' } })).toMatchObject({ ok: true, output: 'sent' });
    expect(await open.dispatch({ name: 'send_email', input: { to: 'b' } }, { approve: () => false })).toMatchObject({
      ok: false,
      error: { code: 'denied' },
    });
    const closed = new ToolRegistry().register(tool);
    expect(await closed.dispatch({ name: 'send_email', input: { to: 'c' } }, { approve: 'allow-all' })).toMatchObject({ ok: true });
    expect(calls).toEqual([{ to: 'a' }, { to: 'c' }]);
  });

  it('a hook decides every call, risky or not', async () => {
    const { tool, calls } = risky({ openWorld: true });
    const asked: string[] = [];
    const registry = new ToolRegistry({ approve: (call) => (asked.push(call.name), true) }).register(tool).register(countingEcho().tool);
    expect(await registry.dispatch({ name: 'send_email', input: { to: 'a' } })).toMatchObject({ ok: true });
    expect(await registry.dispatch({ name: 'echo', input: { text: 'x' } })).toMatchObject({ ok: true });
    expect(asked).toEqual(['send_email', 'echo']);
    expect(calls).toEqual([{ to: 'a' }]);
  });

  it.each([true, 'allow', 'yes', null, { approved: true }])('refuses %j as an approval setting at once', (approve) => {
    expect(() => new ToolRegistry({ approve: approve as never })).toThrow(
      /^ToolRegistry options: "approve" must be a function \(call, tool\) => boolean \| \{approved, reason\} or 'allow-all', got /,
    );
    const registry = new ToolRegistry().register(risky({ openWorld: true }).tool);
    expect(() => registry.dispatch({ name: 'send_email', input: { to: 'a' } }, { approve: approve as never })).toThrow(
      /^dispatch options: "approve" must be/,
    );
  });
});

describe('dispatch: call ids, events and progress', () => {
  it('gives every call a unique id and keeps one the caller chose', async () => {
    const registry = registryWith(countingEcho().tool);
    const outcomes = await Promise.all(
      Array.from({ length: 200 }, (_, i) => registry.dispatch({ name: i % 2 ? 'echo' : 'nope', input: { text: 'x' } })),
    );
    expect(new Set(outcomes.map((o) => o.callId)).size).toBe(200);
    expect(await registry.dispatch({ name: 'echo', input: { text: 'x' }, callId: 'toolu_123' })).toMatchObject({ callId: 'toolu_123' });
  });

  it('onProgress hears its own call only, even beside another call of the same id; a bad or throwing one breaks nothing', async () => {
    const gates: (() => void)[] = [];
    let waits = true;
    const tool = defineTool({
      name: 'steps',
      description: 'Reports its tag as progress messages.',
      input: v.object({ tag: v.string() }),
      run: async ({ tag }, ctx) => {
        ctx.report({ progress: 1, message: tag });
        if (waits) await new Promise<void>((resolve) => gates.push(resolve));
        ctx.report({ progress: 2, message: tag });
        return tag;
      },
    });
    const warnings: string[] = [];
    const registry = new ToolRegistry({ logger: { debug() {}, info() {}, warn: (m) => warnings.push(m), error() {} } })
      .register(tool)
      .seal();
    const heard: Record<string, string[]> = { a: [], b: [] };
    const calls = (['a', 'b'] as const).map((tag) =>
      registry.dispatch(
        { name: 'steps', input: { tag }, callId: 'shared-id' },
        { onProgress: (progress) => heard[tag]!.push(`${progress.progress}:${progress.message}`) },
      ),
    );
    // Both calls run at once under one id before either goes on.
    while (gates.length < 2) await new Promise((resolve) => setTimeout(resolve, 1));
    for (const open of gates) open();
    expect((await Promise.all(calls)).map((outcome) => outcome.ok)).toEqual([true, true]);
    expect(heard).toEqual({ a: ['1:a', '2:a'], b: ['1:b', '2:b'] });
    waits = false;

    const throwing = await registry.dispatch(
      { name: 'steps', input: { tag: 'c' } },
      {
        onProgress: () => {
          throw new Error('listener broke');
        },
      },
    );
    expect(throwing).toMatchObject({ ok: true, output: 'c' });
    expect(warnings.filter((line) => line.includes("the caller's progress listener threw: listener broke"))).toHaveLength(2);
    expect(() => registry.dispatch({ name: 'steps', input: { tag: 'd' } }, { onProgress: 'yes' as unknown as () => void })).toThrow(
      'dispatch options: onProgress must be a function, got string.',
    );
  });

  it('emits start, progress and end in order, and a throwing subscriber breaks nothing', async () => {
    const tool = defineTool({
      name: 'steps',
      description: 'Reports progress.',
      input: v.object({}),
      run: async (_input, ctx) => {
        ctx.report({ progress: 1, total: 2, message: 'half' });
        await Promise.resolve();
        ctx.report({ progress: 2, total: 2 });
        return 'done';
      },
    });
    const warnings: string[] = [];
    const registry = new ToolRegistry({
      logger: { debug() {}, info() {}, warn: (m) => warnings.push(m), error() {} },
    }).register(tool);
    const events: ToolEvent[] = [];
    registry.subscribe(() => {
      throw new Error('subscriber bug');
    });
    const unsubscribe = registry.subscribe((event) => events.push(event));
    const outcome = await registry.dispatch({ name: 'steps', input: {}, callId: 'c1' });
    expect(outcome).toMatchObject({ ok: true, output: 'done' });
    expect(events.map((e) => e.type)).toEqual(['call.start', 'call.progress', 'call.progress', 'call.end']);
    expect(events.every((e) => e.callId === 'c1' && e.name === 'steps')).toBe(true);
    expect(events[1]).toMatchObject({ progress: { progress: 1, total: 2, message: 'half' } });
    expect(events[3]).toMatchObject({ type: 'call.end', outcome });
    expect(warnings).toHaveLength(4);
    expect(warnings[0]).toBe('an event subscriber threw: subscriber bug');

    unsubscribe();
    await registry.dispatch({ name: 'steps', input: {} });
    expect(events).toHaveLength(4);
  });

  it('passes on exactly progress, total and message; a report of another shape is dropped with a warning, and the call goes on', async () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const reports: unknown[] = [
      { progress: 1, total: 4, message: 'one', extra: cyclic, big: 1n },
      { progress: 2n },
      { progress: Number.NaN },
      { progress: 3, total: '4' },
      { progress: 3, total: Number.POSITIVE_INFINITY },
      { progress: 3, message: 3 },
      null,
      [1],
      'half',
      { total: 4 },
      {
        get progress(): number {
          throw new Error('no progress here');
        },
      },
      new Proxy(
        {},
        {
          get() {
            throw new Error('a trap');
          },
        },
      ),
      (() => {
        const { proxy, revoke } = Proxy.revocable({ progress: 1 }, {});
        revoke();
        return proxy;
      })(),
      { progress: 4, total: 4 },
    ];
    const tool = defineTool({
      name: 'sloppy',
      description: 'Reports progress of every shape.',
      input: v.object({}),
      run: (_input, ctx) => {
        for (const report of reports) ctx.report(report as never);
        return 'done';
      },
    });
    const warnings: string[] = [];
    const registry = new ToolRegistry({ logger: { debug() {}, info() {}, warn: (m) => warnings.push(m), error() {} } }).register(tool);
    const events: ToolEvent[] = [];
    registry.subscribe((event) => events.push(event));
    expect(await registry.dispatch({ name: 'sloppy', input: {}, callId: 'p1' })).toMatchObject({ ok: true, output: 'done' });
    const progress = events.filter((event) => event.type === 'call.progress');
    expect(progress.map((event) => event.progress)).toEqual([
      { progress: 1, total: 4, message: 'one' },
      { progress: 4, total: 4 },
    ]);
    // Every event is JSON again, as a transcript writes it.
    for (const event of events) expect(JSON.parse(JSON.stringify(event))).toEqual(event);
    const takes = '[sloppy p1] a progress report was dropped: ctx.report() takes { progress: number, total?: number, message?: string };';
    expect(warnings).toEqual([
      `${takes} its progress was bigint, not a finite number.`,
      `${takes} its progress was NaN, not a finite number.`,
      `${takes} its total was string, not a finite number.`,
      `${takes} its total was Infinity, not a finite number.`,
      `${takes} its message was number, not a string.`,
      `${takes} it got null.`,
      `${takes} it got array.`,
      `${takes} it got string.`,
      `${takes} its progress was undefined, not a finite number.`,
      `${takes} reading it threw (no progress here).`,
      `${takes} reading it threw (a trap).`,
      `${takes} reading it threw (TypeError: Cannot perform 'IsArray' on a proxy that has been revoked).`,
    ]);
  });

  it("ends a synchronous handler's call with its progress in order, and drops progress reported after it returned", async () => {
    let late: (() => void) | undefined;
    const tool = defineTool({
      name: 'sync_steps',
      description: 'Reports progress and returns at once.',
      input: v.object({}),
      run: (_input, ctx) => {
        ctx.report({ progress: 1, total: 1 });
        late = () => ctx.report({ progress: 2, total: 1 });
        return 'done';
      },
    });
    const registry = registryWith(tool);
    const events: ToolEvent[] = [];
    registry.subscribe((event) => events.push(event));
    const pending = registry.dispatch({ name: 'sync_steps', input: {} });
    expect(pending).toBeInstanceOf(Promise);
    expect(await pending).toMatchObject({ ok: true, output: 'done' });
    late?.();
    expect(events.map((e) => e.type)).toEqual(['call.start', 'call.progress', 'call.end']);
  });

  it('awaits a handler that returns a thenable that is not a Promise, resolving or rejecting', async () => {
    const thenable = (settle: (resolve: (v: unknown) => void, reject: (e: unknown) => void) => void) => ({
      then: (resolve: (v: unknown) => void, reject: (e: unknown) => void) => setTimeout(() => settle(resolve, reject), 1),
    });
    const make = (name: string, settle: Parameters<typeof thenable>[0]) =>
      defineTool({ name, description: 'Returns a thenable.', input: v.object({}), run: () => thenable(settle) as never });
    const registry = registryWith(
      make('resolves', (resolve) => resolve({ n: 1 })),
      make('rejects', (_resolve, reject) => reject(new Error('backend gone'))),
    );
    expect(await registry.dispatch({ name: 'resolves', input: {} })).toMatchObject({ ok: true, output: { n: 1 } });
    expect(await registry.dispatch({ name: 'rejects', input: {} })).toMatchObject({
      ok: false,
      error: { code: 'execution_failed', message: 'rejects failed: backend gone' },
    });
  });

  it('reports a handler that throws before returning as execution_failed, as a promise', async () => {
    const tool = defineTool({
      name: 'throws_at_once',
      description: 'Throws synchronously.',
      input: v.object({}),
      run: () => {
        throw new Error('no disk');
      },
    });
    const pending = registryWith(tool).dispatch({ name: 'throws_at_once', input: {} });
    expect(pending).toBeInstanceOf(Promise);
    expect(await pending).toMatchObject({ ok: false, error: { code: 'execution_failed', message: 'throws_at_once failed: no disk' } });
  });

  it('emits end for failures too, and ignores progress reported after the call ended', async () => {
    let late: (() => void) | undefined;
    const tool = defineTool({
      name: 'slow',
      description: 'Reports after its timeout.',
      input: v.object({}),
      run: (_input, ctx) =>
        new Promise(() => {
          late = () => ctx.report({ progress: 1 });
        }),
    });
    const registry = registryWith(tool);
    const events: ToolEvent[] = [];
    registry.subscribe((event) => events.push(event));
    await registry.dispatch({ name: 'slow', input: {} }, { timeoutMs: 10 });
    late?.();
    expect(events.map((e) => e.type)).toEqual(['call.start', 'call.end']);
  });

  it('gives the handler a logger scoped to the call', async () => {
    const lines: [string, unknown][] = [];
    const tool = defineTool({
      name: 'chatty',
      description: 'Logs.',
      input: v.object({}),
      run: (_input, ctx) => {
        ctx.log.info('working', { step: 1 });
        return 'ok';
      },
    });
    const registry = new ToolRegistry({
      logger: { debug() {}, info: (m, d) => lines.push([m, d]), warn() {}, error() {} },
    }).register(tool);
    await registry.dispatch({ name: 'chatty', input: {}, callId: 'abc' });
    expect(lines).toEqual([['[chatty abc] working', { step: 1 }]]);
  });

  it('measures duration with sub-millisecond precision, validation included', async () => {
    const registry = registryWith(countingEcho().tool);
    const durations = new Set<number>();
    for (let i = 0; i < 20; i++) durations.add((await registry.dispatch({ name: 'echo', input: { text: 'x' } })).durationMs);
    expect([...durations].some((d) => !Number.isInteger(d))).toBe(true);
    const invalid = await registry.dispatch({ name: 'echo', input: { text: 1 } });
    expect(invalid.durationMs).toBeGreaterThan(0);
  });
});

describe('reject', () => {
  it('reports a call that could not be read, with events, and runs nothing', async () => {
    const { tool, calls } = countingEcho();
    const registry = registryWith(tool);
    const events: ToolEvent[] = [];
    registry.subscribe((event) => events.push(event));
    const error = { code: 'invalid_input' as const, message: 'Invalid input for echo: the arguments are not valid JSON.' };
    const outcome = registry.reject({ name: 'echo', input: '{"text":', callId: 'call_7' }, error);
    expect(outcome).toEqual({ ok: false, callId: 'call_7', name: 'echo', input: '{"text":', durationMs: 0, error });
    expect(events.map((e) => [e.type, e.callId])).toEqual([
      ['call.start', 'call_7'],
      ['call.end', 'call_7'],
    ]);
    expect(calls).toEqual([]);
    expect(registry.reject({ name: 'echo', input: 'x' }, error).callId).toMatch(/^call_/);
  });
});
