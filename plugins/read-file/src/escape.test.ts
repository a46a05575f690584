import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ESCAPE_CORPUS } from './escape-corpus.fixture.js';
import { expectFailure, makeTestTree, read, registryFor, SECRET_MARKERS, snapshot, type TestTree } from './test-tree.fixture.js';
import type { ToolRegistry } from '@toolshed/core';

let tree: TestTree;
let registry: ToolRegistry;
let before: string[];

const fill = (input: string) => input.replaceAll('{root}', tree.root).replaceAll('{outside}', tree.outside).replaceAll('{base}', tree.base);

beforeAll(async () => {
  tree = await makeTestTree();
  registry = registryFor({ root: tree.root });
  before = await snapshot(tree.base);
});

afterAll(async () => {
  // Reading is all read_file does: the tree, outside folder included, is as it was.
  expect(await snapshot(tree.base)).toEqual(before);
  await tree.cleanup();
});

describe('escape corpus', () => {
  it('has at least 40 cases, each a distinct path', () => {
    expect(ESCAPE_CORPUS.length).toBeGreaterThanOrEqual(40);
    expect(new Set(ESCAPE_CORPUS.map((c) => c.path)).size).toBe(ESCAPE_CORPUS.length);
  });

  it.each(ESCAPE_CORPUS)('refuses $why: $path', async ({ path }) => {
    const outcome = await read(registry, { path: fill(path) });
    const failure = expectFailure(outcome, 'denied');
    expect(failure.error.message).toMatch(/^read_file may not read /);
    const everything = JSON.stringify(outcome);
    for (const marker of SECRET_MARKERS) expect(everything).not.toContain(marker);
  });
});

describe('a refusal does not tell whether the file exists', () => {
  const pairs: [string, string][] = [
    ['../outside/secret.txt', '../outside/no-such-file.txt'],
    ['{outside}/secret.txt', '{outside}/no-such-file.txt'],
    ['link-to-outside-dir/secret.txt', 'link-to-outside-dir/no-such-file.txt'],
    ['link-to-outside-file', 'dangling-outside'],
    ['.env', '.env.no-such-variant'],
    ['.git/config', '.git/no-such-file'],
    ['.ssh', '.gnupg'],
    ['keys/id_rsa', 'keys/id_rsa_no_such_key'],
  ];
  it.each(pairs)('%s and %s get the same refusal', async (existing, missing) => {
    const a = expectFailure(await read(registry, { path: fill(existing) }), 'denied');
    const b = expectFailure(await read(registry, { path: fill(missing) }), 'denied');
    const strip = (message: string, input: string) => message.replace(JSON.stringify(fill(input)), '<path>');
    expect(strip(a.error.message, existing)).toBe(strip(b.error.message, missing));
  });
});

describe('links that stay inside the root', () => {
  it('reads a file through a link to a file inside the root, under the name asked for', async () => {
    const outcome = await read(registry, { path: 'readme-link' });
    expect(outcome.ok && outcome.output).toMatchObject({ path: 'readme-link', text: '# Project\n\nHello.' });
  });

  it('reads a file through a link to a folder inside the root', async () => {
    const outcome = await read(registry, { path: 'deep-dir-link/file.txt' });
    expect(outcome.ok && outcome.output).toMatchObject({ path: 'deep-dir-link/file.txt', text: 'deep' });
  });

  it('reads an absolute path inside the root', async () => {
    const outcome = await read(registry, { path: `${tree.root}/src/index.ts` });
    expect(outcome.ok && outcome.output).toMatchObject({ path: 'src/index.ts', text: 'export const answer = 42;' });
  });

  it('reads a path with backslashes inside the root', async () => {
    const outcome = await read(registry, { path: 'sub\\deep\\file.txt' });
    expect(outcome.ok && outcome.output).toMatchObject({ path: 'sub/deep/file.txt', text: 'deep' });
  });

  it('reports a loop of links as an error, not a hang', async () => {
    const failure = expectFailure(await read(registry, { path: 'loop-a' }), 'execution_failed');
    expect(failure.error.message).toBe('read_file cannot read "loop-a": its symbolic links form a loop.');
  });
});
