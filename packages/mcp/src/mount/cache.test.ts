import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cacheFile, configHash, readCache, writeCache } from './cache.js';
import { cacheModule } from './mount.fixture.js';
import { mountServer } from './mount.js';
import type { ServerTool } from './definitions.js';

const tool = (name: string): ServerTool => ({ name, description: `Tool ${name}.`, inputSchema: { type: 'object' } });
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'toolshed-mount-cache-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('the manifest cache', () => {
  const config = { name: 's', command: 'node', args: ['server.js'], env: { TOKEN: 'sk-1' } };

  it('is keyed by command, args, env (names and values) and cwd, and not by include, rename or marks', () => {
    const base = configHash(config, dir);
    expect(configHash({ ...config, include: ['a'], rename: { a: 'b' }, annotations: { '*': { readOnly: true } } }, dir)).toBe(base);
    for (const changed of [
      { ...config, command: 'node2' },
      { ...config, args: ['server.js', '--x'] },
      { ...config, env: { TOKEN: 'sk-2' } },
      { ...config, env: { TOKEN2: 'sk-1' } },
      { ...config, cwd: 'sub' },
    ]) {
      expect(configHash(changed, dir)).not.toBe(base);
    }
    expect(configHash(config, path.join(dir, 'other'))).not.toBe(base);
    expect(configHash({ name: 'h', url: 'http://h/mcp', headers: { A: '1' } }, dir)).not.toBe(
      configHash({ name: 'h', url: 'http://h/mcp', headers: { A: '2' } }, dir),
    );
  });

  it('takes a value read from {"env": NAME} as that name: a new secret keeps the key, another variable changes it', () => {
    const fromEnv = { env: { TOKEN: 'API_TOKEN' } };
    const base = configHash(config, dir, fromEnv);
    expect(configHash({ ...config, env: { TOKEN: 'sk-2' } }, dir, fromEnv)).toBe(base);
    expect(configHash({ ...config, env: { TOKEN: 'sk-2' } }, dir, { env: { TOKEN: 'OTHER_TOKEN' } })).not.toBe(base);
    // Written out, the same text is another config: a literal never stands for a variable.
    expect(configHash(config, dir)).not.toBe(base);
    expect(configHash({ ...config, env: { TOKEN: 'API_TOKEN' } }, dir)).not.toBe(base);
    // Only the entries named: the others still enter by value.
    const two = { ...config, env: { TOKEN: 'sk-1', LEVEL: 'warn' } };
    expect(configHash({ ...two, env: { TOKEN: 'sk-9', LEVEL: 'warn' } }, dir, fromEnv)).toBe(configHash(two, dir, fromEnv));
    expect(configHash({ ...two, env: { TOKEN: 'sk-1', LEVEL: 'debug' } }, dir, fromEnv)).not.toBe(configHash(two, dir, fromEnv));
    // Headers alike, and a name on Object.prototype is no reference unless given.
    const http = (auth: string) => ({ name: 'h', url: 'http://h/mcp', headers: { Authorization: auth, constructor: 'x' } });
    const headers = { headers: { Authorization: 'AUTH' } };
    expect(configHash(http('Bearer a'), dir, headers)).toBe(configHash(http('Bearer b'), dir, headers));
    expect(configHash(http('Bearer a'), dir)).not.toBe(configHash(http('Bearer b'), dir));
  });

  it('reads back what it wrote, and nothing for another hash', () => {
    const file = cacheFile(dir, 's');
    writeCache(file, 'hash-a', 's', [tool('a')]);
    expect(readCache(file, 'hash-a')).toEqual([tool('a')]);
    expect(readCache(file, 'hash-b')).toBeUndefined();
    expect(readCache(cacheFile(dir, 'missing'), 'hash-a')).toBeUndefined();
  });

  it.each([
    ['a torn file', (text: string) => text.slice(0, Math.floor(text.length / 2))],
    ['an empty file', () => ''],
    ['not an object', () => '[1,2]'],
    ['another version', (text: string) => text.replace('"version": 1', '"version": 99')],
    ['tools not a list', (text: string) => text.replace(/"tools": \[[\s\S]*\]/, '"tools": {}')],
    ['a tool without a name', (text: string) => text.replace('"name": "a"', '"name": 5')],
  ])('ignores %s', (_what, damage) => {
    const file = cacheFile(dir, 's');
    writeCache(file, 'hash-a', 's', [tool('a')]);
    writeFileSync(file, damage(readFileSync(file, 'utf8')));
    expect(readCache(file, 'hash-a')).toBeUndefined();
  });

  // Two processes have their own pids; two worker threads share one, so only the random part of
  // the temporary file's name keeps their writes apart.
  it.each(['processes', 'worker threads of one process'])(
    'two %s rewriting it (2,000 tools) 300 times each while it is read: every read is whole',
    async (writers) => {
      const file = cacheFile(dir, 's');
      writeCache(file, 'hash-a', 's', [tool('first')]);
      // The writers run this very source, bundled with the modules it imports (the package ships
      // the mount only as one bundle).
      const module = await cacheModule(dir);
      const writer = (label: string) =>
        new Promise<number | null>((resolve) => {
          const write = `({ writeCache }) => {
          const tools = Array.from({ length: 2000 }, (_, i) => ({ name: '${label}' + i, description: 'x'.repeat(100), inputSchema: { type: 'object' } }));
          for (let i = 0; i < 300; i++) writeCache(${JSON.stringify(file)}, 'hash-a', 's', tools);
        }`;
          const script = `import(${JSON.stringify(module)}).then(${write});`;
          if (writers === 'processes') spawn(process.execPath, ['-e', script], { stdio: 'inherit' }).on('exit', resolve);
          else new Worker(script, { eval: true }).on('exit', resolve);
        });
      const written = Promise.all([writer('one'), writer('two')]);
      let done = false;
      void written.then(() => (done = true));
      let reads = 0;
      let torn = 0;
      const seen = new Set<string>();
      while (!done) {
        // Bursts of reads between turns of the event loop, so the writers' exits are noticed.
        for (let i = 0; i < 20; i++) {
          const cache = readCache(file, 'hash-a');
          reads += 1;
          if (!cache) torn += 1;
          else seen.add(cache[0]!.name);
        }
        await new Promise((resolve) => setImmediate(resolve));
      }
      expect(await written).toEqual([0, 0]);
      expect(reads).toBeGreaterThan(10);
      expect(torn).toBe(0);
      expect(seen.has('one0') || seen.has('two0')).toBe(true);
      expect(readCache(file, 'hash-a')).toHaveLength(2000);
      // No temporary file is left behind.
      expect(readdirSync(dir).sort()).toEqual(['cache-writer.mjs', 's.json']);
    },
  );
});

