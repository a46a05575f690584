import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectFailure, makeTestTree, read, registryFor, SECRET_MARKERS, type TestTree } from './test-tree.fixture.js';

// A listing is the "is a directory" message: it must obey the policy a read obeys, on the real path.
let tree: TestTree;
beforeAll(async () => {
  tree = await makeTestTree();
  await mkdir(path.join(tree.root, 'private'));
  await writeFile(path.join(tree.root, 'private', 'PRIVATE-NAME.txt'), 'x\n');
  await mkdir(path.join(tree.root, 'docs'));
  await writeFile(path.join(tree.root, 'docs', 'guide.md'), '# Guide\n');
  await symlink('../private', path.join(tree.root, 'docs', 'to-private'));
  await symlink('../.git', path.join(tree.root, 'docs', 'to-git'));
  await symlink('private', path.join(tree.root, 'pub-link'));
  await writeFile(path.join(tree.root, 'sub', 'deep', 'PRIVATE-NOTES.txt'), 'x\n');
});
afterAll(() => tree.cleanup());

const listing = async (options: Record<string, unknown>, at: string) =>
  expectFailure(await read(registryFor({ root: tree.root, ...options }), { path: at }), 'execution_failed').error.message;

describe('a directory listing', () => {
  it('leaves out denied folders and files at the root, and links that lead out or to secrets', async () => {
    const message = await listing({}, '.');
    expect(message).toBe(
      'read_file reads files, and "." is a directory holding: certs/, config/, deep-dir-link, docs/, keys/, loop-a, loop-b, ' +
        'private/, pub-link, readme-link, README.md, src/, sub/. Call read_file with the path of one of its files.',
    );
    for (const hidden of [
      '.git',
      '.ssh',
      '.aws',
      '.env',
      '.npmrc',
      'link-to-git',
      'link-to-env',
      'link-to-outside',
      'chain-a',
      'link-to-etc',
    ]) {
      expect(message).not.toContain(hidden);
    }
  });

  it('refuses a denied folder asked for by name, like a read of a file in it', async () => {
    for (const at of ['.git', '.GIT', '.ssh', '.aws', '.git/']) {
      const failure = expectFailure(await read(registryFor({ root: tree.root }), { path: at }), 'denied');
      expect(failure.error.message).toContain('it is on the deny list of secret and private files');
    }
  });

  it('refuses a link to a denied folder instead of listing what the folder holds', async () => {
    const outcome = await read(registryFor({ root: tree.root }), { path: 'link-to-git' });
    expect(expectFailure(outcome, 'denied').error.message).toContain('deny list');
    for (const marker of ['config', 'HEAD', ...SECRET_MARKERS]) expect(JSON.stringify(outcome)).not.toContain(marker);
  });

  it('refuses a link to a folder the deny option covers, and hides links to it in other listings', async () => {
    const options = { deny: ['private/'] };
    const outcome = await read(registryFor({ root: tree.root, ...options }), { path: 'pub-link' });
    expectFailure(outcome, 'denied');
    expect(JSON.stringify(outcome)).not.toContain('PRIVATE-NAME');
    expect(await listing(options, 'docs')).toBe(
      'read_file reads files, and "docs" is a directory holding: guide.md. Call read_file with the path of one of its files.',
    );
    expect(await listing({}, 'docs')).toBe(
      'read_file reads files, and "docs" is a directory holding: guide.md, to-private. Call read_file with the path of one of its files.',
    );
  });

  it('filters a folder reached through a link by its real path, not by the path asked', async () => {
    const options = { deny: ['sub/deep/PRIVATE-NOTES.txt'] };
    expect(await listing(options, 'deep-dir-link')).toBe(
      'read_file reads files, and "deep-dir-link" is a directory holding: file.txt. Call read_file with the path of one of its files.',
    );
    expect(await listing({}, 'deep-dir-link')).toBe(
      'read_file reads files, and "deep-dir-link" is a directory holding: file.txt, PRIVATE-NOTES.txt. Call read_file with the path of one of its files.',
    );
  });

  it('never suggests a name that leads to a denied place', async () => {
    const registry = registryFor({ root: tree.root });
    const near = expectFailure(await read(registry, { path: 'docs/to-gitt' }), 'execution_failed');
    expect(near.error.message).toBe(
      'read_file cannot read "docs/to-gitt": no such file. Check the path, or list the folder to find the file.',
    );
    const allowed = expectFailure(await read(registry, { path: 'docs/to-privat' }), 'execution_failed');
    expect(allowed.error.message).toBe('read_file cannot read "docs/to-privat": no such file. Did you mean: docs/to-private?');
  });
});
