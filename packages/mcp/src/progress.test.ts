import { defineTool, ToolRegistry, type Progress } from '@toolshed/core';
import type { ServerNotification } from '@modelcontextprotocol/sdk/types.js';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { forwardProgress } from './progress.js';

/** A registry whose tool reports what it is told to, and that counts live subscriptions. */
function setup() {
  const registry = new ToolRegistry();
  registry.register(
    defineTool({
      name: 'report',
      description: 'Report the given progress values.',
      input: v.object({ values: v.array(v.number()) }),
      run: ({ values }, ctx) => {
        for (const progress of values) ctx.report({ progress });
        return values.length;
      },
    }),
  );
  let live = 0;
  const subscribe = registry.subscribe.bind(registry);
  registry.subscribe = (listener) => {
    live += 1;
    const unsubscribe = subscribe(listener);
    return () => {
      live -= 1;
      unsubscribe();
    };
  };
  return { registry, live: () => live };
}

function collector() {
  const sent: ServerNotification[] = [];
  return { sent, send: async (notification: ServerNotification) => void sent.push(notification) };
}

const values = (sent: ServerNotification[]) => sent.map((n) => (n.params as Progress & { progressToken: unknown }).progress);

describe('forwardProgress', () => {
  it('routes each call its own progress, with its own token, through one subscription', async () => {
    const { registry, live } = setup();
    const a = collector();
    const b = collector();
    const stopA = forwardProgress(registry, 'call-a', 'token-a', a.send);
    const stopB = forwardProgress(registry, 'call-b', 7, b.send);
    expect(live()).toBe(1);
    await registry.dispatch({ name: 'report', input: { values: [1, 2] }, callId: 'call-a' });
    await registry.dispatch({ name: 'report', input: { values: [5] }, callId: 'call-b' });
    await registry.dispatch({ name: 'report', input: { values: [9] }, callId: 'call-c' });
    expect(a.sent).toEqual([
      { method: 'notifications/progress', params: { progressToken: 'token-a', progress: 1 } },
      { method: 'notifications/progress', params: { progressToken: 'token-a', progress: 2 } },
    ]);
    expect(b.sent).toEqual([{ method: 'notifications/progress', params: { progressToken: 7, progress: 5 } }]);
    stopA();
    expect(live()).toBe(1);
    stopB();
    expect(live()).toBe(0);
  });

  it('subscribes again for calls after every earlier one ended', async () => {
    const { registry, live } = setup();
    forwardProgress(registry, 'first', 1, collector().send)();
    const later = collector();
    const stop = forwardProgress(registry, 'later', 2, later.send);
    expect(live()).toBe(1);
    await registry.dispatch({ name: 'report', input: { values: [3] }, callId: 'later' });
    expect(values(later.sent)).toEqual([3]);
    stop();
    expect(live()).toBe(0);
  });

  it('drops progress that does not increase', async () => {
    const { registry } = setup();
    const c = collector();
    const stop = forwardProgress(registry, 'call', 't', c.send);
    await registry.dispatch({ name: 'report', input: { values: [1, 1, 0.5, 2, 2, 3] }, callId: 'call' });
    stop();
    expect(values(c.sent)).toEqual([1, 2, 3]);
  });

  it('carries on when a notification cannot be sent', async () => {
    const { registry } = setup();
    const stop = forwardProgress(registry, 'call', 't', () => Promise.reject(new Error('client gone')));
    const outcome = await registry.dispatch({ name: 'report', input: { values: [1, 2] }, callId: 'call' });
    stop();
    expect(outcome).toMatchObject({ ok: true, output: 2 });
  });
});
