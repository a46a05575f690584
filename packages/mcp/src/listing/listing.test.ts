import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cacheFile, configHash, writeCache } from '../mount/cache.js';
import type { ServerTool } from '../mount/definitions.js';
import { everything, fault, packageDir, registryOf, type Scratch, scratch } from '../mount/mount.fixture.js';
import { mountServer } from '../mount/mount.js';
import { readListing } from './index.js';

// What the host does for `toolshed list`: the mount, given the entry as written, keeps what it
// made of the cached tools; the next listing reads it with readListing alone.
const tools: ServerTool[] = [
  { name: 'speak', description: 'Says it.', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } },
  { name: 'bad name', description: 'Left out.', inputSchema: { type: 'object' } },
  { name: 'erase', inputSchema: { type: 'object' }, annotations: { destructiveHint: true } },
];

let s: Scratch;
beforeEach(() => {
  s = scratch();
});
afterEach(() => s.cleanup());

/** The server's cache as a listing with tools/list would have left it, then a mount that reads it. */
function cachedMount(written: Record<string, unknown>, resolved: Record<string, unknown> = written) {
  const config = resolved as unknown as Parameters<typeof mountServer>[0];
  writeCache(cacheFile(s.ctx.cacheDir, config.name), configHash(config, s.ctx.cwd), config.name, tools);
  const mount = mountServer(config, { ...s.ctx, written });
  s.mounts.push(mount);
  return mount;
}

const entry = { name: 'speaker', command: 'speaker-server', args: ['--stdio'], rename: { erase: 'wipe' } };
const ctx = () => ({ cwd: s.ctx.cwd, cacheDir: s.ctx.cacheDir });

