import { mkdir, mkdtemp, readdir, readFile, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeHarness, makeTempDir, type Harness } from './harness.fixture.js';
import { createSendEmailTool } from './index.js';
import { writeToOutbox } from './outbox.js';
import { isSafeFileError } from './safe-file.js';

// Attack tests for "the outbox is written only inside the project root, never through a
// symbolic link": each plants a link the way a cloned repository could, and checks the
// clear error, that nothing appeared outside, and that no host path is named.

let cwd: string;
let outside: string;
let harness: Harness | undefined;
beforeEach(async () => {
  cwd = await makeTempDir();
  outside = await mkdtemp(join(tmpdir(), 'toolshed-outside-'));
});
afterEach(async () => {
  await harness?.dispose();
  harness = undefined;
  await rm(cwd, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

const message = { to: 'alice@example.com', subject: 'hello', body: 'text' };

async function failure(options: Parameters<typeof makeHarness>[0]) {
  harness = await makeHarness(options, cwd);
  const outcome = await harness.send(message);
  if (outcome.ok) throw new Error(`expected a failure, got ${JSON.stringify(outcome.output)}`);
  // No host path in anything that left the registry.
  expect(harness.transcript()).not.toContain(cwd);
  expect(harness.transcript()).not.toContain(outside);
  return outcome.error;
}

// The ledger is kept out of `.toolshed` here so that these tests are about the outbox alone.
const ledger = 'state/calls.jsonl';

describe('send_email outbox and symbolic links', () => {
  it('refuses .toolshed as a link to a folder outside the project, and writes nothing there', async () => {
    await symlink(outside, join(cwd, '.toolshed'));
    const error = await failure({ ledger });
    expect(error.code).toBe('execution_failed');
    expect(error.message).toBe(
      'send_email could not write to the outbox folder ".toolshed/outbox": ".toolshed" is a symbolic link, and files are written only ' +
        'inside the project root without following links. Nothing was saved. The outbox is written only inside the project root and never ' +
        'through a symbolic link: ask the user to replace the link with a real folder, or to set the outbox option to a folder inside the project.',
    );
    expect(await readdir(outside)).toEqual([]);

    // Once the link is replaced by a real folder, the same call goes through.
    await unlink(join(cwd, '.toolshed'));
    await mkdir(join(cwd, '.toolshed'));
    const again = await harness!.send(message);
    expect(again.ok).toBe(true);
    expect(await readdir(join(cwd, '.toolshed/outbox'))).toHaveLength(1);
  });

  it('with the default ledger and outbox (both under .toolshed), a linked .toolshed gets nothing written through it', async () => {
    await symlink(outside, join(cwd, '.toolshed'));
    const error = await failure(undefined);
    expect(error.code).toBe('execution_failed');
    // The ledger is opened first, so it is the one that refuses; either way nothing is sent or written.
    expect(error.message).toContain('".toolshed" is a symbolic link');
    expect(await readdir(outside)).toEqual([]);
  });

  it('refuses a ledger file that is a link to a file outside, leaving that file as it was', async () => {
    await mkdir(join(cwd, '.toolshed/send-email'), { recursive: true });
    await writeFile(join(outside, 'victim'), 'untouched');
    await symlink(join(outside, 'victim'), join(cwd, '.toolshed/send-email/calls.jsonl'));
    const error = await failure(undefined);
    expect(error.code).toBe('execution_failed');
    expect(error.message).toContain('".toolshed/send-email/calls.jsonl" is a symbolic link');
    expect(error.message).toContain('Nothing was sent');
    expect(await readFile(join(outside, 'victim'), 'utf8')).toBe('untouched');
    expect(await readdir(outside)).toEqual(['victim']);
    await expect(readdir(join(cwd, '.toolshed/outbox'))).rejects.toThrow(/ENOENT/);
  });

  it('refuses an outbox folder that is itself a link', async () => {
    await mkdir(join(cwd, '.toolshed'));
    await symlink(outside, join(cwd, '.toolshed/outbox'));
    const error = await failure({ ledger });
    expect(error.message).toContain('".toolshed/outbox" is a symbolic link');
    expect(await readdir(outside)).toEqual([]);
  });

  it('refuses a link even when it leads to a folder inside the project', async () => {
    await mkdir(join(cwd, 'mail'));
    await symlink(join(cwd, 'mail'), join(cwd, 'out'));
    const error = await failure({ ledger, outbox: 'out' });
    expect(error.message).toContain('"out" is a symbolic link');
    expect(await readdir(join(cwd, 'mail'))).toEqual([]);
  });

  it('refuses an outbox option outside the project when the tool is made', () => {
    for (const outbox of ['../elsewhere', outside]) {
      expect(() => createSendEmailTool({ outbox }, { cwd })).toThrow(
        `send_email options: outbox ${JSON.stringify(outbox)} is outside the project root; the outbox must be a folder inside the project, such as ".toolshed/outbox".`,
      );
    }
  });

  it('accepts an absolute outbox inside the project and shows it relative', async () => {
    harness = await makeHarness({ ledger, outbox: join(cwd, 'mail', 'out') }, cwd);
    const outcome = await harness.send(message);
    if (!outcome.ok) throw new Error(outcome.error.message);
    expect((outcome.output as { delivery: { file: string } }).delivery.file).toMatch(/^mail\/out\/\d{8}T\d{6}Z-[0-9a-f]{8}\.eml$/);
  });
});

describe('writeToOutbox', () => {
  const raw = Buffer.from('Subject: x\r\n\r\nbody\r\n');

  it('refuses a name that is already a link, leaving its target and the folder as they were', async () => {
    await mkdir(join(cwd, 'out'));
    await writeFile(join(outside, 'victim'), 'untouched');
    await symlink(join(outside, 'victim'), join(cwd, 'out', 'a.eml'));
    const error = await writeToOutbox(cwd, 'out', 'a.eml', raw).catch((e: unknown) => e);
    expect(isSafeFileError(error) && error.problem).toEqual({ kind: 'symlink', path: 'out/a.eml' });
    expect(await readFile(join(outside, 'victim'), 'utf8')).toBe('untouched');
    expect(await readdir(join(cwd, 'out'))).toEqual(['a.eml']);
  });

  it('refuses a name that is a dangling link, and creates nothing at its target', async () => {
    await mkdir(join(cwd, 'out'));
    await symlink(join(outside, 'new.eml'), join(cwd, 'out', 'a.eml'));
    const error = await writeToOutbox(cwd, 'out', 'a.eml', raw).catch((e: unknown) => e);
    expect(isSafeFileError(error) && error.problem).toEqual({ kind: 'symlink', path: 'out/a.eml' });
    expect(await readdir(outside)).toEqual([]);
  });

  it('never replaces an existing message', async () => {
    await mkdir(join(cwd, 'out'));
    await writeFile(join(cwd, 'out', 'a.eml'), 'first');
    const error = await writeToOutbox(cwd, 'out', 'a.eml', raw).catch((e: unknown) => e);
    expect(isSafeFileError(error) && error.problem).toEqual({ kind: 'exists', path: 'out/a.eml' });
    expect(await readFile(join(cwd, 'out', 'a.eml'), 'utf8')).toBe('first');
    expect(await readdir(join(cwd, 'out'))).toEqual(['a.eml']);
  });

  it('refuses a planted temporary file that is a link', async () => {
    await mkdir(join(cwd, 'out'));
    await symlink(join(outside, 'tmp'), join(cwd, 'out', '.a.eml.tmp'));
    const error = await writeToOutbox(cwd, 'out', 'a.eml', raw).catch((e: unknown) => e);
    expect(isSafeFileError(error) && error.problem).toEqual({ kind: 'symlink', path: 'out/.a.eml.tmp' });
    expect(await readdir(outside)).toEqual([]);
  });

  it('writes the message and returns its project-relative path', async () => {
    expect(await writeToOutbox(cwd, join(cwd, 'a', 'b'), 'm.eml', raw)).toBe('a/b/m.eml');
    expect(await readFile(join(cwd, 'a', 'b', 'm.eml'))).toEqual(raw);
    expect(await readdir(join(cwd, 'a', 'b'))).toEqual(['m.eml']);
  });
});
