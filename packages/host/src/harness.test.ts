import { defineTool, definePlugin, type ToolEvent } from '@toolshed/core';
import * as v from 'valibot';
import { afterEach, describe, expect, it } from 'vitest';
import { createHost } from './index.js';
import { Project } from './project.fixture.js';

const clock = definePlugin({
  name: 'my-clock',
  apiVersion: 1,
  options: v.object({ zone: v.optional(v.string(), 'UTC') }),
  tools: (options) => [
    defineTool({
      name: 'now',
      description: 'Tell the time zone the clock runs in.',
      input: v.object({}),
      run: () => ({ zone: options.zone }),
    }),
  ],
});

const counter = definePlugin({
  name: 'my-counter',
  apiVersion: 1,
  tools: [
    defineTool({
      name: 'count',
      description: 'Count the words of a text.',
      input: v.object({ text: v.string() }),
      run: ({ text }) => ({ words: text.split(/\s+/).filter(Boolean).length }),
    }),
  ],
});

let project: Project | undefined;
afterEach(() => project?.remove());

describe('a custom harness composed in code', () => {
  it('gets exactly the two plugins it names, with options, and ignores config and dependencies', async () => {
    project = new Project();
    project.plugin({ name: 'tool-a', tools: [{ name: 'alpha' }] });
    project.packageJson({ dependencies: { 'tool-a': '^1' } });
    project.config('{ this config is not even JSON');
    const events: ToolEvent['type'][] = [];

    const host = await createHost({
      cwd: project.dir,
      plugins: [[clock, { zone: 'Europe/Paris' }], counter],
      registry: { timeoutMs: 5000 },
    });
    host.registry.subscribe((event) => events.push(event.type));

    expect(host.registry.sealed).toBe(true);
    expect(host.registry.list().map((tool) => tool.name)).toEqual(['now', 'count']);
    expect(host.plugins.map(({ name, source, status, tools, imported }) => ({ name, source, status, tools, imported }))).toEqual([
      { name: 'my-clock', source: 'code', status: 'loaded', tools: ['now'], imported: true },
      { name: 'my-counter', source: 'code', status: 'loaded', tools: ['count'], imported: true },
    ]);
    expect(await host.registry.dispatch({ name: 'now', input: {} })).toMatchObject({ ok: true, output: { zone: 'Europe/Paris' } });
    expect(await host.registry.dispatch({ name: 'count', input: { text: 'one two  three' } })).toMatchObject({
      ok: true,
      output: { words: 3 },
    });
    expect(events).toEqual(['call.start', 'call.end', 'call.start', 'call.end']);
    expect(await host.loadAll()).toHaveLength(2);
  });

  it('can opt in to discovery next to its own plugins, and rename in code', async () => {
    project = new Project();
    project.plugin({ name: 'tool-a', tools: [{ name: 'count' }] });
    project.packageJson({ dependencies: { 'tool-a': '^1' } });
    const host = await createHost({ cwd: project.dir, plugins: [counter], discover: true, rename: { now: 'unused' } });
    // The dependency's `count` collides with the harness's own: the discovered one is skipped, the harness's wins.
    expect(host.registry.list().map((tool) => tool.name)).toEqual(['count']);
    expect(host.plugins[1]).toMatchObject({ name: 'tool-a', status: 'skipped', error: { phase: 'register' } });
    expect(host.warnings).toEqual(['rename: no loaded plugin offers a tool named "now"; the rename does nothing.']);
  });

  it('refuses invalid options handed over in code, naming the plugin and the option', async () => {
    // @ts-expect-error zone must be a string (see options-types.test.ts): this is the run-time check behind the type.
    await expect(createHost({ plugins: [[clock, { zone: 7 }], counter] })).rejects.toThrow(
      '1 plugin you named could not be loaded:\n  - my-clock [options]: invalid options: option zone: expected string, received number.',
    );
  });

  it('refuses two harness plugins with the same tool name, naming both', async () => {
    const twin = definePlugin({ ...counter, name: 'my-twin' });
    await expect(createHost({ plugins: [counter, twin] })).rejects.toThrow(
      'my-twin [register]: tool "count" is offered by both my-counter and my-twin.',
    );
  });
});