describe('readListing', () => {
  it('gives what the mount made of its cached tools for the entry: the same definitions and notices', () => {
    expect(readListing(entry, ctx())).toBeUndefined();
    const mount = cachedMount(entry);
    const definitions = mount.cached()!;
    expect(definitions.map((definition) => definition.name)).toEqual(['speak', 'wipe']);
    const listing = readListing(entry, ctx());
    expect(listing).toEqual({ definitions, notices: mount.notices() });
    expect(listing!.notices).toEqual([expect.stringContaining('tool "bad name" is left out')]);
    // The same entry with its keys in another order is the same entry.
    const reordered = { rename: { erase: 'wipe' }, args: ['--stdio'], command: 'speaker-server', name: 'speaker' };
    expect(readListing(reordered, ctx())).toEqual(listing);
  });

  it('gives nothing for an entry that changed in any field, another project, or a name that is not a server name', () => {
    cachedMount(entry).cached();
    expect(readListing({ ...entry, rename: { erase: 'remove' } }, ctx())).toBeUndefined();
    expect(readListing({ ...entry, include: ['speak'] }, ctx())).toBeUndefined();
    // A field the mount's check refuses: its listing would never be kept, and none is read.
    expect(readListing({ ...entry, colour: 'blue' }, ctx())).toBeUndefined();
    expect(readListing(entry, { ...ctx(), cwd: path.join(s.dir, 'elsewhere') })).toBeUndefined();
    expect(readListing({ ...entry, name: '../speaker' }, ctx())).toBeUndefined();
    expect(readListing({ ...entry, name: 42 }, ctx())).toBeUndefined();
    // The entry itself still reads.
    expect(readListing(entry, ctx())?.definitions).toHaveLength(2);
  });

  it('a changed entry is kept anew by the next mount that reads the cache: no server starts', () => {
    cachedMount(entry).cached();
    const renamed = { ...entry, rename: { erase: 'remove' } };
    expect(readListing(renamed, ctx())).toBeUndefined();
    cachedMount(renamed).cached();
    expect(readListing(renamed, ctx())?.definitions.map((definition) => definition.name)).toEqual(['speak', 'remove']);
    expect(readListing(entry, ctx())).toBeUndefined();
  });

  it('keeps no secret: an {"env": NAME} entry is keyed on the name, and the value is nowhere in the file', () => {
    const written = { name: 'speaker', command: 'speaker-server', env: { TOKEN: { env: 'SPEAKER_TOKEN' } } };
    const resolved = { name: 'speaker', command: 'speaker-server', env: { TOKEN: 's3cr3t-value' } };
    const mount = cachedMount(written, resolved);
    mount.cached();
    expect(readListing(written, ctx())?.definitions).toHaveLength(2);
    expect(readFileSync(cacheFile(s.ctx.cacheDir, 'speaker'), 'utf8')).not.toContain('s3cr3t');
  });

  it('gives nothing from a torn, garbled or hand-made file', () => {
    cachedMount(entry).cached();
    const file = cacheFile(s.ctx.cacheDir, 'speaker');
    const whole = readFileSync(file, 'utf8');
    writeFileSync(file, whole.slice(0, whole.length / 2));
    expect(readListing(entry, ctx())).toBeUndefined();
    const parsed = JSON.parse(whole);
    for (const listing of [
      { ...parsed.listing, definitions: 'all of them' },
      { ...parsed.listing, definitions: [{ description: 'no name' }] },
      { ...parsed.listing, notices: [1] },
      { ...parsed.listing, key: 7 },
    ]) {
      writeFileSync(file, JSON.stringify({ ...parsed, listing }));
      expect(readListing(entry, ctx())).toBeUndefined();
    }
    writeFileSync(file, JSON.stringify({ ...parsed, version: 2 }));
    expect(readListing(entry, ctx())).toBeUndefined();
  });

  it('a copy of another version of the package, or one without its package.json, reads nothing this one kept', () => {
    cachedMount(entry).cached();
    const built = path.join(packageDir, 'dist/listing/index.cjs');
    const copy = (version: string | undefined) => {
      const root = path.join(s.dir, `copy-${version ?? 'none'}`);
      mkdirSync(path.join(root, 'dist/listing'), { recursive: true });
      copyFileSync(built, path.join(root, 'dist/listing/index.cjs'));
      if (version) writeFileSync(path.join(root, 'package.json'), JSON.stringify({ name: '@toolshed/mcp', version }));
      return createRequire(import.meta.url)(path.join(root, 'dist/listing/index.cjs')) as { readListing: typeof readListing };
    };
    const own = JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8')).version as string;
    expect(copy(own).readListing(entry, ctx())?.definitions).toHaveLength(2);
    expect(copy('99.0.0').readListing(entry, ctx())).toBeUndefined();
    expect(copy(undefined).readListing(entry, ctx())).toBeUndefined();
  });
});

describe('a mount keeps the listing', () => {
  it('when it lists the tools of a started server, and a mount not given the entry drops it on its next write', async () => {
    const written = { ...everything(), include: ['echo', 'get-sum'] } as Record<string, unknown>;
    const mount = mountServer(written as never, { ...s.ctx, written });
    s.mounts.push(mount);
    const definitions = await mount.refresh();
    expect(readListing(written, ctx())).toEqual({ definitions, notices: [] });
    await mount.close();
    // Written by a mount that was not told the entry (a harness using the mount alone): no listing.
    const bare = s.mount(written as never);
    await bare.refresh();
    expect(readListing(written, ctx())).toBeUndefined();
  });

  it('when the server changes its tool list while connected: the listing is of the new list', async () => {
    const written = fault('list-changed', {}, { annotations: { '*': { readOnly: true, openWorld: false } } }) as unknown as Record<
      string,
      unknown
    >;
    const mount = mountServer(written as never, { ...s.ctx, written });
    s.mounts.push(mount);
    const changed = new Promise<void>((resolve) => mount.onToolsChanged(() => resolve()));
    const registry = registryOf([[mount, await mount.refresh()]]);
    expect(readListing(written, ctx())!.definitions.map((definition) => definition.name)).toEqual(['speak']);
    expect(await registry.dispatch({ name: 'speak', input: { text: 'hi' } })).toMatchObject({ ok: true });
    await changed;
    expect(readListing(written, ctx())!.definitions.map((definition) => definition.name)).toEqual(['speak', 'shout']);
  });
});
