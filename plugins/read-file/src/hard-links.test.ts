import { link, lstat, mkdir, readFile, realpath, rename, rm, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTwinSearch } from './hard-links.js';
import { createPathPolicy } from './path-policy.js';
import {
  expectFailure,
  expectSuccess,
  makeTestTree,
  read,
  registryFor,
  SECRET_MARKERS,
  snapshot,
  type TestTree,
} from './test-tree.fixture.js';

// A hard link is the same file under a second name: no path shows it, only the link count does.
let tree: TestTree;
let before: string[];
const PNPM_FILE = 'node_modules/.pnpm/left-pad@1.3.0/node_modules/left-pad/index.js';

beforeAll(async () => {
  tree = await makeTestTree();
  const at = (name: string) => path.join(tree.root, name);
  await mkdir(at('notes'), { recursive: true });
  await link(at('.env'), at('notes/todo.txt'));
  await link(at('.git/config'), at('notes/git-config.txt'));
  await link(at('.ssh/id_rsa'), at('sub/deep/key.txt'));
  await link(at('config/.env.production'), at('config/settings.txt'));
  await link(at('README.md'), at('notes/readme-copy.md'));
  await link(path.join(tree.outside, 'secret.txt'), at('notes/outside-copy.txt'));
  // Other names from folders that are not above the secret (issue #31), and from a backup form of a denied name.
  await mkdir(at('docs/a/b/c/d/e'), { recursive: true });
  await link(at('config/.env.production'), at('docs/settings.txt'));
  await link(at('config/.env.production'), at('docs/a/b/c/d/e/deep.txt'));
  await mkdir(at('backup'), { recursive: true });
  await writeFile(at('backup/#.env#'), 'API_KEY=ENV-SECRET\n');
  await link(at('backup/#.env#'), at('docs/autosave.txt'));
  // A denied file inside node_modules is installed package content, not searched: the documented limit.
  await mkdir(at('node_modules/some-pkg'), { recursive: true });
  await writeFile(at('node_modules/some-pkg/.env'), 'PACKAGE=fixture\n');
  await link(at('node_modules/some-pkg/.env'), at('docs/package-env.txt'));
  // pnpm's layout: every file in node_modules is a hard link to one in a store outside the project.
  const store = path.join(tree.base, 'pnpm-store', 'files', '00');
  await mkdir(store, { recursive: true });
  await writeFile(path.join(store, 'abc123'), 'module.exports = leftPad;\n');
  await mkdir(path.dirname(at(PNPM_FILE)), { recursive: true });
  await link(path.join(store, 'abc123'), at(PNPM_FILE));
  before = await snapshot(tree.base);
});

afterAll(async () => {
  expect(await snapshot(tree.base)).toEqual(before);
  await tree.cleanup();
});

