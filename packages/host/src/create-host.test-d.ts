import { defineTool, definePlugin, type AnyPlugin } from '@toolshed/core';
import * as v from 'valibot';
import { describe, expectTypeOf, it } from 'vitest';
import { createHost, type Host, type PluginOptionsOf } from './index.js';

// createHost's options as the compiler sees them (vitest --typecheck; never run). The entry forms
// and their options checks at run time are in options-types.test.ts; this file holds what has no
// run-time side: the host options themselves, and where an {"env": NAME} reference may be written.

// Shaped like @toolshed/tool-send-email's options: a secret among plain settings.
const mailer = definePlugin({
  name: 'mailer',
  apiVersion: 1,
  options: v.object({ from: v.string(), smtp: v.optional(v.object({ host: v.string(), password: v.optional(v.string()) })) }),
  tools: (options) => [defineTool({ name: 'sender', description: 'Tell the sender.', input: v.object({}), run: () => options.from })],
});

describe('createHost options', () => {
  it('resolves to a Host', () => {
    expectTypeOf(createHost).returns.toEqualTypeOf<Promise<Host>>();
    expectTypeOf(createHost({ cwd: '/project', discover: false, config: false })).toEqualTypeOf<Promise<Host>>();
  });

  it('refuses an option that does not exist, and options of the wrong type', () => {
    // @ts-expect-error cwdd is not an option
    void createHost({ cwdd: '/project' });
    // @ts-expect-error discover is a boolean
    void createHost({ discover: 'yes' });
    // @ts-expect-error environment values are strings
    void createHost({ env: { SMTP_PASSWORD: 1234 } });
    // @ts-expect-error the config object has `plugins`, not `plugin`
    void createHost({ config: { plugin: ['@toolshed/tool-echo'] } });
    // @ts-expect-error approve takes a hook or 'allow-all'
    void createHost({ registry: { approve: 'yes' } });
  });

  it('takes a config file path, a config object, or false', () => {
    void createHost({ config: 'toolshed.config.json' });
    void createHost({
      config: { plugins: [['@toolshed/tool-send-email', { smtp: { password: { env: 'SMTP_PASSWORD' } } }]], discover: false },
    });
    void createHost({ config: false, env: { SMTP_PASSWORD: undefined } });
  });
});

describe('where a secret goes', () => {
  it('a plugin named by package or path takes untyped options, so an {"env": NAME} reference, as in the config file', () => {
    void createHost({ plugins: [['@toolshed/tool-send-email', { from: 'a@example.com', smtp: { password: { env: 'SMTP_PASSWORD' } } }]] });
    void createHost({ plugins: [{ plugin: './plugins/mailer.js', options: { smtp: { password: { env: 'SMTP_PASSWORD' } } } }] });
  });

  it('a plugin object handed over in code takes its options as its schema types them: the value, not a reference', () => {
    expectTypeOf<PluginOptionsOf<typeof mailer>>().toEqualTypeOf<{ from: string; smtp?: { host: string; password?: string } }>();
    void createHost({ plugins: [[mailer, { from: 'a@example.com', smtp: { host: 'h', password: 'the value' } }]] });
    // @ts-expect-error in code a typed plugin's string option takes a string; {"env": ...} belongs in the config file
    void createHost({ plugins: [[mailer, { from: 'a@example.com', smtp: { host: 'h', password: { env: 'SMTP_PASSWORD' } } }]] });
    // Typed as AnyPlugin (as a list built elsewhere may be), the options are untyped again.
    const untyped: AnyPlugin = mailer;
    void createHost({ plugins: [[untyped, { from: 'a@example.com', smtp: { host: 'h', password: { env: 'SMTP_PASSWORD' } } }]] });
  });
});
