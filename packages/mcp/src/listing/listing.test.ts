import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cacheFile, configHash, listingFile, readCache, writeCache } from '../mount/cache.js';
import type { ServerTool } from '../mount/definitions.js';
import { cacheModule, everything, fault, packageDir, registryOf, type Scratch, scratch } from '../mount/mount.fixture.js';
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
    expect(readFileSync(listingFile(s.ctx.cacheDir, 'speaker'), 'utf8')).not.toContain('s3cr3t');
  });

  it('gives nothing from a torn, garbled or hand-made file, of the tools or of the listing', () => {
    cachedMount(entry).cached();
    const file = cacheFile(s.ctx.cacheDir, 'speaker');
    const kept = listingFile(s.ctx.cacheDir, 'speaker');
    const whole = readFileSync(file, 'utf8');
    const listed = readFileSync(kept, 'utf8');
    expect(readListing(entry, ctx())).toBeDefined();
    writeFileSync(file, whole.slice(0, whole.length / 2));
    expect(readListing(entry, ctx())).toBeUndefined();
    writeFileSync(file, whole);
    writeFileSync(kept, listed.slice(0, listed.length / 2));
    expect(readListing(entry, ctx())).toBeUndefined();
    const parsed = JSON.parse(listed);
    for (const listing of [
      { ...parsed, definitions: 'all of them' },
      { ...parsed, definitions: [{ description: 'no name' }] },
      { ...parsed, notices: [1] },
      { ...parsed, key: 7 },
      { ...parsed, generation: 'another write' },
    ]) {
      writeFileSync(kept, JSON.stringify(listing));
      expect(readListing(entry, ctx())).toBeUndefined();
    }
    writeFileSync(kept, JSON.stringify({ ...parsed, version: 2 }));
    expect(readListing(entry, ctx())).toBeUndefined();
    writeFileSync(kept, listed);
    writeFileSync(file, JSON.stringify({ ...JSON.parse(whole), version: 2 }));
    expect(readListing(entry, ctx())).toBeUndefined();
    writeFileSync(file, whole);
    expect(readListing(entry, ctx())).toBeDefined();
  });

  it('keeping a listing never writes the tools: a refresh made at the same time is never put back', () => {
    const mount = cachedMount(entry);
    const file = cacheFile(s.ctx.cacheDir, 'speaker');
    const before = readFileSync(file, 'utf8');
    const { ino } = statSync(file);
    mount.cached();
    expect(readFileSync(file, 'utf8')).toBe(before);
    expect(statSync(file).ino).toBe(ino);
    expect(readListing(entry, ctx())?.definitions).toHaveLength(2);
    // Another process lists the server again (new tools) after this mount read the old ones: the
    // listing kept from the old ones is not read for the new ones.
    const config = entry as unknown as Parameters<typeof mountServer>[0];
    writeCache(file, configHash(config, s.ctx.cwd), 'speaker', [tools[0]!]);
    expect(readListing(entry, ctx())).toBeUndefined();
    const fresh = mountServer(config, { ...s.ctx, written: entry });
    s.mounts.push(fresh);
    expect(fresh.cached()!.map((definition) => definition.name)).toEqual(['speak']);
    expect(readListing(entry, ctx())?.definitions.map((definition) => definition.name)).toEqual(['speak']);
  });

  it('a process listing the server again 200 times while mounts keep listings: the tools end as last written, and no listing of older tools is read', async () => {
    const config = entry as unknown as Parameters<typeof mountServer>[0];
    const file = cacheFile(s.ctx.cacheDir, 'speaker');
    const hash = configHash(config, s.ctx.cwd);
    writeCache(file, hash, 'speaker', [{ ...tools[0]!, name: 't0' }]);
    // The writer runs this package's own cache module, bundled (the package ships it only so).
    const module = await cacheModule(s.dir);
    const write = `({ writeCache }) => {
      for (let i = 1; i <= 200; i++) writeCache(${JSON.stringify(file)}, ${JSON.stringify(hash)}, 'speaker', [{ name: 't' + i, inputSchema: { type: 'object' } }]);
    }`;
    const written = new Promise<number | null>((resolve) =>
      spawn(process.execPath, ['-e', `import(${JSON.stringify(module)}).then(${write});`], { stdio: 'inherit' }).on('exit', resolve),
    );
    let done = false;
    void written.then(() => (done = true));
    let kept = 0;
    while (!done) {
      const mount = mountServer(config, { ...s.ctx, written: entry });
      if (mount.cached()) kept += 1;
      await mount.close();
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(await written).toBe(0);
    expect(kept).toBeGreaterThan(0);
    expect(readCache(file, hash)!.tools.map((tool) => tool.name)).toEqual(['t200']);
    const listing = readListing(entry, ctx());
    if (listing) expect(listing.definitions.map((definition) => definition.name)).toEqual(['t200']);
    // The next mount keeps the listing of what is there.
    const last = mountServer(config, { ...s.ctx, written: entry });
    s.mounts.push(last);
    last.cached();
    expect(readListing(entry, ctx())!.definitions.map((definition) => definition.name)).toEqual(['t200']);
  });

  it('a copy of another version of the package, or one without its package.json, reads nothing this one kept', async () => {
    cachedMount(entry).cached();
    const built = path.join(packageDir, 'dist/listing/index.js');
    const copy = async (version: string | undefined) => {
      const root = path.join(s.dir, `copy-${version ?? 'none'}`);
      mkdirSync(path.join(root, 'dist/listing'), { recursive: true });
      copyFileSync(built, path.join(root, 'dist/listing/index.js'));
      // An ES module there, whatever the folder above says: the copy's version is read two folders up.
      writeFileSync(path.join(root, 'dist/package.json'), JSON.stringify({ type: 'module' }));
      if (version) writeFileSync(path.join(root, 'package.json'), JSON.stringify({ name: '@toolshed/mcp', version }));
      return (await import(pathToFileURL(path.join(root, 'dist/listing/index.js')).href)) as { readListing: typeof readListing };
    };
    const own = JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8')).version as string;
    expect((await copy(own)).readListing(entry, ctx())?.definitions).toHaveLength(2);
    expect((await copy('99.0.0')).readListing(entry, ctx())).toBeUndefined();
    expect((await copy(undefined)).readListing(entry, ctx())).toBeUndefined();
  });
});

describe('a mount keeps the listing', () => {
  it('when it lists the tools of a started server, and a mount not given the entry drops it on its next write', async () => {
    const written = { ...everything(), include: ['echo', 'get-sum'], readOnlyTools: ['echo', 'get-sum'] } as Record<string, unknown>;
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
