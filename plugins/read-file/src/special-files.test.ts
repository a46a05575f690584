// What read_file does with what is not a regular file (a named pipe), and with a root given as a link.
import { execFileSync } from 'node:child_process';
import { closeSync, constants, openSync, readSync, writeSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectFailure, expectSuccess, read, registryFor } from './test-tree.fixture.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'read-file-special-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const refusal = (shown: string) =>
  `read_file cannot read ${shown}: it is not a regular file (a device, socket or pipe), and only regular files can be read.`;

describe('named pipes (FIFOs) in the root', () => {
  it('refuses one with no writer at once: an open would block until some process wrote', async () => {
    const root = path.join(dir, 'no-writer');
    await mkdir(root);
    execFileSync('mkfifo', [path.join(root, 'pipe')]);
    await symlink('pipe', path.join(root, 'to-pipe'));
    // A blocking open would hold the call until the tool's timeout (and a libuv thread for good): the outcome would be `timeout`.
    const registry = registryFor({ root });
    expect(expectFailure(await read(registry, { path: 'pipe' }), 'execution_failed').error.message).toBe(refusal('"pipe"'));
    expect(expectFailure(await read(registry, { path: 'to-pipe', offset: -5 }), 'execution_failed').error.message).toBe(
      refusal('"to-pipe"'),
    );
  });

  it('refuses one that holds data, and reads none of it', async () => {
    const root = path.join(dir, 'with-data');
    await mkdir(root);
    const pipe = path.join(root, 'pipe');
    execFileSync('mkfifo', [pipe]);
    // Read and write ends in one descriptor (Linux): the data waits in the pipe for any reader.
    const fd = openSync(pipe, constants.O_RDWR | constants.O_NONBLOCK);
    try {
      writeSync(fd, 'PIPE-SECRET\n');
      const outcome = await read(registryFor({ root }), { path: 'pipe' });
      expect(expectFailure(outcome, 'execution_failed').error.message).toBe(refusal('"pipe"'));
      expect(JSON.stringify(outcome)).not.toContain('PIPE-SECRET');
      // Every byte is still in the pipe: nothing was taken out of it.
      const left = Buffer.alloc(64);
      expect(left.subarray(0, readSync(fd, left)).toString()).toBe('PIPE-SECRET\n');
    } finally {
      closeSync(fd);
    }
  });
});

describe('the root', () => {
  it('is resolved once per tool: a root link pointed elsewhere later still reads the first target', async () => {
    for (const name of ['first', 'second']) {
      await mkdir(path.join(dir, name));
      await writeFile(path.join(dir, name, 'which.txt'), `${name}\n`);
    }
    const link = path.join(dir, 'current');
    await symlink('first', link);
    const registry = registryFor({ root: link });
    expect(expectSuccess(await read(registry, { path: 'which.txt' })).output.text).toBe('first');
    await unlink(link);
    await symlink('second', link);
    expect(expectSuccess(await read(registry, { path: 'which.txt' })).output.text).toBe('first');
    // A tool made now takes the new target.
    expect(expectSuccess(await read(registryFor({ root: link }), { path: 'which.txt' })).output.text).toBe('second');
  });

  it('that is missing is looked for again on the next call', async () => {
    const root = path.join(dir, 'later');
    const registry = registryFor({ root });
    expect(expectFailure(await read(registry, { path: 'a.txt' }), 'execution_failed').error.message).toBe(
      `read_file's root folder is missing or unreadable; ask the user to check the plugin's "root" option.`,
    );
    await mkdir(root);
    await writeFile(path.join(root, 'a.txt'), 'here now\n');
    expect(expectSuccess(await read(registry, { path: 'a.txt' })).output.text).toBe('here now');
  });
});
