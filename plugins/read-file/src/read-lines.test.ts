import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ToolRegistry } from '@toolshed/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectFailure, expectSuccess, read, registryFor } from './test-tree.fixture.js';

let root: string;
const lines = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `line ${String(from + i).padStart(4, '0')}`);
const TWENTY_FIVE = `${lines(1, 25).join('\n')}\n`;
// Past the size up to which lines before a tail are counted, so they stay unnumbered.
const BIG_LINES = 1_000_000;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'read-file-lines-'));
  const put = (name: string, content: string | Buffer) => writeFile(path.join(root, name), content);
  await put('25.txt', TWENTY_FIVE);
  await put('no-final-newline.txt', lines(1, 25).join('\n'));
  await put('empty.txt', '');
  await put('crlf.txt', 'alpha\r\nbeta\r\ngamma\r\n');
  await put('bom.txt', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('hello\nworld\n')]));
  await put('invalid-utf8.txt', Buffer.from([0x61, 0xff, 0x62, 0x0a, 0xc3, 0x28, 0x0a]));
  // A binary read_file does not send (images and PDFs it does, media.test.ts): a gzip header.
  await put('zipped.gz', Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00]));
  await put('late-nul.txt', Buffer.concat([Buffer.from('a\n'.repeat(10_000)), Buffer.from([0x00, 0x0a])]));
  await put('long-line.txt', `${'é'.repeat(40)}\nshort\n`);
  await put('big.txt', `${lines(1, BIG_LINES).join('\n')}\n`);
  await mkdir(path.join(root, 'folder', 'inner'), { recursive: true });
  await put('folder/a.txt', 'a\n');
  await put('folder/.env', 'SECRET\n');
  execFileSync('mkfifo', [path.join(root, 'pipe')]);
});

afterAll(() => rm(root, { recursive: true, force: true }));

/** Reads the whole file call by call the way a model pages, following `offset: lastLine + 1`. */
async function pageThrough(registry: ToolRegistry, file: string, limit?: number) {
  const pages: Record<string, unknown>[] = [];
  let offset = 1;
  for (;;) {
    const { output } = expectSuccess(await read(registry, { path: file, offset, ...(limit ? { limit } : {}) }));
    pages.push(output);
    if (!output.hasMore) return pages;
    expect(output.note).toContain(`call again with offset: ${(output.lastLine as number) + 1}`);
    offset = (output.lastLine as number) + 1;
    expect(pages.length).toBeLessThan(100);
  }
}

describe('paging', () => {
  it('pages to the end with offset under the per-call line limit, losing and repeating nothing', async () => {
    const pages = await pageThrough(registryFor({ root, maxLines: 10 }), '25.txt');
    expect(pages.map((p) => [p.firstLine, p.lastLine, p.hasMore])).toEqual([
      [1, 10, true],
      [11, 20, true],
      [21, 25, false],
    ]);
    expect(pages.map((p) => p.text).join('\n')).toBe(lines(1, 25).join('\n'));
    expect(pages[0]!.note).toBe('Stopped at the 10-line limit per call. To read on, call again with offset: 11.');
    expect(pages[2]).toMatchObject({ totalLines: 25, size: TWENTY_FIVE.length });
    expect(pages[2]!.note).toBeUndefined();
  });

  it('pages with the caller’s own limit, also when the last line has no newline', async () => {
    const pages = await pageThrough(registryFor({ root }), 'no-final-newline.txt', 7);
    expect(pages.map((p) => p.lastLine)).toEqual([7, 14, 21, 25]);
    expect(pages.map((p) => p.text).join('\n')).toBe(lines(1, 25).join('\n'));
    expect(pages[0]!.note).toBe('To read on, call again with offset: 8.');
  });

  it('cuts at the byte limit on a line boundary and says how to read on', async () => {
    // Each line is 10 bytes with its newline: 45 bytes hold 4 whole lines.
    const { output } = expectSuccess(await read(registryFor({ root, maxBytes: 45 }), { path: '25.txt' }));
    expect(output).toMatchObject({ text: lines(1, 4).join('\n'), firstLine: 1, lastLine: 4, hasMore: true });
    expect(output.note).toBe('Stopped at the 45-byte limit per call. To read on, call again with offset: 5.');
    const pages = await pageThrough(registryFor({ root, maxBytes: 45 }), '25.txt');
    expect(pages.map((p) => p.text).join('\n')).toBe(lines(1, 25).join('\n'));
  });

  it('returns the head of a line longer than the byte limit, ending on a whole character', async () => {
    const { output } = expectSuccess(await read(registryFor({ root, maxBytes: 15 }), { path: 'long-line.txt' }));
    expect(output).toMatchObject({ text: 'é'.repeat(7), firstLine: 1, lastLine: 1, hasMore: true });
    expect(output.note).toBe(
      'Line 1 is longer than the 15-byte limit per call, so only its first 14 bytes are shown; the rest of that line cannot be read with read_file. Call again with offset: 2 for the lines after it.',
    );
    const next = expectSuccess(await read(registryFor({ root, maxBytes: 15 }), { path: 'long-line.txt', offset: 2 }));
    expect(next.output).toMatchObject({ text: 'short', firstLine: 2, hasMore: false, totalLines: 2 });
  });

  it('refuses an offset past the end, saying how many lines there are', async () => {
    const failure = expectFailure(await read(registryFor({ root }), { path: '25.txt', offset: 26 }), 'invalid_input');
    expect(failure.error.message).toBe(
      'offset 26 is past the end of "25.txt", which has 25 lines. Use an offset from 1 to 25, or a negative offset to read from the end.',
    );
  });

  it('reads a line deep in a large file, across chunk boundaries', async () => {
    const { output } = expectSuccess(await read(registryFor({ root }), { path: 'big.txt', offset: 654_321, limit: 3 }));
    expect(output).toMatchObject({ text: lines(654_321, 654_323).join('\n'), firstLine: 654_321, lastLine: 654_323, hasMore: true });
  });
});

