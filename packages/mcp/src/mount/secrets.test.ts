// Attack tests for "no value from {"env"}, a header or URL credentials leaves the mount": a
// header with a line break (fetch's error quotes it), credentials in a URL (fetch's error quotes
// the URL), and a stdio server that says its key back in each spelling, on stderr, in its tool's
// description, in a result and in a JSON-RPC error.
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { checkServerConfig, isMcpConfigError } from './config.js';
import { fault, registryOf, scratch, type Scratch } from './mount.fixture.js';
import { mountServer } from './mount.js';

let s: Scratch;
beforeEach(() => {
  s = scratch();
});
afterEach(async () => {
  await s.cleanup();
});

/** Spellings of a secret, each from its definition, to look for in what left the mount. */
function spellings(secret: string): string[] {
  return [
    secret,
    secret.toUpperCase(),
    encodeURIComponent(secret),
    Buffer.from(secret).toString('base64'),
    Buffer.from(secret).toString('base64url'),
    Buffer.from(secret).toString('hex'),
    JSON.stringify(secret).slice(1, -1),
    ...secret.split('\n'),
  ].filter((form) => form.length >= 6);
}

function cacheText(): string {
  const dir = s.ctx.cacheDir;
  let names: string[] = [];
  try {
    names = readdirSync(dir);
  } catch {
    return '';
  }
  return names.map((name) => readFileSync(path.join(dir, name), 'utf8')).join('\n');
}

describe('a header value with a line break', () => {
  const TOKEN = 'line-one-7f3a\nline-two-91bc';
  it('is refused when checked, naming the server and the header, never quoting the value', () => {
    let caught: unknown;
    try {
      checkServerConfig(
        { name: 'remote', url: 'http://127.0.0.1:9/mcp', headers: { Authorization: `Bearer ${TOKEN}` } },
        'toolshed.config.json mcpServers "remote"',
      );
    } catch (error) {
      caught = error;
    }
    expect(isMcpConfigError(caught)).toBe(true);
    const error = caught as Error & { field: string };
    expect(error.field).toBe('headers.Authorization');
    expect(error.message).toContain('toolshed.config.json mcpServers "remote": "headers.Authorization" holds a line break');
    for (const form of spellings(TOKEN)) expect(error.message).not.toContain(form);
  });

  it('given to a mount anyway, fails at mountServer with the same message: fetch never sees it', () => {
    expect(() => s.mount({ name: 'remote', url: 'http://127.0.0.1:9/mcp', headers: { Authorization: `Bearer ${TOKEN}` } })).toThrow(
      /"headers\.Authorization" holds a line break/,
    );
  });

  it('an unparsable URL or a bad header name is named without quoting what may be a secret', () => {
    expect(() => checkServerConfig({ name: 'x', url: 'http//sk-url-secret-1' }, 'here')).toThrow(/not a URL \(not shown/);
    expect(() => checkServerConfig({ name: 'x', url: 'http//sk-url-secret-1' }, 'here')).not.toThrow(/sk-url-secret-1/);
    expect(() => checkServerConfig({ name: 'x', url: 'ftp://u:sk-url-secret-1@h/p?t=sk-q' }, 'here')).toThrow(/got "ftp:\/\/h\/p"\./);
    expect(() => checkServerConfig({ name: 'x', url: 'http://h/', headers: { 'Bad Name': 'v' } }, 'here')).toThrow(
      /"headers\.Bad Name" is not an HTTP header name/,
    );
    expect(() => checkServerConfig({ name: 'x', command: 'a', args: ['--key', 5] }, 'here')).toThrow(/item 1 is number/);
  });
});

describe('credentials in an HTTP URL', () => {
  let server: Server;
  let port: number;
  const seen: IncomingHttpHeaders[] = [];
  beforeAll(async () => {
    // Refuses every request, echoing the headers it got, as careless servers do.
    server = createServer((request, response) => {
      seen.push(request.headers);
      response.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ got: request.headers, url: request.url }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('go as Authorization: Basic, never in the URL, and no spelling of them is in any message, state, log or cache file', async () => {
    const user = 'agent';
    const password = 'pw-9c2e-s3cr3t';
    const mount = s.mount({ name: 'basic', url: `http://${user}:${encodeURIComponent(password)}@127.0.0.1:${port}/mcp` });
    const error = (await mount.refresh().catch((caught: Error) => caught)) as Error;
    // Before, fetch refused the URL with a message quoting it whole.
    expect(error.message).toBe(
      `MCP server "basic" could not connect at http://127.0.0.1:${port}/mcp: HTTP 401; check the credentials in its "headers".`,
    );
    expect(seen.at(-1)?.authorization).toBe(`Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`);
    const out = [error.message, JSON.stringify(mount.state()), s.logs.join('\n'), cacheText()].join('\n');
    for (const form of [...spellings(password), Buffer.from(`${user}:${password}`).toString('base64')]) expect(out).not.toContain(form);
  });
});

describe('a stdio server that says its key back', () => {
  const KEY = 'sk-leaky-4e8b-d00d';
  for (const form of ['raw', 'upper', 'uri', 'base64', 'basic', 'json', 'hex']) {
    it(`spelled ${form}: not in the outcome, the event, the log, the state, the definitions or the cache`, async () => {
      // The mount is told which values came from the environment, as the host tells it.
      const leaky = mountServer(
        fault('leak', { LEAK: KEY, LEAK_FORM: form }, { annotations: { '*': { readOnly: true, openWorld: false } } }),
        { ...s.ctx, secrets: [KEY] },
      );
      s.mounts.push(leaky);
      const definitions = await leaky.refresh();
      const events: unknown[] = [];
      const registry = registryOf([[leaky, definitions]]);
      registry.subscribe((event) => events.push(event));
      const result = await registry.dispatch({ name: 'speak', input: { text: 'hi' } });
      const failed = await registry.dispatch({ name: 'speak', input: { text: 'error' } });
      expect(result.ok ? 'ok' : result.error.message).toBe('ok');
      expect(JSON.stringify(result.ok && result.output)).toMatch(/^{"key":"[A-Za-z0-9+/=]*\[redacted\][A-Za-z0-9+/=]*"}$/);
      expect(failed.ok).toBe(false);
      expect(!failed.ok && failed.error.message).toMatch(
        /answered with error -32603: MCP error -32603: bad key [A-Za-z0-9+/=]*\[redacted\]/,
      );
      const out = [JSON.stringify([definitions, result, failed, events, leaky.state()]), s.logs.join('\n'), cacheText()].join('\n');
      expect(s.logs.join('\n')).toMatch(/starting with key [A-Za-z0-9+/=]*\[redacted\]/);
      const spelled = {
        raw: KEY,
        upper: KEY.toUpperCase(),
        uri: encodeURIComponent(KEY),
        base64: Buffer.from(KEY).toString('base64'),
        basic: Buffer.from(`agent:${KEY}`).toString('base64'),
        json: KEY,
        hex: Buffer.from(KEY).toString('hex'),
      }[form]!;
      expect(out).not.toContain(spelled);
      for (const other of spellings(KEY)) expect(out).not.toContain(other);
    });
  }
});
