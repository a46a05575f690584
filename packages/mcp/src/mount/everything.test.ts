import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ToolEvent } from '@toolshed/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_INHERITED_ENV_VARS } from '@modelcontextprotocol/sdk/client/stdio.js';
import { everything, registryOf, scratch, type Scratch } from './mount.fixture.js';
import { GUARD_MARK } from './guard.js';

let s: Scratch;
beforeEach(() => {
  s = scratch();
});
afterEach(async () => {
  await s.cleanup();
});

describe('@modelcontextprotocol/server-everything over stdio', () => {
  it('lists its tools, destructive and open-world whatever its hints say unless readOnlyTools names them, and caches them for a mount that starts nothing', async () => {
    const mount = s.mount(everything({ readOnlyTools: ['echo'] }));
    expect(mount.cached()).toBeUndefined();
    const definitions = await mount.refresh();
    const echo = definitions.find((definition) => definition.name === 'echo')!;
    expect(echo.inputSchema).toMatchObject({ type: 'object', required: ['message'] });
    expect(echo.inputSchema).not.toHaveProperty('$schema');
    expect(echo.annotations).toEqual({ title: 'Echo Tool', readOnly: true, destructive: false, idempotent: false, openWorld: false });
    // get-sum says it is read-only; that is its claim, and it needs approval like any tool not named.
    expect(definitions.find((definition) => definition.name === 'get-sum')!.annotations).toMatchObject({
      readOnly: false,
      destructive: true,
      openWorld: true,
    });

    const again = s.mount(everything({ readOnlyTools: ['echo'] }));
    expect(again.cached()).toEqual(definitions);
    expect(again.state()).toEqual({ status: 'idle' });
  });

  it('calls a tool through a registry, from a cached manifest, starting the server on the first call', async () => {
    await s.mount(everything({ readOnlyTools: ['echo'] })).refresh();
    const mount = s.mount(everything({ readOnlyTools: ['echo'] }));
    const registry = registryOf([[mount, mount.cached()!]]);
    expect(mount.state().status).toBe('idle');
    const outcome = await registry.dispatch({ name: 'echo', input: { message: 'hello' } });
    expect(outcome).toMatchObject({ ok: true, output: 'Echo: hello' });
    expect(mount.state()).toMatchObject({ status: 'connected', pid: expect.any(Number) });
  });

  it.each([
    ['echo', { message: 3 }, 'Invalid input for echo.message: expected string, received number', ['message']],
    ['echo', {}, 'Invalid input for echo.message: missing required field "message"', ['message']],
    ['get-sum', { a: 1, b: 'two' }, 'Invalid input for get-sum.b: expected number, received string', ['b']],
    [
      'get-structured-content',
      { location: 'Paris' },
      'Invalid input for get-structured-content.location: must be one of "New York", "Chicago", "Los Angeles"',
      ['location'],
    ],
    ['get-resource-links', { count: 11 }, 'Invalid input for get-resource-links.count: must be <= 10', ['count']],
  ] as const)(
    'refuses %s %j with invalid_input and a path, before anything is sent (the server is never started)',
    async (name, input, message, at) => {
      await s.mount(everything()).refresh();
      const mount = s.mount(everything());
      // Approved, so that the input is checked: denial (no approver) comes before reading input.
      const registry = registryOf([[mount, mount.cached()!]], { approve: 'allow-all' });
      const outcome = await registry.dispatch({ name, input });
      expect(outcome.ok).toBe(false);
      if (outcome.ok) return;
      expect(outcome.error).toMatchObject({ code: 'invalid_input', message });
      expect(outcome.error.issues?.[0]?.path).toEqual(at);
      expect(mount.state()).toEqual({ status: 'idle' });
    },
  );

  it('gives structuredContent as the output, checked against the outputSchema', async () => {
    const mount = s.mount(everything());
    const definitions = await mount.refresh();
    expect(definitions.find((definition) => definition.name === 'get-structured-content')!.outputSchema).toMatchObject({ type: 'object' });
    const outcome = await registryOf([[mount, definitions]], { approve: 'allow-all' }).dispatch({
      name: 'get-structured-content',
      input: { location: 'Chicago' },
    });
    expect(outcome).toMatchObject({ ok: true, output: { temperature: expect.any(Number), conditions: expect.any(String) } });
  });

  it('gives mixed content as its text for output and its image as a content part, not as JSON text', async () => {
    const mount = s.mount(everything());
    const outcome = await registryOf([[mount, await mount.refresh()]], { approve: 'allow-all' }).dispatch({
      name: 'get-tiny-image',
      input: {},
    });
    expect(outcome).toMatchObject({
      ok: true,
      output: "Here's the image you requested:\nThe image above is the MCP logo.",
      parts: [{ type: 'image', mimeType: 'image/png', data: expect.stringMatching(/^iVBORw0KGgo/) }],
    });
    expect(outcome).not.toHaveProperty('partIssues');
  });

  it('gives resource links as parts by reference and an embedded resource as a file part', async () => {
    const mount = s.mount(everything());
    const registry = registryOf([[mount, await mount.refresh()]], { approve: 'allow-all' });
    const links = await registry.dispatch({ name: 'get-resource-links', input: { count: 2 } });
    expect(links.ok && links.parts).toEqual([
      {
        type: 'file',
        uri: 'demo://resource/dynamic/blob/1',
        name: 'Blob Resource 1',
        mimeType: 'text/plain',
        description: 'Resource 1: plaintext resource',
      },
      {
        type: 'file',
        uri: 'demo://resource/dynamic/text/2',
        name: 'Text Resource 2',
        mimeType: 'text/plain',
        description: 'Resource 2: plaintext resource',
      },
    ]);
    const text = await registry.dispatch({ name: 'get-resource-reference', input: { resourceType: 'Text', resourceId: 2 } });
    expect(text.ok && text.parts).toEqual([
      {
        type: 'file',
        uri: 'demo://resource/dynamic/text/2',
        mimeType: 'text/plain',
        text: expect.stringMatching(/^Resource 2: This is a plaintext resource/),
      },
    ]);
  });

  it('passes the server only the default environment and its configured env, never the host environment', async () => {
    process.env.TOOLSHED_HOST_SECRET = 'sk-host-only';
    try {
      const mount = s.mount(everything({ env: { GIVEN_TO_SERVER: 'yes' } }));
      const outcome = await registryOf([[mount, await mount.refresh()]], { approve: 'allow-all' }).dispatch({ name: 'get-env', input: {} });
      expect(outcome.ok).toBe(true);
      if (!outcome.ok) return;
      const env = JSON.parse(outcome.output as string) as Record<string, string>;
      expect(env.GIVEN_TO_SERVER).toBe('yes');
      expect(JSON.stringify(env)).not.toContain('sk-host-only');
      // Exactly: the defaults the host has set, the entry's env, and the guard's mark (README "Environment").
      const defaults = DEFAULT_INHERITED_ENV_VARS.filter((key) => process.env[key] !== undefined);
      expect(Object.keys(env).sort()).toEqual([...defaults, 'GIVEN_TO_SERVER', GUARD_MARK].sort());
      expect(env[GUARD_MARK]).toMatch(/^\d+-[0-9a-z]+$/);
    } finally {
      delete process.env.TOOLSHED_HOST_SECRET;
    }
  });

  it('never writes env values in clear to the cache, and keys it by them', async () => {
    const mount = s.mount(everything({ env: { API_TOKEN: 'sk-cache-secret' } }));
    await mount.refresh();
    const file = path.join(s.ctx.cacheDir, 'everything.json');
    const text = readFileSync(file, 'utf8');
    const secret = 'sk-cache-secret';
    for (const encoded of [
      secret,
      Buffer.from(secret).toString('base64'),
      Buffer.from(secret).toString('base64url'),
      Buffer.from(secret).toString('hex'),
      encodeURIComponent(secret),
      'API_TOKEN',
    ]) {
      expect(text).not.toContain(encoded);
    }
    expect(s.mount(everything({ env: { API_TOKEN: 'sk-cache-secret' } })).cached()).toBeDefined();
    expect(s.mount(everything({ env: { API_TOKEN: 'another' } })).cached()).toBeUndefined();
    expect(s.mount(everything({ args: [...(everything() as { args: string[] }).args, 'x'] })).cached()).toBeUndefined();
  });

  it('reports progress as call.progress events', async () => {
    const mount = s.mount(everything());
    const registry = registryOf([[mount, await mount.refresh()]], { approve: 'allow-all' });
    const events: ToolEvent[] = [];
    registry.subscribe((event) => events.push(event));
    const outcome = await registry.dispatch({ name: 'trigger-long-running-operation', input: { duration: 0.3, steps: 3 } });
    expect(outcome.ok).toBe(true);
    const progress = events.filter((event) => event.type === 'call.progress');
    // The SDK client may handle the last notification after the answer has closed the request
    // (a microtask late), so not every step is guaranteed to arrive; the ones that do carry the total.
    expect(progress.length).toBeGreaterThanOrEqual(1);
    for (const event of progress) expect(event).toMatchObject({ progress: { total: 3 } });
    expect(progress[0]).toMatchObject({ progress: { progress: 1, total: 3 } });
  });

  it('applies include, exclude, rename and config marks', async () => {
    const mount = s.mount(
      everything({
        include: ['echo', 'get-sum', 'get-env', 'no-such-tool'],
        exclude: ['get-env'],
        rename: { echo: 'everything_echo' },
        readOnlyTools: ['echo', 'get-sum'],
        annotations: { '*': { openWorld: true }, 'get-sum': { destructive: true, readOnly: false } },
      }),
    );
    const definitions = await mount.refresh();
    expect(definitions.map((definition) => definition.name)).toEqual(['everything_echo', 'get-sum']);
    expect(definitions[0]!.annotations).toMatchObject({ readOnly: true, openWorld: true });
    expect(definitions[1]!.annotations).toMatchObject({ readOnly: false, destructive: true });
    expect(s.logs.join('\n')).toContain('MCP server "everything" has no tool "no-such-tool" (named in "include")');
    const outcome = await registryOf([[mount, definitions]], { approve: 'allow-all' }).dispatch({
      name: 'everything_echo',
      input: { message: 'renamed' },
    });
    expect(outcome).toMatchObject({ ok: true, output: 'Echo: renamed' });
    expect(() => mount.tool('echo')).toThrow('MCP server "everything" has no tool "echo"; its tools: everything_echo, get-sum.');
  });

  it('denies an open-world tool by default, like any tool that needs approval', async () => {
    const mount = s.mount(everything({ include: ['gzip-file-as-resource'] }));
    const outcome = await registryOf([[mount, await mount.refresh()]]).dispatch({ name: 'gzip-file-as-resource', input: {} });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'denied' } });
    if (outcome.ok) return;
    expect(outcome.error.message).toContain('open-world');
  });

  it('names both sources when two servers offer the same tool name', async () => {
    const one = s.mount(everything({ include: ['echo'] }));
    const other = s.mount(everything({ name: 'everything2', include: ['echo'] } as never));
    const definitions = await one.refresh();
    expect(() =>
      registryOf([
        [one, definitions],
        [other, definitions],
      ]),
    ).toThrow(/"echo": registered from mcp server "everything" and again from mcp server "everything2"/);
  });
});
