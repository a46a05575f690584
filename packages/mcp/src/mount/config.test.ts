import { describe, expect, it } from 'vitest';
import type { HttpServerConfig, StdioServerConfig } from './api.js';
import { checkServerConfig, isMcpConfigError } from './config.js';

const where = 'toolshed.config.json mcpServers[0]';

describe('checkServerConfig', () => {
  it('returns a typed copy of a stdio entry and of an HTTP entry', () => {
    const stdio = {
      name: 'files',
      command: 'npx',
      args: ['-y', 'x'],
      env: { TOKEN: 's' },
      cwd: 'sub',
      include: ['a'],
      rename: { a: 'b' },
      annotations: { '*': { readOnly: true } },
      timeoutMs: 5000,
    };
    const checked = checkServerConfig(stdio, where);
    expect(checked).toEqual(stdio);
    expect(checked).not.toBe(stdio);
    expect(checkServerConfig({ name: 'remote', url: 'https://example.test/mcp', headers: { Authorization: 'Bearer x' } }, where)).toEqual({
      name: 'remote',
      url: 'https://example.test/mcp',
      headers: { Authorization: 'Bearer x' },
    });
  });

  it('keeps a "__proto__" key of rename, annotations, env and headers as the key it is, never as the copy\'s prototype', () => {
    // As JSON.parse makes them (an own "__proto__" key), from a config file or a harness.
    const stdio = checkServerConfig(
      JSON.parse(
        '{"name": "s", "command": "x", "rename": {"__proto__": "proto_tool"}, "annotations": {"__proto__": {"readOnly": true}}, "env": {"__proto__": "v"}}',
      ),
      where,
    ) as StdioServerConfig;
    for (const map of [stdio.rename, stdio.annotations, stdio.env]) {
      expect(Object.getPrototypeOf(map)).toBe(Object.prototype);
      expect(Object.keys(map!)).toEqual(['__proto__']);
    }
    expect(Object.getOwnPropertyDescriptor(stdio.rename, '__proto__')?.value).toBe('proto_tool');
    expect(Object.getOwnPropertyDescriptor(stdio.annotations, '__proto__')?.value).toEqual({ readOnly: true });
    // Another tool's lookup finds nothing of it.
    expect((stdio.annotations as Record<string, unknown>).other).toBeUndefined();
    const http = checkServerConfig(
      JSON.parse('{"name": "s", "url": "https://example.test/mcp", "headers": {"__proto__": "v"}}'),
      where,
    ) as HttpServerConfig;
    expect(Object.getPrototypeOf(http.headers)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(http.headers, '__proto__')?.value).toBe('v');
  });

  it.each([
    [null, undefined, 'must be an object'],
    [[], undefined, 'must be an object'],
    [{ name: 'x' }, undefined, 'needs "command" (a stdio server) or "url"'],
    [{ name: 'x', command: 'a', url: 'http://h/' }, undefined, 'has both "command" and "url"'],
    [{ name: 'bad name', command: 'a' }, 'name', 'must be 1 to 64 letters'],
    [{ command: 'a' }, 'name', 'must be 1 to 64 letters'],
    [{ name: 'x', command: '' }, 'command', 'must be a non-empty string'],
    [{ name: 'x', command: 'a', args: 'b' }, 'args', 'must be an array of strings'],
    [{ name: 'x', command: 'a', args: [1] }, 'args', 'must be an array of strings'],
    [{ name: 'x', command: 'a', env: { TOKEN: { env: 'TOKEN' } } }, 'env.TOKEN', 'resolve {"env": NAME} references'],
    [{ name: 'x', command: 'a', env: [] }, 'env', 'must be an object'],
    [{ name: 'x', command: 'a', cwd: 3 }, 'cwd', 'must be a directory path'],
    [{ name: 'x', command: 'a', url2: 'b' }, 'url2', 'is not a field of a stdio server'],
    [{ name: 'x', command: 'a', headers: {} }, 'headers', 'is not a field of a stdio server'],
    [{ name: 'x', url: 'http://h/', env: {} }, 'env', 'is not a field of an HTTP server'],
    [{ name: 'x', url: 'not a url' }, 'url', 'absolute http: or https: URL'],
    [{ name: 'x', url: 'file:///etc/passwd' }, 'url', 'absolute http: or https: URL'],
    [{ name: 'x', url: 'http://h/', headers: { A: 1 } }, 'headers.A', 'must be a string'],
    [{ name: 'x', command: 'a', include: 'echo' }, 'include', 'array of non-empty strings'],
    [{ name: 'x', command: 'a', exclude: [''] }, 'exclude', 'array of non-empty strings'],
    [{ name: 'x', command: 'a', rename: { a: 2 } }, 'rename.a', 'must be a string'],
    [{ name: 'x', command: 'a', annotations: { echo: { readOnlyHint: true } } }, 'annotations.echo.readOnlyHint', 'is not a mark'],
    [{ name: 'x', command: 'a', annotations: { echo: { readOnly: 'yes' } } }, 'annotations.echo.readOnly', 'must be a boolean'],
    [{ name: 'x', command: 'a', annotations: { echo: true } }, 'annotations.echo', 'must be an object'],
    [{ name: 'x', command: 'a', timeoutMs: 0 }, 'timeoutMs', 'positive number of milliseconds'],
    [{ name: 'x', command: 'a', startTimeoutMs: -1 }, 'startTimeoutMs', 'positive number of milliseconds'],
    [{ name: 'x', command: 'a', transport: 'http' }, 'transport', 'which needs "url"; this entry has "command"'],
    [{ name: 'x', url: 'http://h/', type: 'stdio' }, 'type', 'which needs "command"; this entry has "url"'],
    [{ name: 'x', url: 'http://h/', type: 'websocket' }, 'type', 'must be "stdio" (with "command"), "http" or "sse"'],
    [{ name: 'x', url: 'http://h/', type: 'http', transport: 'sse' }, 'transport', 'but "type" says "http"; keep one'],
    [{ name: 'x', command: 'a', envFile: '.env' }, 'envFile', 'list them in "env" as'],
  ])('refuses %j naming the field %s', (value, field, reason) => {
    let caught: unknown;
    try {
      checkServerConfig(value, where);
    } catch (error) {
      caught = error;
    }
    expect(isMcpConfigError(caught)).toBe(true);
    const error = caught as { where: string; field: string | undefined; message: string };
    expect(error.where).toBe(where);
    expect(error.field).toBe(field);
    expect(error.message).toContain(where);
    expect(error.message).toContain(reason);
  });

  it('refuses URL credentials that are not valid percent-encoding, naming url and never quoting them; valid ones pass', () => {
    for (const url of ['https://sk-user%ZZ:hunter2@h/mcp', 'https://me:hunter2%@h/mcp']) {
      let caught: unknown;
      try {
        checkServerConfig({ name: 'x', url }, where);
      } catch (error) {
        caught = error;
      }
      expect(isMcpConfigError(caught)).toBe(true);
      expect(caught).toMatchObject({ field: 'url', reason: expect.stringContaining('write "%" in them as "%25"') });
      expect((caught as Error).message).not.toMatch(/hunter2|sk-user/);
    }
    expect(checkServerConfig({ name: 'x', url: 'https://me:hunter2%25@h/mcp' }, where)).toEqual({
      name: 'x',
      url: 'https://me:hunter2%25@h/mcp',
    });
  });

  it('never quotes an env or header value in an error', () => {
    expect(() => checkServerConfig({ name: 'x', command: 'a', env: { TOKEN: 'sk-secret', N: 5 } }, where)).toThrow(
      /"env\.N" must be a string/,
    );
    try {
      checkServerConfig({ name: 'x', command: 'a', env: { TOKEN: 'sk-secret', N: 5 } }, where);
    } catch (error) {
      expect(String((error as Error).message)).not.toContain('sk-secret');
    }
  });
});

describe('"type" as other clients write it', () => {
  it.each([
    [
      { name: 'x', type: 'stdio', command: 'a' },
      { name: 'x', command: 'a' },
    ],
    [
      { name: 'x', type: 'http', url: 'http://h/mcp' },
      { name: 'x', url: 'http://h/mcp' },
    ],
    [
      { name: 'x', type: 'streamable-http', url: 'http://h/mcp' },
      { name: 'x', url: 'http://h/mcp' },
    ],
    [
      { name: 'x', type: 'sse', url: 'http://h/sse' },
      { name: 'x', url: 'http://h/sse', transport: 'sse' },
    ],
    [
      { name: 'x', transport: 'sse', url: 'http://h/sse' },
      { name: 'x', url: 'http://h/sse', transport: 'sse' },
    ],
  ])('accepts %j', (value, checked) => {
    expect(checkServerConfig(value, where)).toEqual(checked);
  });
});
