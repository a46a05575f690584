import { existsSync, mkdirSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_MAX_CHARS, openaiChat } from '@toolshed/providers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cacheFile, configHash, writeCache } from './cache.js';
import { alive, everything, fault, registryOf, scratch, until, type Scratch } from './mount.fixture.js';

let s: Scratch;
beforeEach(() => {
  s = scratch();
});
afterEach(async () => {
  await s.cleanup();
});

function starts(file: string): number {
  try {
    return readFileSync(file, 'utf8').split('\n').filter(Boolean).length;
  } catch {
    return 0;
  }
}

/** A fresh mount of a fault server (marked read-only, so approval lets calls through) with its tools from the cache, as the host mounts it. */
async function faulty(mode: string, env: Record<string, string> = {}) {
  const config = fault(mode, env, { annotations: { '*': { readOnly: true, openWorld: false } } });
  const lister = s.mount(config);
  await lister.refresh();
  await lister.close();
  const mount = s.mount(config);
  return { mount, registry: registryOf([[mount, mount.cached()!]]) };
}

describe('a server that misbehaves fails only its own tools, naming the server', () => {
  it('without hints, a tool counts as destructive and open-world and is denied by default', async () => {
    const mount = s.mount(fault('ok'));
    const definitions = await mount.refresh();
    expect(definitions[0]!.annotations).toEqual({ readOnly: false, destructive: true, idempotent: false, openWorld: true });
    const outcome = await registryOf([[mount, definitions]]).dispatch({ name: 'speak', input: { text: 'hi' } });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'denied' } });
  });

  it('config marks make it read-only, and it runs', async () => {
    const mount = s.mount(fault('ok', {}, { annotations: { speak: { readOnly: true, openWorld: false } } }));
    const outcome = await registryOf([[mount, await mount.refresh()]]).dispatch({ name: 'speak', input: { text: 'hi' } });
    expect(outcome).toMatchObject({ ok: true, output: 'hi' });
  });

  it('a server that cannot start: the call fails with its stderr, the state says failed, others still work', async () => {
    const crash = s.mount(fault('crash'));
    await expect(crash.refresh()).rejects.toThrow(
      'MCP server "fault-crash" could not start: its process exited before it answered; its last words on stderr: fatal: missing API key FAULT_KEY | [toolshed] the server process exited with code 2.',
    );
    expect(crash.state()).toMatchObject({ status: 'failed', attempts: 1, message: expect.stringContaining('fault-crash') });
    const good = s.mount(everything({ include: ['echo'], readOnlyTools: ['echo'] }));
    const outcome = await registryOf([[good, await good.refresh()]]).dispatch({ name: 'echo', input: { message: 'still here' } });
    expect(outcome).toMatchObject({ ok: true, output: 'Echo: still here' });
  });

  it('a server that hangs at start: the start fails after startTimeoutMs, naming the server, and its process is ended', async () => {
    const pidfile = path.join(s.dir, 'pid');
    // Long enough for a loaded machine to start Node and write the pid before the start gives up.
    const mount = s.mount(fault('silent', { PIDFILE: pidfile }, { startTimeoutMs: 2000 }));
    await expect(mount.refresh()).rejects.toThrow(
      'MCP server "fault-silent" could not start: it did not answer initialize within 2000 ms (raise "startTimeoutMs" if it is only slow).',
    );
    expect(mount.state()).toMatchObject({ status: 'failed', attempts: 1 });
    const pid = Number(readFileSync(pidfile, 'utf8'));
    expect(await until(() => !alive(pid))).toBe(true);
  });

  it('a server that writes a banner to stdout before the handshake cannot start, and says why', async () => {
    const mount = s.mount(fault('banner'));
    await expect(mount.refresh()).rejects.toThrow(
      /^MCP server "fault-banner" could not start: wrote something that is not an MCP message to its stdout \(.*\); a stdio server may write only MCP messages there \(logs go to stderr\)/,
    );
  });

  it("cwd resolves from the mount's directory; one that does not exist is named", async () => {
    mkdirSync(path.join(s.dir, 'sub'));
    const mount = s.mount(fault('cwd', {}, { cwd: 'sub', annotations: { '*': { readOnly: true, openWorld: false } } }));
    const outcome = await registryOf([[mount, await mount.refresh()]]).dispatch({ name: 'speak', input: { text: 'where' } });
    expect(outcome).toMatchObject({ ok: true, output: realpathSync(path.join(s.dir, 'sub')) });
    const missing = s.mount(fault('cwd', {}, { cwd: 'nowhere' }));
    await expect(missing.refresh()).rejects.toThrow(
      `MCP server "fault-cwd" could not start: its working directory ${path.join(s.dir, 'nowhere')} (from "cwd") is not a directory.`,
    );
  });

  it('a command that does not exist', async () => {
    const mount = s.mount({ name: 'missing', command: 'toolshed-no-such-command-xyz' });
    await expect(mount.refresh()).rejects.toThrow(
      /MCP server "missing" could not start: .*cannot start "toolshed-no-such-command-xyz": spawn toolshed-no-such-command-xyz ENOENT/,
    );
  });

  it('backs off: after failed starts, calls before retryAt fail at once without starting it again', async () => {
    const count = path.join(s.dir, 'starts');
    const mount = s.mount(fault('crash', { STARTS: count }));
    await expect(mount.refresh()).rejects.toThrow('could not start');
    // The first retry is immediate; the second failure sets a wait.
    await expect(mount.refresh()).rejects.toThrow('could not start');
    expect(starts(count)).toBe(2);
    const state = mount.state();
    expect(state).toMatchObject({ status: 'failed', attempts: 2, retryAt: expect.any(Number) });
    for (let i = 0; i < 20; i++) await expect(mount.refresh()).rejects.toThrow(/It is tried again in \d+ s; retry then\./);
    expect(starts(count)).toBe(2);
  });

  it('a server that exits mid-call: execution_failed naming the server and its stderr, then a restart on the next call', async () => {
    const count = path.join(s.dir, 'starts');
    const { mount, registry } = await faulty('exit-mid-call', { STARTS: count });
    const first = await registry.dispatch({ name: 'speak', input: { text: 'hi' } });
    expect(first).toMatchObject({ ok: false, error: { code: 'execution_failed' } });
    if (first.ok) return;
    expect(first.error.message).toContain('speak failed: MCP server "fault-exit-mid-call" exited');
    expect(first.error.message).toContain('segfault in speak');
    expect(first.error.message).toContain('may or may not have taken effect');
    expect(mount.state()).toMatchObject({ status: 'failed', attempts: 1 });
    const before = starts(count);
    const second = await registry.dispatch({ name: 'speak', input: { text: 'again' } });
    expect(second).toMatchObject({ ok: false, error: { code: 'execution_failed' } });
    expect(starts(count)).toBe(before + 1);
  });

  it('a server that writes garbage to stdout: the call fails at once, the server is stopped', async () => {
    const pidfile = path.join(s.dir, 'pid');
    const { mount, registry } = await faulty('garbage', { PIDFILE: pidfile });
    const outcome = await registry.dispatch({ name: 'speak', input: { text: 'hi' } }, { timeoutMs: 60_000 });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'execution_failed' } });
    if (outcome.ok) return;
    expect(outcome.error.message).toContain('MCP server "fault-garbage" wrote something that is not an MCP message to its stdout');
    expect(mount.state()).toMatchObject({ status: 'failed' });
    const pid = Number(readFileSync(pidfile, 'utf8'));
    expect(await until(() => !alive(pid))).toBe(true);
  });

  it('a server that answers out of spec', async () => {
    const { registry } = await faulty('out-of-spec');
    const outcome = await registry.dispatch({ name: 'speak', input: { text: 'hi' } });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'execution_failed' } });
    if (outcome.ok) return;
    expect(outcome.error.message).toContain('speak failed: MCP server "fault-out-of-spec" answered tools/call out of spec');
  });

  it("a tool error (isError) is execution_failed in the tool's words, naming the server", async () => {
    const { registry } = await faulty('error');
    const outcome = await registry.dispatch({ name: 'speak', input: { text: 'hi' } });
    expect(outcome).toMatchObject({
      ok: false,
      error: { code: 'execution_failed', message: 'speak failed (MCP server "fault-error"): cannot speak "hi"' },
    });
  });

  it("a 100,000-character answer is capped like any tool's output when it is written for a model", async () => {
    const { registry } = await faulty('big');
    const outcome = await registry.dispatch({ name: 'speak', input: { text: 'hi' } });
    expect(outcome).toMatchObject({ ok: true });
    const [message] = openaiChat.results([outcome]);
    expect(message!.content.length).toBeLessThanOrEqual(DEFAULT_MAX_CHARS);
    expect(message!.content).toMatch(/\n\[Truncated: showing the first \d+ of 100000 characters\. Ask for less/);
  });

  it('a server that hangs: the call times out, notifications/cancelled is sent with its request id, and the server stays usable', async () => {
    const record = path.join(s.dir, 'cancelled');
    const { mount, registry } = await faulty('hang', { RECORD: record });
    // Connected first, so the 300 ms are the call's alone: on a busy machine starting the server
    // can take longer, and a call timed out before it was sent leaves nothing to cancel.
    await mount.refresh();
    const outcome = await registry.dispatch({ name: 'speak', input: { text: 'hi' } }, { timeoutMs: 300 });
    expect(outcome).toMatchObject({
      ok: false,
      error: { code: 'timeout', message: expect.stringMatching(/^speak \(mcp server "fault-hang"\) did not finish within 300 ms/) },
    });
    expect(await until(() => starts(record) === 1)).toBe(true);
    const cancelled = JSON.parse(readFileSync(record, 'utf8').trim()) as { requestId: unknown; reason: string };
    expect(cancelled.requestId).toEqual(expect.any(Number));
    expect(cancelled.reason).toContain('did not finish within 300 ms');
    expect(mount.state().status).toBe('connected');
  });

  it('a caller abort is sent on as notifications/cancelled', async () => {
    const record = path.join(s.dir, 'cancelled');
    const calls = path.join(s.dir, 'calls');
    const { registry } = await faulty('hang', { RECORD: record, CALLS: calls });
    const controller = new AbortController();
    const running = registry.dispatch({ name: 'speak', input: { text: 'hi' } }, { signal: controller.signal });
    // Stopped once the server is running the call: a fixed wait lost the race to a slow start
    // (the call was not sent yet, so there was nothing to cancel).
    expect(await until(() => starts(calls) === 1)).toBe(true);
    controller.abort('user pressed stop');
    expect(await running).toMatchObject({ ok: false, error: { code: 'aborted' } });
    expect(await until(() => starts(record) === 1)).toBe(true);
    expect(readFileSync(record, 'utf8')).toContain('user pressed stop');
  });

  it('invalid input never reaches the server: the one-tool server is not even started', async () => {
    const count = path.join(s.dir, 'starts');
    const { mount, registry } = await faulty('ok', { STARTS: count });
    const before = starts(count);
    for (const input of [{}, { text: 5 }, { text: 'x'.repeat(21) }, { text: 'a', extra: 1 }, [], null]) {
      const outcome = await registry.dispatch({ name: 'speak', input });
      expect(outcome).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    }
    expect(starts(count)).toBe(before);
    expect(mount.state()).toEqual({ status: 'idle' });
  });

  it('honours tools/list_changed while connected: listeners get the new list and the cache is rewritten', async () => {
    const mount = s.mount(fault('list-changed', {}, { annotations: { '*': { readOnly: true, openWorld: false } } }));
    const changed: string[][] = [];
    mount.onToolsChanged((definitions) => changed.push(definitions.map((definition) => definition.name)));
    const registry = registryOf([[mount, await mount.refresh()]]);
    expect(await registry.dispatch({ name: 'speak', input: { text: 'hi' } })).toMatchObject({ ok: true });
    expect(await until(() => changed.length === 1)).toBe(true);
    expect(changed[0]).toEqual(['speak', 'shout']);
    expect(
      s
        .mount(fault('list-changed'))
        .cached()!
        .map((definition) => definition.name),
    ).toEqual(['speak', 'shout']);
    // This mount keeps serving what its registry was sealed with until refresh().
    expect(() => mount.tool('shout')).toThrow('MCP server "fault-list-changed" has no tool "shout"; its tools: speak.');
    await mount.refresh();
    expect(mount.tool('shout').name).toBe('shout');
  });

  it('20 calls at once on an idle mount start the server once, 5 rounds', async () => {
    for (let round = 0; round < 5; round++) {
      const count = path.join(s.dir, `starts-${round}`);
      const { mount, registry } = await faulty('ok', { STARTS: count });
      const before = starts(count);
      const outcomes = await Promise.all(
        Array.from({ length: 20 }, (_, i) => registry.dispatch({ name: 'speak', input: { text: `call ${i}` } })),
      );
      expect(outcomes.map((outcome) => outcome.ok && outcome.output)).toEqual(Array.from({ length: 20 }, (_, i) => `call ${i}`));
      expect(starts(count)).toBe(before + 1);
      expect(mount.state().status).toBe('connected');
      await mount.close();
    }
  });

  it('close() during a start that hangs: the start gives up at once, the call fails naming the server, the process is ended, 5 rounds', async () => {
    for (let round = 0; round < 5; round++) {
      const pidfile = path.join(s.dir, `pid-${round}`);
      const config = fault(
        'silent',
        { PIDFILE: pidfile },
        { startTimeoutMs: 600_000, annotations: { '*': { readOnly: true, openWorld: false } } },
      );
      // Listed before, when it still answered: its manifest is in the cache.
      writeCache(cacheFile(s.ctx.cacheDir, config.name), configHash(config, s.ctx.cwd), config.name, [
        { name: 'speak', description: 'Repeat the text.', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } },
      ]);
      const mount = s.mount(config);
      const registry = registryOf([[mount, mount.cached()!]]);
      const call = registry.dispatch({ name: 'speak', input: { text: 'hi' } });
      expect(await until(() => mount.state().status === 'starting' && existsSync(pidfile), 400)).toBe(true);
      await mount.close();
      const outcome = await call;
      expect(outcome).toMatchObject({
        ok: false,
        error: { code: 'execution_failed', message: expect.stringContaining('MCP server "fault-silent" is closed') },
      });
      expect(mount.state()).toEqual({ status: 'closed' });
      expect(await until(() => !alive(Number(readFileSync(pidfile, 'utf8'))))).toBe(true);
    }
  });

  it('after close(), calls fail naming the server and nothing restarts', async () => {
    const { mount, registry } = await faulty('ok');
    await mount.close();
    const outcome = await registry.dispatch({ name: 'speak', input: { text: 'hi' } });
    expect(outcome).toMatchObject({
      ok: false,
      error: { code: 'execution_failed', message: expect.stringContaining('MCP server "fault-ok" is closed') },
    });
    expect(mount.state()).toEqual({ status: 'closed' });
  });
});