describe('reading from the end', () => {
  it('numbers the last lines of a small file from the top', async () => {
    const { output } = expectSuccess(await read(registryFor({ root }), { path: '25.txt', offset: -3 }));
    expect(output).toMatchObject({ text: lines(23, 25).join('\n'), firstLine: 23, lastLine: 25, hasMore: false, totalLines: 25 });
  });

  it('applies the limit to the lines counted from the end', async () => {
    const { output } = expectSuccess(await read(registryFor({ root }), { path: 'no-final-newline.txt', offset: -3, limit: 2 }));
    expect(output).toMatchObject({ text: lines(23, 24).join('\n'), firstLine: 23, lastLine: 24, hasMore: true });
    expect(output.note).toBe('To read on, call again with offset: 25.');
  });

  it('returns the whole file when asked for more lines than it has', async () => {
    const { output } = expectSuccess(await read(registryFor({ root }), { path: '25.txt', offset: -100 }));
    expect(output).toMatchObject({ text: lines(1, 25).join('\n'), firstLine: 1, lastLine: 25, totalLines: 25 });
  });

  it('numbers the tail of a large file from the end and pages backward', async () => {
    const registry = registryFor({ root });
    const tail = expectSuccess(await read(registry, { path: 'big.txt', offset: -5 })).output;
    expect(tail).toMatchObject({ text: lines(BIG_LINES - 4, BIG_LINES).join('\n'), firstLine: -5, lastLine: -1, hasMore: false });
    expect(tail.totalLines).toBeUndefined();
    expect(tail.note).toContain('Lines are numbered from the end of the file (-1 is the last line)');
    const before = expectSuccess(await read(registry, { path: 'big.txt', offset: -10, limit: 5 })).output;
    expect(before).toMatchObject({ text: lines(BIG_LINES - 9, BIG_LINES - 5).join('\n'), firstLine: -10, lastLine: -6, hasMore: true });
    expect(before.note).toContain('To read on, call again with offset: -5.');
  });
});