describe('a mount reading the cache', () => {
  const config = { name: 'speaker', command: 'speaker-server', args: ['--stdio'], rename: { erase: 'wipe' } };
  const tools: ServerTool[] = [
    { name: 'speak', description: 'Says it.', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } },
    { name: 'erase', inputSchema: { type: 'object' }, annotations: { destructiveHint: true } },
  ];
  const ctx = () => ({ cwd: dir, cacheDir: path.join(dir, 'cache') });
  const names = (definitions: { name: string }[] | undefined) => definitions?.map((definition) => definition.name);

  it('never writes: the file stays as it was and nothing is written beside it; a rewrite since is what the next mount reads', async () => {
    const file = cacheFile(ctx().cacheDir, 'speaker');
    const hash = configHash(config, dir);
    writeCache(file, hash, 'speaker', tools);
    const before = readFileSync(file, 'utf8');
    const { ino } = statSync(file);
    const mount = mountServer(config, ctx());
    expect(names(mount.cached())).toEqual(['speak', 'wipe']);
    expect(readFileSync(file, 'utf8')).toBe(before);
    expect(statSync(file).ino).toBe(ino);
    expect(readdirSync(ctx().cacheDir)).toEqual(['speaker.json']);
    // Another process lists the server again (new tools) after this mount read the old ones.
    writeCache(file, hash, 'speaker', [tools[0]!]);
    const fresh = mountServer(config, ctx());
    expect(names(fresh.cached())).toEqual(['speak']);
    await Promise.all([mount.close(), fresh.close()]);
  });

  it('while another process rewrites it 200 times: every mount reads whole tools, and the last reads the last write', async () => {
    const file = cacheFile(ctx().cacheDir, 'speaker');
    const hash = configHash(config, dir);
    writeCache(file, hash, 'speaker', [{ ...tools[0]!, name: 't0' }]);
    const module = await cacheModule(dir);
    const write = `({ writeCache }) => {
      for (let i = 1; i <= 200; i++) writeCache(${JSON.stringify(file)}, ${JSON.stringify(hash)}, 'speaker', [{ name: 't' + i, inputSchema: { type: 'object' } }]);
    }`;
    const written = new Promise<number | null>((resolve) =>
      spawn(process.execPath, ['-e', `import(${JSON.stringify(module)}).then(${write});`], { stdio: 'inherit' }).on('exit', resolve),
    );
    let done = false;
    void written.then(() => (done = true));
    const read: (string[] | undefined)[] = [];
    while (!done) {
      const mount = mountServer(config, ctx());
      read.push(names(mount.cached()));
      await mount.close();
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(await written).toBe(0);
    expect(read.length).toBeGreaterThan(0);
    for (const one of read) expect(one).toEqual([expect.stringMatching(/^t\d+$/)]);
    const last = mountServer(config, ctx());
    expect(names(last.cached())).toEqual(['t200']);
    await last.close();
  });
});
