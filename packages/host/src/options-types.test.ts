import { defineTool, definePlugin } from '@toolshed/core';
import * as v from 'valibot';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { AnyPlugin } from '@toolshed/core';
import { createHost, type PluginEntry, type PluginOptionsOf } from './index.js';

// Shaped like @toolshed/tool-read-file's options: an optional strict object.
const files = definePlugin({
  name: 'files',
  apiVersion: 1,
  options: v.optional(v.strictObject({ root: v.optional(v.string()), maxLines: v.optional(v.number(), 100) }), {}),
  tools: (options) => [
    defineTool({
      name: 'where',
      description: 'Tell the root and the line limit.',
      input: v.object({}),
      run: () => ({ root: options.root ?? '.', maxLines: options.maxLines }),
    }),
  ],
});

const plain = definePlugin({
  name: 'plain',
  apiVersion: 1,
  tools: [defineTool({ name: 'plain', description: 'Take no options.', input: v.object({}), run: () => 'plain' })],
});

describe("options handed over in code are typed from the plugin's own schema", () => {
  it("the type of a plugin's options is what its schema accepts", () => {
    expectTypeOf<PluginOptionsOf<typeof files>>().toEqualTypeOf<{ root?: string; maxLines?: number } | undefined>();
    expectTypeOf<PluginOptionsOf<typeof plain>>().toEqualTypeOf<undefined>();
  });

  it('right options type-check and load, in every entry form', async () => {
    const host = await createHost({ plugins: [[files, { root: 'docs', maxLines: 5 }], plain] });
    expect(await host.registry.dispatch({ name: 'where', input: {} })).toMatchObject({ ok: true, output: { root: 'docs', maxLines: 5 } });
    const other = await createHost({ plugins: [{ plugin: files, options: { maxLines: 2 }, rename: { where: 'here' } }, [plain]] });
    expect(other.registry.list().map((tool) => tool.name)).toEqual(['here', 'plain']);
  });

  it('a wrong type is a type error, and at run time an options failure naming the option', async () => {
    // @ts-expect-error root must be a string
    await expect(createHost({ plugins: [[files, { root: 123 }]] })).rejects.toThrow(
      'files [options]: invalid options: option root: expected string, received number.',
    );
  });

  it('an unknown option is a type error, and at run time `unknown option "maxLinez"`', async () => {
    // @ts-expect-error maxLinez is no option of files
    await expect(createHost({ plugins: [[files, { root: 'docs', maxLinez: 5 }]] })).rejects.toThrow(
      'files [options]: invalid options: unknown option "maxLinez".',
    );
    // @ts-expect-error the object form is checked too
    await expect(createHost({ plugins: [{ plugin: files, options: { maxLinez: 5 } }] })).rejects.toThrow('unknown option "maxLinez"');
  });

  it('options for a plugin that takes none are a type error', async () => {
    // @ts-expect-error plain has no options schema
    await expect(createHost({ plugins: [[plain, { verbose: true }]] })).rejects.toThrow(
      'plain [options]: it takes no options, but was given verbose. Remove them.',
    );
  });

  it('one list may mix plugin objects, names, paths and every entry form', async () => {
    const error = (await createHost({
      plugins: [
        [files, { maxLines: 3 }],
        { plugin: plain, rename: { plain: 'flat' } },
        'tool-not-installed',
        ['./nowhere.js', { any: 1 }],
        { plugin: 'also-missing', options: { any: 2 } },
      ],
    }).catch((thrown: unknown) => thrown)) as Error;
    // Typed entries type-check next to untyped ones; at run time the missing names are what fails.
    expect(error.message).toContain('3 plugins you named could not be loaded');
    expect(error.message).toContain('tool-not-installed [resolve]');
    expect(error.message).toContain('also-missing [resolve]');
    expect(error.message).toContain('./nowhere.js [resolve]');
  });

  it('package names and untyped plugins keep untyped options', async () => {
    const entries: [string, Record<string, unknown>][] = [['tool-not-installed', { anything: 1 }]];
    await expect(createHost({ plugins: entries })).rejects.toThrow('tool-not-installed [resolve]');
  });

  it('a list built elsewhere, typed as PluginEntry[], or holding AnyPlugin, is accepted as before', async () => {
    const untyped: AnyPlugin = files;
    const list: PluginEntry<AnyPlugin | string>[] = [[untyped, { maxLines: 1 }]];
    const host = await createHost({ plugins: list });
    expect(await host.registry.dispatch({ name: 'where', input: {} })).toMatchObject({ ok: true, output: { maxLines: 1 } });
    expectTypeOf<PluginOptionsOf<AnyPlugin>>().toEqualTypeOf<Record<string, unknown>>();
  });

  it("the README's clock: an unknown option is a type error even where a plain object schema would drop it at run time", async () => {
    const clock = definePlugin({
      name: 'my-clock',
      apiVersion: 1,
      options: v.object({ zone: v.optional(v.string(), 'UTC') }),
      tools: (options) => [
        defineTool({ name: 'zone', description: 'Tell the time zone.', input: v.object({}), run: () => ({ zone: options.zone }) }),
      ],
    });
    expectTypeOf<PluginOptionsOf<typeof clock>>().toEqualTypeOf<{ zone?: string }>();
    // @ts-expect-error zone must be a string
    await expect(createHost({ plugins: [[clock, { zone: 7 }]] })).rejects.toThrow(
      'my-clock [options]: invalid options: option zone: expected string, received number.',
    );
    // @ts-expect-error zome is no option of my-clock
    const host = await createHost({ plugins: [[clock, { zome: 'Europe/Paris' }]] });
    expect(await host.registry.dispatch({ name: 'zone', input: {} })).toMatchObject({ ok: true, output: { zone: 'UTC' } });
  });

  it('a plugin whose schema requires an option cannot be handed over without it', async () => {
    const needy = definePlugin({
      name: 'needy',
      apiVersion: 1,
      options: v.object({ token: v.string() }),
      tools: (options) => [
        defineTool({
          name: 'token_length',
          description: 'Tell how long the token is.',
          input: v.object({}),
          run: () => options.token.length,
        }),
      ],
    });
    // @ts-expect-error token is required
    await expect(createHost({ plugins: [needy] })).rejects.toThrow('needy [options]: invalid options: option token is required.');
    // @ts-expect-error token is required
    await expect(createHost({ plugins: [[needy]] })).rejects.toThrow('option token is required');
    // @ts-expect-error token is required
    await expect(createHost({ plugins: [{ plugin: needy }] })).rejects.toThrow('option token is required');
    const host = await createHost({ plugins: [[needy, { token: 'abc' }], files] });
    expect(await host.registry.dispatch({ name: 'token_length', input: {} })).toMatchObject({ ok: true, output: 3 });
    // A plugin whose options are all optional may still be handed over bare, or in the object form without them.
    expect((await createHost({ plugins: [{ plugin: files }, plain] })).registry.list().map((tool) => tool.name)).toEqual([
      'where',
      'plain',
    ]);
  });
});