describe('file contents', () => {
  it('returns CRLF lines with "\\n" and counts them as lines', async () => {
    const registry = registryFor({ root });
    expect(expectSuccess(await read(registry, { path: 'crlf.txt' })).output).toMatchObject({
      text: 'alpha\nbeta\ngamma',
      lastLine: 3,
      totalLines: 3,
    });
    expect(expectSuccess(await read(registry, { path: 'crlf.txt', offset: 2, limit: 1 })).output).toMatchObject({
      text: 'beta',
      firstLine: 2,
    });
    expect(expectSuccess(await read(registry, { path: 'crlf.txt', offset: -1 })).output).toMatchObject({ text: 'gamma', firstLine: 3 });
  });

  it('drops a BOM, also when the first line is reached from the end', async () => {
    const registry = registryFor({ root });
    expect(expectSuccess(await read(registry, { path: 'bom.txt' })).output.text).toBe('hello\nworld');
    expect(expectSuccess(await read(registry, { path: 'bom.txt', offset: -2, limit: 1 })).output.text).toBe('hello');
  });

  it('turns invalid UTF-8 into replacement characters', async () => {
    const { output } = expectSuccess(await read(registryFor({ root }), { path: 'invalid-utf8.txt' }));
    expect(output).toMatchObject({ text: 'a\uFFFDb\n\uFFFD(', lastLine: 2 });
  });

  it('reads an empty file as no lines', async () => {
    const registry = registryFor({ root });
    for (const offset of [undefined, -5]) {
      const { output } = expectSuccess(await read(registry, { path: 'empty.txt', ...(offset ? { offset } : {}) }));
      expect(output).toEqual({
        path: 'empty.txt',
        text: '',
        firstLine: 0,
        lastLine: 0,
        hasMore: false,
        size: 0,
        totalLines: 0,
        note: 'The file is empty.',
      });
    }
    const failure = expectFailure(await read(registry, { path: 'empty.txt', offset: 2 }), 'invalid_input');
    expect(failure.error.message).toBe('offset 2 is past the end of "empty.txt", which is empty.');
  });

  it('refuses a binary file', async () => {
    const failure = expectFailure(await read(registryFor({ root }), { path: 'zipped.gz' }), 'execution_failed');
    expect(failure.error.message).toBe('read_file cannot show "zipped.gz": it is a binary file (12 bytes), not text.');
  });

  it('refuses binary content past the first bytes when it reaches the lines read', async () => {
    const registry = registryFor({ root });
    expect(expectSuccess(await read(registry, { path: 'late-nul.txt', limit: 3 })).output.text).toBe('a\na\na');
    const failure = expectFailure(await read(registry, { path: 'late-nul.txt', offset: -1 }), 'execution_failed');
    expect(failure.error.message).toContain('it is a binary file');
  });
});

describe('what is not a readable file', () => {
  it('says a directory is one and lists what it holds, secrets left out', async () => {
    const failure = expectFailure(await read(registryFor({ root }), { path: 'folder' }), 'execution_failed');
    expect(failure.error.message).toBe(
      'read_file reads files, and "folder" is a directory holding: a.txt, inner/. Call read_file with the path of one of its files.',
    );
  });

  it('calls the root a directory too', async () => {
    const failure = expectFailure(await read(registryFor({ root }), { path: '.' }), 'execution_failed');
    expect(failure.error.message).toMatch(/^read_file reads files, and "\." is a directory holding: 25\.txt, big\.txt, /);
  });

  it('refuses a named pipe without waiting on it', async () => {
    const failure = expectFailure(await read(registryFor({ root }), { path: 'pipe' }), 'execution_failed');
    expect(failure.error.message).toBe(
      'read_file cannot read "pipe": it is not a regular file (a device, socket or pipe), and only regular files can be read.',
    );
  });

  it('reports an impossible file name without the absolute path the system names', async () => {
    const name = `${'a'.repeat(300)}.txt`;
    const failure = expectFailure(await read(registryFor({ root }), { path: name }), 'execution_failed');
    expect(failure.error.message).toBe(`read_file cannot read "${name}": a part of the path is longer than file names can be.`);
    expect(failure.error.message).not.toContain(root);
  });

  it('reports a missing file with similar names from its folder', async () => {
    const failure = expectFailure(await read(registryFor({ root }), { path: 'folder/b.txt' }), 'execution_failed');
    expect(failure.error.message).toBe('read_file cannot read "folder/b.txt": no such file. Did you mean: folder/a.txt?');
  });

  it('names the missing folder when the path breaks before its end', async () => {
    const failure = expectFailure(await read(registryFor({ root }), { path: 'foldr/a.txt' }), 'execution_failed');
    expect(failure.error.message).toBe(
      'read_file cannot read "foldr/a.txt": there is no folder "foldr" in the project root. Did you mean: folder?',
    );
  });

  it('never suggests a denied name', async () => {
    const failure = expectFailure(await read(registryFor({ root }), { path: 'folder/.envv' }), 'execution_failed');
    expect(failure.error.message).toBe(
      'read_file cannot read "folder/.envv": no such file. Check the path, or list the folder to find the file.',
    );
  });
});
