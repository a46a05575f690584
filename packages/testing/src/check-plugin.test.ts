import { definePlugin, defineTool, type AnyPlugin } from '@toolshed/core';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { checkPlugin } from './check-plugin.js';
import { expectConformance } from './expect-conformance.js';
import { ConformanceError } from './problem.js';

const greet = defineTool({
  name: 'greet',
  description: 'Greet someone by name, in the greeting the plugin was configured with.',
  input: v.object({ name: v.string() }),
  output: v.object({ message: v.string() }),
  run: ({ name }) => ({ message: `Hello, ${name}` }),
});

const Options = v.object({ greeting: v.optional(v.string(), 'Hello') });

function plugin(overrides: Partial<AnyPlugin> = {}): AnyPlugin {
  return definePlugin({
    name: '@acme/tool-greet',
    apiVersion: 1,
    options: Options,
    tools: (options: v.InferOutput<typeof Options>) => [
      defineTool({ ...greet, run: ({ name }: { name: string }) => ({ message: `${options.greeting}, ${name}` }) }),
    ],
    ...overrides,
  } as AnyPlugin);
}

const samples = { greet: [{ name: 'Ada' }] };

describe('checkPlugin', () => {
  it('finds nothing in a conforming plugin, with its options applied', async () => {
    expect(await checkPlugin(plugin(), { samples, options: { greeting: 'Hi' } })).toEqual([]);
    await expect(expectConformance(plugin(), { samples })).resolves.toBeUndefined();
  });

  it('an apiVersion this core does not speak', async () => {
    const problems = await checkPlugin(plugin({ apiVersion: 2 }), { samples });
    expect(problems).toEqual([
      {
        kind: 'plugin',
        field: 'apiVersion',
        message:
          'Plugin "@acme/tool-greet": it declares apiVersion 2, but this host supports apiVersion 1. Upgrade @toolshed/host (or @toolshed/cli), or install an older version of the plugin.',
      },
    ]);
  });

  it('a missing name', async () => {
    const problems = await checkPlugin({ ...plugin(), name: '' }, { samples });
    expect(problems).toEqual([
      { kind: 'plugin', field: 'name', message: 'Plugin (unnamed): the plugin handed to checkPlugin: "name" must be a non-empty string.' },
    ]);
  });

  it('options that do not fit the options schema, naming the field', async () => {
    const problems = await checkPlugin(plugin(), { samples, options: { greeting: 5 } });
    expect(problems).toEqual([
      {
        kind: 'plugin',
        field: 'greeting',
        message: 'Plugin "@acme/tool-greet": invalid options: option greeting: expected string, received number.',
      },
    ]);
  });

  it('a tools factory that throws', async () => {
    const problems = await checkPlugin(
      plugin({
        tools: () => {
          throw new Error('SMTP host missing');
        },
      }),
    );
    expect(problems).toEqual([
      { kind: 'plugin', message: 'Plugin "@acme/tool-greet": its tools could not be created with these options: SMTP host missing' },
    ]);
  });

  it('tools that are not a list, or an empty one', async () => {
    expect(await checkPlugin(plugin({ tools: greet as never }))).toEqual([
      expect.objectContaining({
        kind: 'plugin',
        field: 'tools',
        message: expect.stringContaining('"tools" must be a list of tools or a function'),
      }),
    ]);
    expect(await checkPlugin(plugin({ tools: [] }))).toEqual([
      expect.objectContaining({
        kind: 'plugin',
        message: 'Plugin "@acme/tool-greet": offers no tools; a plugin exists to offer at least one.',
      }),
    ]);
  });

  it('two tools with one name', async () => {
    const problems = await checkPlugin(plugin({ tools: [greet, { ...greet }] }), { samples });
    expect(problems).toEqual([
      {
        kind: 'duplicate_name',
        tool: 'greet',
        message: 'Plugin "@acme/tool-greet": tools 1 and 2 are both named "greet"; a host registers one name once, so rename one.',
      },
    ]);
  });

  it('samples for a tool it does not offer (a typo)', async () => {
    const problems = await checkPlugin(plugin(), { samples: { ...samples, gret: [{ name: 'x' }] } });
    expect(problems).toEqual([
      {
        kind: 'plugin',
        message: 'Plugin "@acme/tool-greet": samples were given for "gret", but it offers no tool of that name (it offers greet).',
      },
    ]);
  });

  it('closes the tools its factory built, when they can be closed', async () => {
    let closed = 0;
    const closable = plugin({ tools: () => [Object.assign({ ...greet }, { close: () => void (closed += 1) })] });
    expect(await checkPlugin(closable, { samples })).toEqual([]);
    expect(closed).toBe(1);
  });

  it('a tool the host would refuse, with its kind, tool and field', async () => {
    const problems = await checkPlugin(plugin({ tools: [greet, { ...greet, name: 'dated', input: v.object({ when: v.date() }) }] }), {
      samples,
    });
    expect(problems).toEqual([
      {
        kind: 'schema',
        tool: 'dated',
        field: 'input',
        message: expect.stringMatching(/^Tool "dated": its input schema cannot be converted to JSON Schema: /),
      },
    ]);
  });

  it('passes every tool through checkTool', async () => {
    const problems = await checkPlugin(plugin({ tools: [greet, { ...greet, name: 'shout', description: 'Too short' }] }), { samples });
    expect(problems.map((problem) => [problem.kind, problem.tool])).toEqual([
      ['description', 'shout'],
      ['samples', 'shout'],
    ]);
  });
});

describe('expectConformance', () => {
  it('rejects with every problem listed, for a plugin', async () => {
    const broken = plugin({ tools: [{ ...greet, description: 'Hi' }] });
    const error = await expectConformance(broken).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConformanceError);
    expect((error as ConformanceError).problems).toHaveLength(2);
    expect((error as Error).message).toBe(
      [
        '2 conformance problems in plugin "@acme/tool-greet":',
        '  - Tool "greet": the description "Hi" is 2 characters; write at least 20: what it does, when to use it, what it returns.',
        '  - Tool "greet": has no samples, so its output and abort handling were not checked; pass samples: [{...}] with valid inputs.',
      ].join('\n'),
    );
  });

  it('stops at a plugin the host would not load, as the host does', async () => {
    const broken = plugin({ apiVersion: 3, tools: [{ ...greet, description: 'Hi' }] });
    const error = await expectConformance(broken, { samples }).catch((caught: unknown) => caught);
    expect((error as ConformanceError).problems).toEqual([expect.objectContaining({ kind: 'plugin', field: 'apiVersion' })]);
  });

  it('checks a single tool too', async () => {
    await expect(expectConformance(greet, { samples: [{ name: 'Ada' }] })).resolves.toBeUndefined();
    await expect(expectConformance({ ...greet, name: 'a b' }, { samples: [{ name: 'Ada' }] })).rejects.toThrow(
      /^1 conformance problem in tool "a b":\n {2}- Tool "a b": the name is not one model APIs accept/,
    );
  });
});
