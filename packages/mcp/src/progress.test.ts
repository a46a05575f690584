import { defineTool, ToolRegistry, type Progress } from '@toolshed/core';
import type { ServerNotification } from '@modelcontextprotocol/sdk/types.js';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { progressSender } from './progress.js';

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

describe('progressSender', () => {
  it('gives each call its own progress with its own token, beside a call of the same id, and subscribes to nothing', async () => {
    const { registry, live } = setup();
    const a = collector();
    const b = collector();
    await Promise.all([
      registry.dispatch({ name: 'report', input: { values: [1, 2] }, callId: 'same' }, { onProgress: progressSender('token-a', a.send) }),
      registry.dispatch({ name: 'report', input: { values: [5] }, callId: 'same' }, { onProgress: progressSender(7, b.send) }),
      registry.dispatch({ name: 'report', input: { values: [9] }, callId: 'same' }),
    ]);
    expect(a.sent).toEqual([
      { method: 'notifications/progress', params: { progressToken: 'token-a', progress: 1 } },
      { method: 'notifications/progress', params: { progressToken: 'token-a', progress: 2 } },
    ]);
    expect(b.sent).toEqual([{ method: 'notifications/progress', params: { progressToken: 7, progress: 5 } }]);
    expect(live()).toBe(0);
  });

  it('drops progress that does not increase', async () => {
    const { registry } = setup();
    const c = collector();
    await registry.dispatch({ name: 'report', input: { values: [1, 1, 0.5, 2, 2, 3] } }, { onProgress: progressSender('t', c.send) });
    expect(values(c.sent)).toEqual([1, 2, 3]);
  });

  it('carries on when a notification cannot be sent', async () => {
    const { registry } = setup();
    const outcome = await registry.dispatch(
      { name: 'report', input: { values: [1, 2] } },
      { onProgress: progressSender('t', () => Promise.reject(new Error('client gone'))) },
    );
    expect(outcome).toMatchObject({ ok: true, output: 2 });
  });
});