describe('approval in a harness built with createHost', () => {
  const sent: string[] = [];
  const mailer = definePlugin({
    name: 'my-mailer',
    apiVersion: 1,
    tools: [
      defineTool({
        name: 'send_email',
        description: 'Send an email to one address.',
        input: v.object({ to: v.string() }),
        annotations: { openWorld: true },
        run: ({ to }) => (sent.push(to), `sent to ${to}`),
      }),
    ],
  });

  it('denies a call to a tool that needs approval when the harness gives no approve setting', async () => {
    sent.length = 0;
    const host = await createHost({ plugins: [mailer, counter] });
    expect(await host.registry.dispatch({ name: 'send_email', input: { to: 'a@example.com' } })).toMatchObject({
      ok: false,
      error: {
        code: 'denied',
        message:
          'send_email needs approval (it is open-world) and this harness has no approval hook, so the call was not made. ' +
          'Do not retry it; tell the user what you wanted send_email to do, or take another approach.',
      },
    });
    expect(await host.registry.dispatch({ name: 'count', input: { text: 'still runs' } })).toMatchObject({ ok: true });
    expect(sent).toEqual([]);
  });

  it("asks the harness's hook, or runs everything with 'allow-all'", async () => {
    sent.length = 0;
    const asked: string[] = [];
    const { approvalPolicy } = await import('@toolshed/core');
    const asking = await createHost({
      plugins: [mailer],
      registry: {
        approve: approvalPolicy((call) => (asked.push(JSON.stringify(call.input)), { approved: false, reason: 'the user said no' })),
      },
    });
    expect(await asking.registry.dispatch({ name: 'send_email', input: { to: 'b@example.com' } })).toMatchObject({
      ok: false,
      error: { code: 'denied', message: expect.stringContaining('denied: the user said no') },
    });
    expect(asked).toEqual(['{"to":"b@example.com"}']);
    const open = await createHost({ plugins: [mailer], registry: { approve: 'allow-all' } });
    expect(await open.registry.dispatch({ name: 'send_email', input: { to: 'c@example.com' } })).toMatchObject({ ok: true });
    expect(sent).toEqual(['c@example.com']);
  });

  it('tools named like Object.prototype keys (__proto__, constructor, toString) keep their names, and can be renamed', async () => {
    const keys = definePlugin({
      name: 'prototype-keys',
      apiVersion: 1,
      tools: ['__proto__', 'constructor', 'toString'].map((name) =>
        defineTool({ name, description: `A tool called ${name}.`, input: v.object({}), run: () => `ran ${name}` }),
      ),
    });
    const names = (built: { registry: { list(): { name: string }[] } }) =>
      built.registry
        .list()
        .map((tool) => tool.name)
        .sort();
    const host = await createHost({ plugins: [keys] });
    expect(names(host)).toEqual(['__proto__', 'constructor', 'toString']);
    expect(await host.registry.dispatch({ name: '__proto__', input: {} })).toMatchObject({ ok: true, output: 'ran __proto__' });
    const renamed = await createHost({ plugins: [keys], rename: { constructor: 'build' } });
    expect(names(renamed)).toEqual(['__proto__', 'build', 'toString']);
  });

  it('refuses a rename to a name a model API refuses, with the rule', async () => {
    await expect(createHost({ plugins: [counter], rename: { count: '2count' } })).rejects.toThrow(
      'cannot rename count to "2count": a tool name is a letter or "_" first, then letters, digits, "_" or "-", at most 64 in all',
    );
  });
});

describe('host.close', () => {
  it("calls each loaded tool's close(), once, and survives one that throws", async () => {
    const closed: string[] = [];
    const closing = (name: string, fails = false) =>
      Object.assign(
        defineTool({ name, description: `A tool called ${name} that holds a resource.`, input: v.object({}), run: () => name }),
        {
          close: () => {
            closed.push(name);
            if (fails) throw new Error('already closed');
          },
        },
      );
    const plugin = definePlugin({ name: 'holder', apiVersion: 1, tools: () => [closing('pool'), closing('file', true)] });
    const host = await createHost({ plugins: [plugin] });
    expect(await host.registry.dispatch({ name: 'pool', input: {} })).toMatchObject({ ok: true, output: 'pool' });
    await host.close();
    expect(closed.sort()).toEqual(['file', 'pool']);
  });
});
