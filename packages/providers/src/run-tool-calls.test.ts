import { defineTool, ToolRegistry } from '@toolshed/core';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { runToolCalls } from './run-tool-calls.js';

/** A tool that waits until the test releases it, counting how many run at once. */
function gatedRegistry() {
  let running = 0;
  let peak = 0;
  const started: string[] = [];
  const gates = new Map<string, () => void>();
  const registry = new ToolRegistry().register(
    defineTool({
      name: 'wait',
      description: 'Wait until released.',
      input: v.object({ id: v.string() }),
      run: async ({ id }, ctx) => {
        running += 1;
        peak = Math.max(peak, running);
        started.push(id);
        await new Promise<void>((resolve, reject) => {
          gates.set(id, resolve);
          ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason));
        });
        running -= 1;
        return id;
      },
    }),
  );
  const release = async (id: string) => {
    while (!gates.has(id)) await new Promise((resolve) => setImmediate(resolve));
    gates.get(id)!();
  };
  return { registry, release, started, peak: () => peak };
}

const call = (id: string) => ({ callId: `c-${id}`, name: 'wait', input: { id } });

describe('runToolCalls', () => {
  it('keeps call order whatever order the calls finish in, and never runs more than the cap', async () => {
    const { registry, release, started, peak } = gatedRegistry();
    const done = runToolCalls(registry, ['a', 'b', 'c', 'd', 'e'].map(call), { concurrency: 2 });
    await release('b');
    await release('a');
    await release('d');
    await release('c');
    await release('e');
    const outcomes = await done;
    expect(outcomes.map((outcome) => [outcome.callId, outcome.ok && outcome.output])).toEqual([
      ['c-a', 'a'],
      ['c-b', 'b'],
      ['c-c', 'c'],
      ['c-d', 'd'],
      ['c-e', 'e'],
    ]);
    expect(peak()).toBe(2);
    expect(started).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('the signal cancels running and waiting calls alike', async () => {
    const { registry, release, started } = gatedRegistry();
    const controller = new AbortController();
    const done = runToolCalls(registry, ['a', 'b', 'c'].map(call), { concurrency: 1, signal: controller.signal });
    while (started.length === 0) await new Promise((resolve) => setImmediate(resolve));
    controller.abort();
    const outcomes = await done;
    expect(outcomes.map((outcome) => (outcome.ok ? 'ok' : outcome.error.code))).toEqual(['aborted', 'aborted', 'aborted']);
    expect(started).toEqual(['a']);
    void release;
  });

  it('an unreadable call gets its outcome without reaching the handler; subscribers see every call', async () => {
    const { registry, release } = gatedRegistry();
    const events: string[] = [];
    registry.subscribe((event) => events.push(`${event.type} ${event.callId}`));
    const done = runToolCalls(registry, [
      { callId: 'bad', name: 'wait', input: '{', error: { code: 'invalid_input', message: 'Invalid input for wait: the arguments are not valid JSON.' } },
      call('a'),
    ]);
    await release('a');
    const [bad, good] = await done;
    expect(bad).toEqual({
      ok: false,
      callId: 'bad',
      name: 'wait',
      input: '{',
      durationMs: 0,
      error: { code: 'invalid_input', message: 'Invalid input for wait: the arguments are not valid JSON.' },
    });
    expect(good).toMatchObject({ ok: true, callId: 'c-a' });
    // A transcript written from events shows the malformed call too.
    expect(events).toEqual(['call.start bad', 'call.end bad', 'call.start c-a', 'call.end c-a']);
  });

  it('refuses a bad concurrency or a non-array at once', async () => {
    const { registry } = gatedRegistry();
    await expect(runToolCalls(registry, [call('a')], { concurrency: 0 })).rejects.toThrow(
      'concurrency must be a whole number of at least 1, got 0.',
    );
    await expect(runToolCalls(registry, [call('a')], { concurrency: 1.5 })).rejects.toThrow(RangeError);
    await expect(runToolCalls(registry, { name: 'wait' } as never)).rejects.toThrow(
      'runToolCalls expects an array of calls',
    );
    expect(await runToolCalls(registry, [])).toEqual([]);
  });
});
