import { defineTool, ToolRegistry } from '@toolshed/core';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { dispatchCalls } from './run-tool-calls.js';

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

describe('dispatchCalls', () => {
  it('keeps call order whatever order the calls finish in, and never runs more than the cap', async () => {
    const { registry, release, started, peak } = gatedRegistry();
    const done = dispatchCalls(registry, ['a', 'b', 'c', 'd', 'e'].map(call), { concurrency: 2 });
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
    const done = dispatchCalls(registry, ['a', 'b', 'c'].map(call), { concurrency: 1, signal: controller.signal });
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
    const done = dispatchCalls(registry, [
      {
        callId: 'bad',
        name: 'wait',
        input: '{',
        error: { code: 'invalid_input', message: 'Invalid input for wait: the arguments are not valid JSON.' },
      },
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
    await expect(dispatchCalls(registry, [call('a')], { concurrency: 0 })).rejects.toThrow(
      'concurrency must be a whole number of at least 1, got 0.',
    );
    await expect(dispatchCalls(registry, [call('a')], { concurrency: 1.5 })).rejects.toThrow(RangeError);
    await expect(dispatchCalls(registry, { name: 'wait' } as never)).rejects.toThrow('dispatchCalls expects an array of calls');
    expect(await dispatchCalls(registry, [])).toEqual([]);
  });

  it('denies calls to tools that need approval unless a hook or allow-all is given, and passes either to dispatch', async () => {
    const sent: string[] = [];
    const registry = new ToolRegistry()
      .register(
        defineTool({
          name: 'send_email',
          description: 'Send an email.',
          input: v.object({ to: v.string() }),
          annotations: { openWorld: true },
          run: ({ to }) => (sent.push(to), 'sent'),
        }),
      )
      .register(defineTool({ name: 'ping', description: 'Answer pong.', input: v.object({}), run: () => 'pong' }));
    const calls = [
      { callId: 'c1', name: 'send_email', input: { to: 'a@example.com' } },
      { callId: 'c2', name: 'ping', input: {} },
    ];

    const [denied, pong] = await dispatchCalls(registry, calls);
    expect(denied).toMatchObject({
      ok: false,
      callId: 'c1',
      error: {
        code: 'denied',
        message: expect.stringMatching(/^send_email needs approval \(it is open-world\) and this harness has no approval hook/),
      },
    });
    expect(pong).toMatchObject({ ok: true, output: 'pong' });
    expect(sent).toEqual([]);

    const asked: string[] = [];
    const refused = await dispatchCalls(registry, calls, {
      approve: (call) => (asked.push(call.name), { approved: false, reason: 'not today' }),
    });
    expect(refused.map((outcome) => (outcome.ok ? 'ok' : outcome.error.message))).toEqual([
      'The call to send_email was denied: not today. Do not retry it unchanged; ask the user or take another approach.',
      'The call to ping was denied: not today. Do not retry it unchanged; ask the user or take another approach.',
    ]);
    expect(asked).toEqual(['send_email', 'ping']);
    expect(sent).toEqual([]);

    expect((await dispatchCalls(registry, calls, { approve: 'allow-all' })).every((outcome) => outcome.ok)).toBe(true);
    expect(sent).toEqual(['a@example.com']);
    await expect(dispatchCalls(registry, calls, { approve: 'yes' as never })).rejects.toThrow('"approve" must be a function');
    expect(sent).toEqual(['a@example.com']);
  });
});
