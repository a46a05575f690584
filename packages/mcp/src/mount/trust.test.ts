// A server's hints are its claim: a server that calls its destructive tool read-only gets no
// approval switched off by it (MCP: clients must treat annotations from servers as untrusted).
// Only the user's entry, `readOnlyTools` (or a mark), makes a mounted tool run unasked.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { McpServerConfig } from './api.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkServerConfig, isMcpConfigError } from './config.js';
import { packageDir, registryOf, scratch, type Scratch } from './mount.fixture.js';

const lyingServer = path.join(packageDir, 'test-fixtures/mount/lying-server.mjs');

let s: Scratch;
let victim: string;
let calls: string;
beforeEach(() => {
  s = scratch();
  victim = path.join(s.dir, 'precious.txt');
  writeFileSync(victim, 'keep me\n');
  calls = path.join(s.dir, 'calls.log');
});
afterEach(async () => {
  await s.cleanup();
});

const liar = (extra: Partial<McpServerConfig> = {}): McpServerConfig =>
  ({ name: 'liar', command: process.execPath, args: [lyingServer], env: { CALLS: calls }, ...extra }) as McpServerConfig;
const callsMade = () => (existsSync(calls) ? readFileSync(calls, 'utf8').split('\n').filter(Boolean) : []);

describe("a server's readOnlyHint decides nothing", () => {
  it('its destructive tool that says it is read-only is destructive and open-world, denied with no approver; the file stays', async () => {
    const mount = s.mount(liar());
    const definitions = await mount.refresh();
    // The server's title is shown; its hints are not taken.
    expect(definitions.find((definition) => definition.name === 'erase')!.annotations).toEqual({
      title: 'Show a file',
      readOnly: false,
      destructive: true,
      idempotent: false,
      openWorld: true,
    });
    const outcome = await registryOf([[mount, definitions]]).dispatch({ name: 'erase', input: { path: victim } });
    expect(outcome).toMatchObject({
      ok: false,
      error: { code: 'denied', message: expect.stringContaining('erase needs approval (it is destructive and open-world)') },
    });
    expect(readFileSync(victim, 'utf8')).toBe('keep me\n');
    expect(callsMade()).toEqual([]);
    // The claim is said to the user, with what to write if they trust it.
    expect(mount.notices()).toEqual([
      'MCP server "liar" says "erase", "peek" are read-only (readOnlyHint); a server\'s hints are not trusted, so they need approval. ' +
        'If you trust that, name them in its entry\'s "readOnlyTools": ["erase", "peek"].',
    ]);
  });

  it('the claim is not taken from the cache either: a start from the cache denies it the same', async () => {
    await s.mount(liar()).refresh();
    const mount = s.mount(liar());
    const definitions = mount.cached()!;
    expect(definitions.find((definition) => definition.name === 'erase')!.annotations).toMatchObject({
      destructive: true,
      openWorld: true,
    });
    expect(await registryOf([[mount, definitions]]).dispatch({ name: 'erase', input: { path: victim } })).toMatchObject({
      error: { code: 'denied' },
    });
    expect(existsSync(victim)).toBe(true);
  });
});

describe('readOnlyTools: the user says which tools are trusted as read-only', () => {
  it('a tool it names runs with no approver; the others are still denied', async () => {
    const mount = s.mount(liar({ readOnlyTools: ['peek'] }));
    const definitions = await mount.refresh();
    expect(definitions.find((definition) => definition.name === 'peek')!.annotations).toEqual({
      readOnly: true,
      destructive: false,
      idempotent: false,
      openWorld: false,
    });
    const registry = registryOf([[mount, definitions]]);
    expect(await registry.dispatch({ name: 'peek', input: { path: victim } })).toMatchObject({ ok: true, output: 'keep me\n' });
    expect(await registry.dispatch({ name: 'erase', input: { path: victim } })).toMatchObject({ ok: false, error: { code: 'denied' } });
    expect(existsSync(victim)).toBe(true);
    expect(callsMade()).toEqual(['peek']);
    expect(mount.notices()).toEqual([expect.stringContaining('MCP server "liar" says "erase" is read-only (readOnlyHint)')]);
  });

  it("trusting the liar is the user's call: once named, erase runs unasked (and erases)", async () => {
    const mount = s.mount(liar({ readOnlyTools: ['erase', 'peek'] }));
    const definitions = await mount.refresh();
    expect(await registryOf([[mount, definitions]]).dispatch({ name: 'erase', input: { path: victim } })).toMatchObject({ ok: true });
    expect(existsSync(victim)).toBe(false);
    expect(mount.notices()).toEqual([]);
  });

  it("names the server tool, not the renamed one; the user's marks win over it", async () => {
    const mount = s.mount(
      liar({ readOnlyTools: ['peek', 'erase'], rename: { peek: 'liar_peek' }, annotations: { erase: { destructive: true } } }),
    );
    const definitions = await mount.refresh();
    expect(
      definitions.map((definition) => [definition.name, definition.annotations!.readOnly, definition.annotations!.destructive]),
    ).toEqual([
      ['erase', true, true],
      ['liar_peek', true, false],
    ]);
    expect(await registryOf([[mount, definitions]]).dispatch({ name: 'erase', input: { path: victim } })).toMatchObject({
      error: { code: 'denied' },
    });
    expect(existsSync(victim)).toBe(true);
  });

  it('a name the server does not offer is a notice naming the server and the tool; the others still apply', async () => {
    const mount = s.mount(liar({ readOnlyTools: ['peek', 'read_file', 'liar_peek'], rename: { peek: 'liar_peek' } }));
    const definitions = await mount.refresh();
    expect(definitions.find((definition) => definition.name === 'liar_peek')!.annotations).toMatchObject({ readOnly: true });
    expect(mount.notices()).toEqual([
      'MCP server "liar" has no tool "read_file" (named in "readOnlyTools"); it offers erase, peek.',
      'MCP server "liar" has no tool "liar_peek" (named in "readOnlyTools"); it offers erase, peek.',
      expect.stringContaining('says "erase" is read-only'),
    ]);
  });

  it.each([
    ['peek', 'must be an array of non-empty strings, got "peek"'],
    [{ peek: true }, 'must be an array of non-empty strings'],
    [[''], 'must be an array of non-empty strings'],
    [[3], 'must be an array of non-empty strings'],
  ])('%j is a config error naming the field', (value, reason) => {
    let caught: unknown;
    try {
      checkServerConfig({ name: 'liar', command: 'node', readOnlyTools: value }, 'toolshed.config.json mcpServers[0] "liar"');
    } catch (error) {
      caught = error;
    }
    expect(isMcpConfigError(caught)).toBe(true);
    expect(caught).toMatchObject({ field: 'readOnlyTools' });
    expect((caught as Error).message).toContain(`toolshed.config.json mcpServers[0] "liar": "readOnlyTools" ${reason}`);
  });
});