describe('hard links, by default (hardLinks: "deny-secrets")', () => {
  it.each([
    ['notes/todo.txt', '.env at the root'],
    ['notes/git-config.txt', '.git/config, one level into a denied folder at the root'],
    ['sub/deep/key.txt', '.ssh/id_rsa, from a folder two levels down'],
    ['config/settings.txt', 'config/.env.production, in the same folder'],
    ['docs/settings.txt', 'config/.env.production, from a folder beside it'],
    ['docs/a/b/c/d/e/deep.txt', 'config/.env.production, from a deep folder'],
    ['docs/autosave.txt', 'backup/#.env#, a backup form of a denied name'],
  ])('refuses %s, another name for %s', async (name) => {
    const outcome = await read(registryFor({ root: tree.root }), { path: name });
    const failure = expectFailure(outcome, 'denied');
    expect(failure.error.message).toBe(
      `read_file may not read ${JSON.stringify(name)}: it is another name (a hard link) for a file on the deny list of secret and private files. ` +
        'Do not retry with another spelling of this path; read files inside the project, or ask the user for what you need.',
    );
    for (const marker of SECRET_MARKERS) expect(JSON.stringify(outcome)).not.toContain(marker);
  });

  it('refuses a hard link to a file the deny option covers', async () => {
    const outcome = await read(registryFor({ root: tree.root, deny: ['README.md'] }), { path: 'notes/readme-copy.md' });
    expect(expectFailure(outcome, 'denied').error.message).toContain('another name (a hard link)');
  });

  it('reads a hard link to an ordinary file of the project', async () => {
    const { output } = expectSuccess(await read(registryFor({ root: tree.root }), { path: 'notes/readme-copy.md' }));
    expect(output.text).toBe('# Project\n\nHello.');
  });

  it("reads pnpm's hard-linked node_modules", async () => {
    const { output } = expectSuccess(await read(registryFor({ root: tree.root }), { path: PNPM_FILE }));
    expect(output.text).toBe('module.exports = leftPad;');
  });

  it('reads a hard link to a denied file inside node_modules, which is not searched: the documented limit', async () => {
    const { output } = expectSuccess(await read(registryFor({ root: tree.root }), { path: 'docs/package-env.txt' }));
    expect(output.text).toBe('PACKAGE=fixture');
  });

  it('refuses links made after the first read, to a secret that existed and to one made since', async () => {
    const registry = registryFor({ root: tree.root });
    const at = (name: string) => path.join(tree.root, name);
    // The first read of a linked file makes the search's walk.
    expectSuccess(await read(registry, { path: 'notes/readme-copy.md' }));
    const made: string[] = [];
    try {
      await link(at('.env'), at('docs/later.txt'));
      made.push('docs/later.txt');
      expect(expectFailure(await read(registry, { path: 'docs/later.txt' }), 'denied').error.message).toContain(
        'another name (a hard link)',
      );
      // A bounded race: each round a new secret, then a second name for it, read at once.
      for (let round = 0; round < 30; round++) {
        await writeFile(at(`config/.env.round-${round}`), `TOKEN=TOKEN-SECRET-${round}\n`);
        made.push(`config/.env.round-${round}`);
        await link(at(`config/.env.round-${round}`), at(`docs/round-${round}.txt`));
        made.push(`docs/round-${round}.txt`);
        const outcome = await read(registry, { path: `docs/round-${round}.txt` });
        expectFailure(outcome, 'denied');
        expect(JSON.stringify(outcome)).not.toContain('TOKEN-SECRET');
      }
      // An ordinary file that gets a denied name by a rename after the walk.
      await writeFile(at('docs/plain.txt'), 'PLAIN\n');
      await link(at('docs/plain.txt'), at('docs/plain-2.txt'));
      made.push('docs/plain.txt', 'docs/plain-2.txt');
      expect(expectSuccess(await read(registry, { path: 'docs/plain-2.txt' })).output.text).toBe('PLAIN');
      await rename(at('docs/plain.txt'), at('config/.env.renamed'));
      made.push('config/.env.renamed');
      expectFailure(await read(registry, { path: 'docs/plain-2.txt' }), 'denied');
    } finally {
      for (const name of made) await rm(at(name), { force: true });
    }
  });

  it('refuses a link made, long after the files, to a secret the kept walk saw with a single name', async () => {
    const at = (name: string) => path.join(tree.root, name);
    await writeFile(at('config/.env.staging'), 'DB=ENV-SECRET\n');
    await writeFile(at('docs/old.txt'), 'OLD\n');
    await link(at('docs/old.txt'), at('docs/old-2.txt'));
    // Past the clock slack, a walk trusts what it saw of files whose ctime is older than its start.
    await new Promise((resolve) => setTimeout(resolve, 2100));
    const registry = registryFor({ root: tree.root });
    try {
      expect(expectSuccess(await read(registry, { path: 'docs/old-2.txt' })).output.text).toBe('OLD');
      await link(at('config/.env.staging'), at('docs/staging.txt'));
      expectFailure(await read(registry, { path: 'docs/staging.txt' }), 'denied');
      expect(expectSuccess(await read(registry, { path: 'docs/old-2.txt' })).output.text).toBe('OLD');
    } finally {
      for (const name of ['config/.env.staging', 'docs/staging.txt', 'docs/old.txt', 'docs/old-2.txt']) await rm(at(name), { force: true });
    }
  });

  it('reads a file again once its denied other name is removed', async () => {
    const registry = registryFor({ root: tree.root });
    const at = (name: string) => path.join(tree.root, name);
    await writeFile(at('docs/shared.txt'), 'SHARED\n');
    await link(at('docs/shared.txt'), at('docs/.env.shared'));
    try {
      await link(at('docs/shared.txt'), at('docs/shared-2.txt'));
      expectFailure(await read(registry, { path: 'docs/shared-2.txt' }), 'denied');
      await unlink(at('docs/.env.shared'));
      expect(expectSuccess(await read(registry, { path: 'docs/shared-2.txt' })).output.text).toBe('SHARED');
    } finally {
      for (const name of ['docs/shared.txt', 'docs/.env.shared', 'docs/shared-2.txt']) await rm(at(name), { force: true });
    }
  });

  it('reads a hard link to an outside file that is not on the deny list: the documented limit of the default', async () => {
    const { output } = expectSuccess(await read(registryFor({ root: tree.root }), { path: 'notes/outside-copy.txt' }));
    expect(output.text).toBe(await readFile(path.join(tree.outside, 'secret.txt'), 'utf8').then((text) => text.trimEnd()));
  });
});

describe('hardLinks: "deny-all"', () => {
  it.each(['notes/todo.txt', 'notes/readme-copy.md', 'notes/outside-copy.txt', PNPM_FILE])('refuses %s', async (name) => {
    const outcome = await read(registryFor({ root: tree.root, hardLinks: 'deny-all' }), { path: name });
    expect(expectFailure(outcome, 'denied').error.message).toBe(
      `read_file may not read ${JSON.stringify(name)}: it has 2 names (hard links), and this project reads only files with a single name. ` +
        'Do not retry with another spelling of this path; read files inside the project, or ask the user for what you need.',
    );
    for (const marker of SECRET_MARKERS) expect(JSON.stringify(outcome)).not.toContain(marker);
  });

  it('still reads files with a single name, and lists folders (which always have several links)', async () => {
    const registry = registryFor({ root: tree.root, hardLinks: 'deny-all' });
    expect(expectSuccess(await read(registry, { path: 'src/index.ts' })).output.text).toBe('export const answer = 42;');
    const listing = expectFailure(await read(registry, { path: 'sub' }), 'execution_failed');
    expect(listing.error.message).toContain('"sub" is a directory holding: deep/');
  });
});

describe('the walk past its bound', () => {
  it('cannot clear a linked file once the walk stopped early, and still finds a secret it reached', async () => {
    const policy = createPathPolicy([], undefined);
    const stats = (name: string) => lstat(path.join(tree.root, name), { bigint: true });
    const restat = (name: string) => () => stats(name);
    const realRoot = await realpath(tree.root);
    // A bound far below the tree's size: the walk stops in the root's first listing.
    const small = createTwinSearch(policy, 5);
    expect(await small(realRoot, await stats('notes/readme-copy.md'), restat('notes/readme-copy.md'))).toBe('unknown');
    const whole = createTwinSearch(policy);
    expect(await whole(realRoot, await stats('notes/readme-copy.md'), restat('notes/readme-copy.md'))).toBe('clear');
    expect(await whole(realRoot, await stats('docs/settings.txt'), restat('docs/settings.txt'))).toBe('denied');
  });
});
