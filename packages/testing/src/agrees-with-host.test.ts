import { definePlugin, defineTool, type AnyPlugin } from '@toolshed/core';
import { createHost, isHostError, type PluginFailure } from '@toolshed/host';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { checkPlugin } from './check-plugin.js';

// The kit promises to check a plugin the way the host loads it. Both go through core's
// instantiatePlugin; these tests hold them to it, one rule at a time, on the same input.

const greet = defineTool({
  name: 'greet',
  description: 'Greet someone by name, in the configured greeting.',
  input: v.object({ name: v.string() }),
  run: ({ name }) => `Hello, ${name}`,
});

const SECRET = 'hunter2-is-not-an-address';

const withOptions = definePlugin({
  name: 'tool-greet',
  apiVersion: 1,
  options: v.object({ greeting: v.string(), contact: v.optional(v.pipe(v.string(), v.email())) }),
  tools: () => [greet],
});

async function hostFailure(
  plugin: AnyPlugin,
  options: Record<string, unknown> | undefined,
  env: Record<string, string>,
): Promise<PluginFailure | undefined> {
  const entry = options === undefined ? plugin : ([plugin, options] as const);
  try {
    const host = await createHost({ plugins: [entry as never], env });
    await host.close();
    return undefined;
  } catch (error) {
    if (!isHostError(error)) throw error;
    return error.plugins[0]?.error;
  }
}

async function kitFailure(plugin: AnyPlugin, options: Record<string, unknown> | undefined, env: Record<string, string>) {
  const problems = await checkPlugin(plugin, {
    ...(options ? { options } : {}),
    env,
    samples: { greet: [{ name: 'Ada' }] },
    invalidRuns: 5,
  });
  return problems.filter((problem) => problem.kind === 'plugin');
}

const cases: { rule: string; plugin: AnyPlugin; options?: Record<string, unknown>; env?: Record<string, string>; field?: string }[] = [
  {
    rule: 'an apiVersion outside the supported range',
    plugin: { ...withOptions, apiVersion: 2 },
    options: { greeting: 'Hi' },
    field: 'apiVersion',
  },
  { rule: 'a non-integer apiVersion', plugin: { ...withOptions, apiVersion: 1.5 }, options: { greeting: 'Hi' }, field: 'apiVersion' },
  {
    rule: 'options given to a plugin that takes none',
    plugin: definePlugin({ name: 'tool-plain', apiVersion: 1, tools: [greet] }),
    options: { verbose: true },
    field: 'verbose',
  },
  { rule: 'an option of the wrong type', plugin: withOptions, options: { greeting: 5 }, field: 'greeting' },
  {
    rule: 'an option failing a check that quotes its value (redacted)',
    plugin: withOptions,
    options: { greeting: 'Hi', contact: SECRET },
    field: 'contact',
  },
  {
    rule: 'an unknown option',
    plugin: definePlugin({ ...withOptions, options: v.strictObject({ greeting: v.string() }) }),
    options: { greeting: 'Hi', greting: 'x' },
    field: 'greting',
  },
  { rule: 'a required option left out', plugin: withOptions, options: {}, field: 'greeting' },
  {
    rule: 'an {"env"} reference to an unset variable',
    plugin: withOptions,
    options: { greeting: { env: 'GREETING_UNSET' } },
    field: 'greeting',
  },
];

describe('checkPlugin and the host agree', () => {
  it.each(cases)('on $rule: the same phase, field and words', async ({ plugin, options, env = {}, field }) => {
    const host = await hostFailure(plugin, options, env);
    const kit = await kitFailure(plugin, options, env);
    expect(host).toBeDefined();
    // Each names where its user wrote the options (the one difference, in the env case's advice).
    const where = (text: string) => text.replace(/the createHost options|the options given to checkPlugin/, '<where the options are>');
    expect(kit.map((problem) => ({ ...problem, message: where(problem.message) }))).toEqual([
      { kind: 'plugin', field, message: where(`Plugin "${plugin.name}": ${host!.message}`) },
    ]);
    expect(host!.field).toBe(field);
    expect(JSON.stringify([host, kit])).not.toContain(SECRET);
  });

  it('on an {"env"} reference to a set variable: both load the plugin with its value', async () => {
    const env = { GREETING: 'Hej' };
    expect(await hostFailure(withOptions, { greeting: { env: 'GREETING' } }, env)).toBeUndefined();
    expect(await kitFailure(withOptions, { greeting: { env: 'GREETING' } }, env)).toEqual([]);
  });
});
