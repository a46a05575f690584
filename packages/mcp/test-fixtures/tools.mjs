// Tools for the MCP tests, in plain JS so that a spawned `node` process (the
// stdio server) and the vitest tests share one definition.
import { defineTool, ToolError, ToolRegistry } from '@toolshed/core';
import * as v from 'valibot';

// The echo plugin's tool, written out: this package's tests need no plugin package (host, which
// builds the plugins' manifests, builds after this package, whose types it imports).
export const echo = defineTool({
  name: 'echo',
  description: 'Return the given text unchanged. Useful to check that tool calls work.',
  input: v.object({ text: v.pipe(v.string(), v.description('The text to return.')) }),
  output: v.object({ text: v.string() }),
  annotations: { readOnly: true, idempotent: true },
  run: ({ text }) => ({ text }),
});

/** A registry with tools that exercise every path of tools/call, and a record of what handlers saw. */
/** @param {import("@toolshed/core").RegistryOptions} [registryOptions] */
export function createTestRegistry(registryOptions = {}) {
  const seen = { slowStarted: 0, slowAborted: 0, abortReason: undefined, deleted: 0 };
  let onSlowAbort = () => {};
  const slowAborted = new Promise((resolve) => (onSlowAbort = resolve));

  const slow = defineTool({
    name: 'slow',
    description: 'Wait until cancelled. Reports progress 0 once it is waiting.',
    input: v.object({}),
    output: v.object({ finished: v.boolean() }),
    run: (_input, ctx) =>
      new Promise((resolve) => {
        seen.slowStarted += 1;
        ctx.signal.addEventListener('abort', () => {
          seen.slowAborted += 1;
          seen.abortReason = String(ctx.signal.reason);
          onSlowAbort();
          resolve({ finished: false });
        });
        ctx.report({ progress: 0, message: 'waiting' });
      }),
  });

  // Progress sent just before a result can be lost by the SDK client (it handles
  // notifications a microtask late, after the answer has closed the request).
  // With `ackKey`, each step waits for an `advance` call with that key, which the
  // test's client makes from its progress callback: every notification is then seen.
  const waiting = new Map();
  const steps = defineTool({
    name: 'steps',
    description: 'Count to `count`, reporting progress at each step.',
    input: v.object({
      count: v.pipe(v.number(), v.integer(), v.minValue(1)),
      repeatEach: v.optional(v.boolean()),
      ackKey: v.optional(v.string()),
    }),
    output: v.object({ done: v.number() }),
    run: async ({ count, repeatEach, ackKey }, ctx) => {
      for (let step = 1; step <= count; step += 1) {
        const acked = ackKey === undefined ? undefined : new Promise((resolve) => waiting.set(ackKey, resolve));
        ctx.report({ progress: step, total: count, message: `step ${step} of ${count}` });
        if (repeatEach) ctx.report({ progress: step, total: count, message: `step ${step} again` });
        await (acked ?? new Promise((resolve) => setImmediate(resolve)));
      }
      return { done: count };
    },
  });

  const advance = defineTool({
    name: 'advance',
    description: 'Let the `steps` call waiting with this key go on to its next step.',
    input: v.object({ key: v.string() }),
    run: ({ key }) => {
      const release = waiting.get(key);
      waiting.delete(key);
      release?.();
      return { released: release !== undefined };
    },
  });

  const countWords = defineTool({
    name: 'count_words',
    description: 'Count the words in a text.',
    input: v.object({ text: v.string() }),
    output: v.number(),
    annotations: { title: 'Count words', readOnly: true, idempotent: true, openWorld: false },
    run: ({ text }) => text.split(/\s+/).filter(Boolean).length,
  });

  const deleteRecord = defineTool({
    name: 'delete_record',
    description: 'Delete a record by id. Only ids starting with "tmp-" may be deleted.',
    input: v.object({ id: v.string() }),
    annotations: { destructive: true, openWorld: true },
    run: ({ id }) => {
      if (!id.startsWith('tmp-'))
        throw new ToolError('denied', `delete_record may only delete temporary records (ids starting with "tmp-"); "${id}" is not one.`);
      seen.deleted += 1;
      return `deleted ${id}`;
    },
  });

  const bigNumber = defineTool({
    name: 'big_number',
    description: 'Return a BigInt, which JSON cannot carry.',
    input: v.object({}),
    run: () => ({ value: 10n }),
  });

  const probe = defineTool({
    name: 'probe',
    description: 'Tell what the other test tools saw.',
    input: v.object({}),
    run: () => ({ ...seen }),
  });

  // These tests play an MCP client, which asks its user before a call (as `toolshed serve --yes`
  // trusts it to); approval-by-default.test.ts serves a registry that keeps core's default.
  const registry = new ToolRegistry({ approve: 'allow-all', ...registryOptions });
  for (const tool of [echo, slow, steps, advance, countWords, deleteRecord, bigNumber, probe]) registry.register(tool);
  return { registry, seen, slowAborted };
}
