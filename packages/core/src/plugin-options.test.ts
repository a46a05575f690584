import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { instantiatePlugin, pluginOptions } from './instantiate.js';
import { isPluginError } from './plugin-error.js';
import { definePlugin } from './plugin.js';

const Options = v.object({ greeting: v.optional(v.string(), 'Hello'), contact: v.optional(v.pipe(v.string(), v.email())) });
const plugin = definePlugin({ name: 'tool-greet', apiVersion: 1, options: Options, tools: () => [] });

describe('pluginOptions (tools made in code)', () => {
  it('gives back what the schema parsed, defaults filled in', () => {
    expect(pluginOptions(plugin, {})).toEqual({ greeting: 'Hello' });
  });

  it("refuses with the host's words, led by the plugin's name, never quoting a value a check saw", async () => {
    const given = { greeting: 5, contact: 'hunter2-not-an-email' } as never;
    let error: unknown;
    try {
      pluginOptions(plugin, given);
    } catch (thrown) {
      error = thrown;
    }
    const hosted = await instantiatePlugin(plugin, { options: given, cwd: '.' }).catch((thrown: unknown) => thrown);
    expect(isPluginError(error)).toBe(true);
    expect((error as Error).message).toBe(`tool-greet: ${(hosted as Error).message}`);
    expect((error as Error).message).toBe(
      'tool-greet: invalid options: option greeting: expected string, received number; option contact: failed the email check.',
    );
  });
});
