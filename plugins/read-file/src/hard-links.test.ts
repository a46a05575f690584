import { link, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
