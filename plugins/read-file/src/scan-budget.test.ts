import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ToolEvent } from '@toolshed/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MAX_SCAN_BYTES, DEFAULT_TIMEOUT_MS } from './options.js';
import { expectFailure, expectSuccess, read, registryFor } from './test-tree.fixture.js';

const GiB = 1024 ** 3;
let root: string;
// 1000 lines of 10 bytes: "line 0001\n" ... "line 1000\n".
const lines = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `line ${String(from + i).padStart(4, '0')}`);

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'read-file-scan-'));
  await writeFile(path.join(root, 'thousand.txt'), `${lines(1, 1000).join('\n')}\n`);
  // 10 GiB, sparse: 200 lines of text (past the 8 KiB looked at for binary content), then zeros to the end.
  const sparse = await open(path.join(root, 'sparse.log'), 'w');
  await sparse.write(`${'a line of text, sixty bytes long, to fill the first 8 KiB.'.padEnd(59, '.')}\n`.repeat(200));
  await sparse.truncate(10 * GiB);
  await sparse.close();
  // 40 MiB of lines, for a scan long enough to be stopped by a timeout.
  await writeFile(path.join(root, 'large.log'), 'log line of some length here\n'.repeat(1_450_000));
});
afterAll(() => rm(root, { recursive: true, force: true }));

/** Dispatches and records how far the tool's progress reports say it scanned. */
async function readWatched(options: Record<string, unknown>, input: Record<string, unknown>) {
  const registry = registryFor({ root, ...options });
  let scanned = 0;
  registry.subscribe((event: ToolEvent) => {
    if (event.type === 'call.progress') scanned = Math.max(scanned, event.progress.progress);
  });
  return { outcome: await read(registry, input), scanned: () => scanned };
}

describe('the scan budget (maxScanBytes)', () => {
  it('stops a search for the last line of a 10 GiB sparse file at the budget, and says how to read it instead', async () => {
    const { outcome, scanned } = await readWatched({}, { path: 'sparse.log', offset: -1 });
    expect(expectFailure(outcome, 'execution_failed').error.message).toBe(
      'read_file cannot find where the last line of "sparse.log" starts: it is longer than the 256 MiB read_file scans from the end in one call. ' +
        'Read the file from its start with a positive offset (offset: 1) instead.',
    );
    expect(scanned()).toBeGreaterThan(0);
    expect(scanned()).toBeLessThanOrEqual(DEFAULT_MAX_SCAN_BYTES);
    const first = expectSuccess(await read(registryFor({ root }), { path: 'sparse.log', limit: 1 }));
    expect(first.output).toMatchObject({ firstLine: 1, lastLine: 1, hasMore: true });
    expect(first.output.text).toMatch(/^a line of text/);
  });

  it('stops a search for a line far into the file at the budget, naming the lines it saw', async () => {
    const { outcome, scanned } = await readWatched({}, { path: 'sparse.log', offset: 300 });
    expect(expectFailure(outcome, 'execution_failed').error.message).toBe(
      `line 300 of "sparse.log" lies beyond the first 256 MiB of the file (${10 * GiB} bytes), which is as far as read_file scans in one call; ` +
        'those 256 MiB hold 200 lines. Read the end of the file with a negative offset (offset: -100 returns its last 100 lines), or ask the user for the part you need.',
    );
    expect(scanned()).toBeLessThanOrEqual(DEFAULT_MAX_SCAN_BYTES);
  });

  it('reads a line within the budget and refuses one past it', async () => {
    const registry = registryFor({ root, maxScanBytes: 1000 });
    // The 100th line ends at byte 1000, so line 101 is the last one whose start the budget reaches.
    expect(expectSuccess(await read(registry, { path: 'thousand.txt', offset: 101, limit: 1 })).output.text).toBe('line 0101');
    const failure = expectFailure(await read(registry, { path: 'thousand.txt', offset: 102 }), 'execution_failed');
    expect(failure.error.message).toBe(
      'line 102 of "thousand.txt" lies beyond the first 1000 bytes of the file (10000 bytes), which is as far as read_file scans in one call; ' +
        'those 1000 bytes hold 100 lines. Read the end of the file with a negative offset (offset: -100 returns its last 100 lines), or ask the user for the part you need.',
    );
  });

  it('returns the lines from the end that the budget reaches, numbered from the end, with a note', async () => {
    const { output } = expectSuccess(await read(registryFor({ root, maxScanBytes: 1000 }), { path: 'thousand.txt', offset: -500 }));
    expect(output).toMatchObject({ text: lines(901, 1000).join('\n'), firstLine: -100, lastLine: -1, hasMore: false });
    expect(output.note).toBe(
      'Only the last 100 lines lie within the last 1000 bytes of the file, which is as far as read_file scans from the end in one call; ' +
        'lines before them cannot be reached from the end (-1 is the last line). Read from the start with a positive offset instead.',
    );
  });

  it('says "line" for a single line on either side of the budget', async () => {
    const registry = registryFor({ root, maxScanBytes: 10 });
    const last = expectSuccess(await read(registry, { path: 'thousand.txt', offset: -5 })).output;
    expect(last).toMatchObject({ text: 'line 1000', firstLine: -1, lastLine: -1 });
    expect(last.note).toMatch(/^Only the last 1 line lies within the last 10 bytes of the file/);
    const failure = expectFailure(await read(registry, { path: 'thousand.txt', offset: 3 }), 'execution_failed');
    expect(failure.error.message).toContain('those 10 bytes hold 1 line. Read the end');
  });

  it('does not change a read from the end that stays within the budget', async () => {
    const { output } = expectSuccess(await read(registryFor({ root, maxScanBytes: 1000 }), { path: 'thousand.txt', offset: -50 }));
    expect(output).toMatchObject({ text: lines(951, 1000).join('\n'), firstLine: 951, lastLine: 1000, totalLines: 1000 });
    expect(output.note).toBeUndefined();
  });
});

describe('the default timeout', () => {
  it('is declared by the tool and applied by the registry', () => {
    expect(registryFor({ root }).get('read_file')?.timeoutMs).toBe(DEFAULT_TIMEOUT_MS);
    expect(registryFor({ root, timeoutMs: 5000 }).get('read_file')?.timeoutMs).toBe(5000);
  });

  it('stops a call that runs past it, without the caller giving a timeout', async () => {
    const registry = registryFor({ root, timeoutMs: 20 });
    let stalled = false;
    registry.subscribe((event) => {
      // Hold the first progress report past the timeout: the scan has chunks left, so the timer fires before it ends.
      if (event.type !== 'call.progress' || stalled) return;
      stalled = true;
      const until = performance.now() + 60;
      while (performance.now() < until);
    });
    // Under load the timer may fire before the first report: either way the call must end as a timeout.
    const outcome = await read(registry, { path: 'large.log', offset: 1_400_000 });
    expect(expectFailure(outcome, 'timeout').error.message).toBe(
      'read_file did not finish within 20 ms and was stopped. Try a smaller request, or retry later.',
    );
  });
});
