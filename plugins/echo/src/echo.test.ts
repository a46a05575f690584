import { ToolRegistry } from '@toolshed/core';
import { describe, expect, it } from 'vitest';
import plugin, { echo } from './index.js';

describe('@toolshed/tool-echo', () => {
  it('is a plugin for API version 1 with the echo tool', () => {
    expect(plugin).toMatchObject({ name: '@toolshed/tool-echo', apiVersion: 1 });
    expect(plugin.tools).toEqual([echo]);
  });

  it('echoes through a registry, and rejects what is not text', async () => {
    const registry = new ToolRegistry().register(echo);
    expect(await registry.dispatch({ name: 'echo', input: { text: 'hello' } })).toMatchObject({ ok: true, output: { text: 'hello' } });
    expect(await registry.dispatch({ name: 'echo', input: { text: 123 } })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', message: 'Invalid input for echo.text: expected string, received number' },
    });
  });

  it('describes itself as read-only and idempotent', () => {
    expect(new ToolRegistry().register(echo).list()[0]?.annotations).toEqual({ readOnly: true, idempotent: true });
  });
});
