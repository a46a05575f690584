import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { definePlugin } from './plugin.js';
import { defineTool } from './tool.js';

const tool = defineTool({ name: 't', description: 'A tool.', input: v.object({}), run: () => 1 });

describe('definePlugin', () => {
  it('returns the plugin, with options typed for the tools factory', async () => {
    const plugin = definePlugin({
      name: 'demo',
      apiVersion: 1,
      options: v.object({ root: v.string() }),
      tools: (options, host) => [defineTool({ ...tool, description: `Root ${options.root} in ${host.cwd}.` })],
    });
    const tools = typeof plugin.tools === 'function' ? await plugin.tools({ root: '/r' }, { cwd: '/p' }) : plugin.tools;
    expect(tools[0]?.description).toBe('Root /r in /p.');
  });

  it.each([
    [{ name: '', apiVersion: 1, tools: [tool] }, 'definePlugin: "name" must be a non-empty string (use the package name).'],
    [{ name: 'p', apiVersion: '1', tools: [tool] }, 'definePlugin(p): "apiVersion" must be an integer; this core speaks 1.'],
  ])('refuses %o', (plugin, message) => {
    expect(() => definePlugin(plugin as never)).toThrow(message);
  });
});
