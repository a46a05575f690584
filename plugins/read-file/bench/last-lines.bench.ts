// The last 100 lines of a 1 GiB file: read_file (offset: -100) in a child
// process against `tail -n 100` on the same file, and a child that only loads
// the tool, each its own function in the same tinybench loop (vitest bench),
// each sample one process. Target: read_file's peak RSS < 100 MiB, i.e. the
// file is never loaded whole: a child over it fails its case, which the
// report then shows as a MISS. Needs 3 GiB free in the temporary folder; with
// less, the group is skipped with a message.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import { mkdtemp, open, statfs } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bench, describe } from 'vitest';

const GiB = 1024 ** 3;
const MiB = 1024 ** 2;
const child = fileURLToPath(new URL('./read-tail.child.js', import.meta.url));
const gnuTime = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;
const options = { time: 0, iterations: 5, warmupTime: 0, warmupIterations: 1 };

const disk = await statfs(tmpdir());
const free = disk.bavail * disk.bsize;
const enough = free >= 3 * GiB;
if (!enough) console.log(`last-lines benchmark skipped: ${(free / GiB).toFixed(1)} GiB free in ${tmpdir()}, it needs 3 GiB.`);

const dir = enough ? await mkdtemp(path.join(tmpdir(), 'read-file-bench-')) : '';
const file = path.join(dir, 'big.log');
if (enough) await generate(file, GiB);
const peaks: { read: number[]; idle: number[]; tail: number[] } = { read: [], idle: [], tail: [] };
let tailSha = '';

describe.skipIf(!enough)('last 100 lines of a 1 GiB file, one process', () => {
  bench(
    'floor: tail -n 100',
    () => {
      const tail = runTail();
      tailSha = tail.sha256;
      if (tail.maxRssKiB !== undefined) peaks.tail.push(tail.maxRssKiB);
    },
    options,
  );
  bench(
    'node with the tool loaded, no read',
    () => {
      peaks.idle.push(runNode('idle').maxRssKiB);
    },
    options,
  );
  bench(
    'read_file in a child process',
    () => {
      const read = runNode('read');
      if (read.lines !== 100) throw new Error(`read_file returned ${read.lines} lines, expected 100`);
      if (tailSha && read.sha256 !== tailSha) throw new Error('read_file and tail returned different lines');
      peaks.read.push(read.maxRssKiB);
      if (read.maxRssKiB >= 100 * 1024)
        throw new Error(`read_file's peak RSS was ${(read.maxRssKiB / 1024).toFixed(1)} MiB; the target is < 100 MiB`);
    },
    {
      ...options,
      teardown: (_task, mode) => {
        if (mode !== 'run') return;
        const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
        const mib = (kib: number | undefined) => (kib === undefined ? 'n/a' : `${(kib / 1024).toFixed(1)} MiB`);
        console.log(
          `peak RSS (median): read_file ${mib(median(peaks.read))}, tool loaded only ${mib(median(peaks.idle))}, tail ${mib(median(peaks.tail))}; target: read_file < 100 MiB`,
        );
        rmSync(dir, { recursive: true, force: true });
      },
    },
  );
});

/** Log lines of varying length: one 8 MiB block, written until the file has `size` bytes, ended with a newline. */
async function generate(target: string, size: number) {
  const parts: string[] = [];
  for (let line = 1, length = 0; length < 8 * MiB; line++) {
    const text = `${String(line).padStart(9, '0')} INFO request handled in ${line % 997} ms path=/api/items/${line % 7919}${' .'.repeat(line % 23)}\n`;
    parts.push(text);
    length += text.length;
  }
  const block = Buffer.from(parts.join(''));
  const handle = await open(target, 'w');
  try {
    for (let written = 0; written < size; ) {
      const piece = block.subarray(0, Math.min(block.length, size - written));
      if (written + piece.length === size) piece[piece.length - 1] = 0x0a;
      await handle.write(piece);
      written += piece.length;
    }
  } finally {
    await handle.close();
  }
}

function runNode(mode: 'read' | 'idle'): { lines: number; sha256: string; maxRssKiB: number } {
  return JSON.parse(execFileSync(process.execPath, [child, path.dirname(file), path.basename(file), mode], { encoding: 'utf8' }));
}

function runTail(): { maxRssKiB: number | undefined; sha256: string } {
  const args = gnuTime ? [gnuTime, '-f', '%M', 'tail', '-n', '100', file] : ['tail', '-n', '100', file];
  const result = spawnSync(args[0]!, args.slice(1), { encoding: 'utf8', maxBuffer: 64 * MiB });
  if (result.status !== 0) throw new Error(`tail failed: ${result.stderr}`);
  const sha256 = createHash('sha256').update(result.stdout.replace(/\n$/, '')).digest('hex');
  // GNU time prints the peak RSS (KiB) as the last line of stderr.
  const maxRssKiB = gnuTime ? Number(result.stderr.trim().split('\n').at(-1)) : undefined;
  return { maxRssKiB, sha256 };
}
