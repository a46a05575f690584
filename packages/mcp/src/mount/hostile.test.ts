// Attacks by a hostile server (or a fault) on a mount: what it lists, what its schemas make
// the validator do, what it writes on stdout, and what it does with the cache file.
import { lstatSync, mkdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { McpServerConfig } from './api.js';
import { cacheFile, configHash, readCache, writeCache } from './cache.js';
import { packageDir, registryOf, scratch, type Scratch } from './mount.fixture.js';

const hostileServer = path.join(packageDir, 'test-fixtures/mount/hostile-server.mjs');
const ALLOW = { annotations: { '*': { readOnly: true, openWorld: false } } };

function hostile(mode: string, env: Record<string, string> = {}, extra: Partial<McpServerConfig> = {}): McpServerConfig {
  return { name: `hostile-${mode}`, command: process.execPath, args: [hostileServer, mode], env, ...ALLOW, ...extra } as McpServerConfig;
}

let s: Scratch;
beforeEach(() => {
  s = scratch();
});
afterEach(async () => {
  await s.cleanup();
});

describe('a server that lists tools breaking the rules', () => {
  it('each is left out with a notice naming the server and the tool; the good ones mount and run', async () => {
    const mount = s.mount(hostile('bad-tools'));
    const definitions = await mount.refresh();
    // "__proto__" and "constructor" are good names (letters and "_"): they mount and run like any other.
    expect(definitions.map((definition) => definition.name).sort()).toEqual([
      '__proto__',
      'claims',
      'constructor',
      'deep',
      'huge',
      'redos',
      'speak',
    ]);
    const notices = s.logs.join('\n');
    const server = 'MCP server "hostile-bad-tools"';
    for (const name of ['has space', 'x'.repeat(200), 'café']) {
      expect(notices).toContain(`${server}: tool "${name}" is left out: "${name}" is not a name model APIs accept`);
    }
    expect(notices).toContain(`${server}: tool "speak" is left out: the name "speak" is taken by tool "speak" of the same server`);
    for (const name of ['no_schema', 'array_schema', 'string_schema']) {
      expect(notices).toContain(`${server}: tool "${name}" is left out: its inputSchema is not a JSON Schema of type "object"`);
    }
    // Entries 14 and 15: not tools at all. The SDK's own listTools() would fail the whole list for them.
    for (const index of [14, 15]) {
      expect(notices).toContain(`${server}: tools/list entry ${index} is left out: it is not a tool with a string "name" (out of spec).`);
    }
    expect(notices).toMatch(/MCP server "hostile-bad-tools": tool "lookahead" is left out: its schema cannot be compiled \(.*\(\?=/);
    expect(notices).toMatch(
      /MCP server "hostile-bad-tools": tool "dangling" is left out: its schema cannot be compiled \(.*#\/\$defs\/none/,
    );
    // notices() gives the same lines, and a mount that reads the cache (starting nothing) gives them too.
    const expected = s.logs.filter((line) => line.includes(' is left out: '));
    expect(expected).toHaveLength(11);
    expect(mount.notices()).toEqual(expected.filter((line) => !line.includes('tools/list entry')));
    const again = s.mount(hostile('bad-tools'));
    expect(again.cached()).toHaveLength(7);
    expect(again.notices()).toEqual(mount.notices());
    expect(again.state()).toEqual({ status: 'idle' });
    // The first "speak" is the one kept: it checks its input.
    const registry = registryOf([[mount, definitions]]);
    expect(await registry.dispatch({ name: 'speak', input: { text: 'hi' } })).toMatchObject({ ok: true, output: 'speak: hi' });
    expect(await registry.dispatch({ name: 'speak', input: {} })).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(await registry.dispatch({ name: '__proto__', input: { text: 'p' } })).toMatchObject({ ok: true, output: '__proto__: p' });
    expect(await registry.dispatch({ name: 'claims', input: { text: 'c' } })).toMatchObject({ ok: true, output: 'claims: c' });
  });

  it('a tool named like an Object.prototype key ("constructor") mounts and runs even when "rename" is set', async () => {
    const mount = s.mount(hostile('bad-tools', {}, { rename: { speak: 'say' }, include: ['speak', 'constructor'] }));
    const definitions = await mount.refresh();
    expect(definitions.map((definition) => definition.name).sort()).toEqual(['constructor', 'say']);
    const outcome = await registryOf([[mount, definitions]]).dispatch({ name: 'constructor', input: { text: 'hi' } });
    expect(outcome).toMatchObject({ ok: true, output: 'constructor: hi' });
  });

  it('a 5 MB description is kept whole in the definition and the cache, and other tools are unharmed', async () => {
    const mount = s.mount(hostile('bad-tools'));
    const definitions = await mount.refresh();
    expect(definitions.find((definition) => definition.name === 'huge')!.description.length).toBe(5 * 1024 * 1024);
    const again = s.mount(hostile('bad-tools'));
    expect(
      again
        .cached()!
        .map((definition) => definition.name)
        .sort(),
    ).toEqual(definitions.map((d) => d.name).sort());
    expect(again.state()).toEqual({ status: 'idle' });
  });

  it('5,000 tools mount, are cached, and read back from the cache by a mount that starts nothing', async () => {
    const mount = s.mount(hostile('many'));
    expect(await mount.refresh()).toHaveLength(5000);
    const again = s.mount(hostile('many'));
    const cached = again.cached()!;
    expect(cached).toHaveLength(5000);
    expect(again.state()).toEqual({ status: 'idle' });
    const outcome = await registryOf([[again, cached]]).dispatch({ name: 't4999', input: { text: 'last' } });
    expect(outcome).toMatchObject({ ok: true, output: 't4999: last' });
  });
});

describe('schemas that attack the validator', () => {
  it('a catastrophic pattern (^(a+)+$) checks 100,000 characters of "aaaa…b" without backtracking, and still checks', async () => {
    const mount = s.mount(hostile('bad-tools', {}, { include: ['redos'] }));
    const registry = registryOf([[mount, await mount.refresh()]]);
    // Under a backtracking engine this input takes longer than the test's whole budget; RE2 takes one pass.
    const outcome = await registry.dispatch({ name: 'redos', input: { text: `${'a'.repeat(100_000)}b` } });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'invalid_input', message: expect.stringContaining('must match pattern') } });
    expect(await registry.dispatch({ name: 'redos', input: { text: 'aaa' } })).toMatchObject({ ok: true, output: 'redos: aaa' });
  });

  it('a recursive $ref checks nested input, and input nested 5,000 or 200,000 deep is refused, not thrown', async () => {
    const mount = s.mount(hostile('bad-tools', {}, { include: ['deep'] }));
    const registry = registryOf([[mount, await mount.refresh()]]);
    expect(await registry.dispatch({ name: 'deep', input: { node: { next: { next: {} } } } })).toMatchObject({ ok: true });
    const wrong = await registry.dispatch({ name: 'deep', input: { node: { next: { next: { other: 1 } } } } });
    expect(wrong).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    // 5,000 deep passes the registry's JSON walk and overflows ajv's recursion (the mount's check);
    // 200,000 deep overflows the registry's walk first (core's check). Both are refused, never thrown.
    for (const [depth, message] of [
      [5_000, 'Invalid input for deep: cannot be checked: it is nested too deeply to check; send a flatter input'],
      [200_000, 'Invalid input for deep: expected a JSON value, received a value nested too deeply to check'],
    ] as const) {
      const text = `{"node":${'{"next":'.repeat(depth)}{}${'}'.repeat(depth)}}`;
      const outcome = await registry.dispatch({ name: 'deep', input: JSON.parse(text) });
      expect(!outcome.ok && outcome.error).toMatchObject({ code: 'invalid_input', message });
    }
    expect(await registry.dispatch({ name: 'deep', input: { node: {} } })).toMatchObject({ ok: true });
  });

  it('a hand-edited cache with a catastrophic pattern is checked by RE2 too: the call is refused, not hung', async () => {
    const config = hostile('bad-tools', {}, { include: ['redos'] });
    const tool = {
      name: 'redos',
      description: 'Edited.',
      inputSchema: { type: 'object' as const, properties: { text: { type: 'string', pattern: '^(a+)+$' } } },
    };
    writeCache(cacheFile(s.ctx.cacheDir, config.name), configHash(config, s.ctx.cwd), config.name, [tool]);
    const mount = s.mount(config);
    const registry = registryOf([[mount, mount.cached()!]]);
    const outcome = await registry.dispatch({ name: 'redos', input: { text: `${'a'.repeat(100_000)}b` } });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(mount.state()).toEqual({ status: 'idle' });
  });
});

describe('a server that breaks the protocol during a call', () => {
  async function connected(mode: string, env: Record<string, string> = {}) {
    const mount = s.mount(hostile(mode, env));
    return { mount, registry: registryOf([[mount, await mount.refresh()]]) };
  }

  it('an answer under another id is not taken for the call; the answer under its own id is', async () => {
    const { mount, registry } = await connected('wrong-id');
    expect(await registry.dispatch({ name: 'speak', input: { text: 'mine' } })).toMatchObject({ ok: true, output: 'speak: mine' });
    expect(s.logs.join('\n')).toContain('[mcp hostile-wrong-id]');
    expect(await registry.dispatch({ name: 'speak', input: { text: 'again' } })).toMatchObject({ ok: true, output: 'speak: again' });
    expect(mount.state().status).toBe('connected');
  });

  it('a second answer to the same call changes nothing: the first is the output, the next call gets its own', async () => {
    const { mount, registry } = await connected('duplicate');
    for (const text of ['one', 'two', 'three']) {
      expect(await registry.dispatch({ name: 'speak', input: { text } })).toMatchObject({ ok: true, output: `speak: ${text}` });
    }
    expect(mount.state().status).toBe('connected');
  });

  it('an answer nested 200,000 deep fails the call naming the server; the outcome is JSON and the server stays usable', async () => {
    const { mount, registry } = await connected('deep');
    const outcome = await registry.dispatch({ name: 'speak', input: { text: 'deep' } });
    expect(outcome).toMatchObject({
      ok: false,
      error: {
        code: 'execution_failed',
        message: 'speak failed (MCP server "hostile-deep"): its answer cannot be written back as JSON (Maximum call stack size exceeded).',
      },
    });
    expect(JSON.parse(JSON.stringify(outcome))).toMatchObject({ ok: false, error: { code: 'execution_failed' } });
    expect(mount.state().status).toBe('connected');
  });

  it('requests the client does not offer (sampling, roots, elicitation) get "method not found"; the call still ends', async () => {
    const record = path.join(s.dir, 'asked');
    const { registry } = await connected('asks', { RECORD: record });
    expect(await registry.dispatch({ name: 'speak', input: { text: 'asked' } })).toMatchObject({ ok: true, output: 'speak: asked' });
    const answers = readFileSync(record, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { method: string; answer: { error?: { code: number }; result?: unknown } });
    expect(answers.map((answer) => answer.method)).toEqual(['sampling/createMessage', 'roots/list', 'elicitation/create']);
    for (const { answer } of answers) {
      expect(answer.result).toBeUndefined();
      expect(answer.error?.code).toBe(-32601);
    }
  });
});

describe('a server that floods its stdout', () => {
  it('one line of 64 MB without an end: the call fails naming the limit, the server is stopped, and it is said once', async () => {
    const mount = s.mount(hostile('flood', { FLOOD_MB: '64' }));
    const registry = registryOf([[mount, await mount.refresh()]]);
    const outcome = await registry.dispatch({ name: 'speak', input: { text: 'flood' } });
    expect(!outcome.ok && outcome.error).toMatchObject({
      code: 'execution_failed',
      message:
        'speak failed: MCP server "hostile-flood" wrote a message of over 10 MiB to its stdout (a line without an end, or an answer too large to take); it was stopped during the call; it may or may not have taken effect. The server is restarted on the next call.',
    });
    expect(mount.state()).toMatchObject({ status: 'failed', message: expect.stringContaining('over 10 MiB') });
    expect(s.logs.filter((line) => line.includes('over 10 MiB to its stdout'))).toHaveLength(2); // the fault, then the state
    expect(s.logs.filter((line) => line.includes('ReadBuffer exceeded'))).toEqual([]);
  });
});

describe('secrets never reach a message', () => {
  const TOKEN = 'tok-7d1c-hostile';
  let server: Server;
  let url: string;
  beforeAll(async () => {
    // Refuses every request, echoing the headers it got in its error body, as careless servers do.
    server = createServer((request, response) => {
      const body = JSON.stringify({ error: 'unauthorized', got: request.headers });
      response.writeHead(401, { 'content-type': 'application/json' }).end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('a 401 that echoes the Authorization header: the error names the status, never the token', async () => {
    const mount = s.mount({ name: 'echoing', url, headers: { Authorization: `Bearer ${TOKEN}`, 'X-Api-Key': TOKEN } });
    const error = (await mount.refresh().catch((caught: Error) => caught)) as Error;
    expect(error.message).toContain(`MCP server "echoing" could not connect at ${url}: HTTP 401; check the credentials in its "headers".`);
    for (const text of [error.message, JSON.stringify(mount.state()), s.logs.join('\n')]) {
      expect(text).not.toContain(TOKEN);
      expect(text).not.toContain(encodeURIComponent(TOKEN));
      expect(text).not.toContain(Buffer.from(TOKEN).toString('base64'));
    }
  });
});

describe('the cache file under attack', () => {
  it('a symlink planted at the cache path (pointing outside) is replaced, and its target is left as it was', async () => {
    const config = hostile('bad-tools', {}, { include: ['speak'] });
    const outside = path.join(s.dir, 'outside.txt');
    writeFileSync(outside, 'precious\n');
    const file = cacheFile(s.ctx.cacheDir, config.name);
    mkdirSync(s.ctx.cacheDir, { recursive: true });
    symlinkSync(outside, file);
    expect(readlinkSync(file)).toBe(outside);
    const mount = s.mount(config);
    await mount.refresh();
    expect(readFileSync(outside, 'utf8')).toBe('precious\n');
    expect(lstatSync(file).isSymbolicLink()).toBe(false);
    expect(readCache(file, configHash(config, s.ctx.cwd))!.some((tool) => tool.name === 'speak')).toBe(true);
  });

  it('a symlink at the cache path to a file of another config is not read as its manifest', async () => {
    const config = hostile('bad-tools', {}, { include: ['speak'] });
    const other = path.join(s.dir, 'other.json');
    writeCache(other, 'another-hash', config.name, [{ name: 'planted', description: 'Planted.', inputSchema: { type: 'object' } }]);
    mkdirSync(s.ctx.cacheDir, { recursive: true });
    symlinkSync(other, cacheFile(s.ctx.cacheDir, config.name));
    expect(s.mount(config).cached()).toBeUndefined();
  });

  it('a hand-edited cache with tools that break the rules: each is left out with a notice, the good one is served', async () => {
    const config = hostile('bad-tools', {}, {});
    const file = cacheFile(s.ctx.cacheDir, config.name);
    writeCache(file, configHash(config, s.ctx.cwd), config.name, [
      { name: 'speak', description: 'Repeat.', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } },
      { name: 'bad name', description: 'Edited.', inputSchema: { type: 'object' } },
      { name: 'arr', description: 'Edited.', inputSchema: { type: 'array' } as never },
    ]);
    const mount = s.mount(config);
    expect(mount.cached()!.map((definition) => definition.name)).toEqual(['speak']);
    const notices = s.logs.join('\n');
    expect(notices).toContain('MCP server "hostile-bad-tools": tool "bad name" is left out');
    expect(notices).toContain(
      'MCP server "hostile-bad-tools": tool "arr" is left out: its inputSchema is not a JSON Schema of type "object"',
    );
    expect(mount.state()).toEqual({ status: 'idle' });
  });
});
