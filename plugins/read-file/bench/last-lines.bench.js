// The last 100 lines of a 1 GiB file: read_file (offset: -100) in a child
// process against `tail -n 100` on the same file in the same run, with a
// child that only loads the tool as the memory baseline. Target: read_file's
// peak RSS < 100 MiB, i.e. the file is never loaded whole.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, open, rm, statfs } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const GiB = 1024 ** 3;
const MiB = 1024 ** 2;
const ROUNDS = 5;
const child = fileURLToPath(new URL('./read-tail.child.js', import.meta.url));
const gnuTime = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;

const disk = await statfs(tmpdir());
const free = disk.bavail * disk.bsize;
if (free < 3 * GiB) {
  console.log(`last-lines benchmark skipped: ${(free / GiB).toFixed(1)} GiB free in ${tmpdir()}, it needs 3 GiB.`);
  process.exit(0);
}

const dir = await mkdtemp(path.join(tmpdir(), 'read-file-bench-'));
const file = path.join(dir, 'big.log');
try {
  const started = performance.now();
  await generate(file, GiB);
  console.log(`generated a 1 GiB file in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const samples = { readWall: [], readDispatch: [], readWarm: [], readRss: [], idleWall: [], idleRss: [], tailWall: [], tailRss: [] };
  for (let round = 0; round < ROUNDS; round++) {
    const idle = runNode('idle');
    samples.idleWall.push(idle.wall);
    samples.idleRss.push(idle.maxRssKiB);
    const read = runNode('read');
    if (read.lines !== 100) throw new Error(`read_file returned ${read.lines} lines, expected 100`);
    samples.readWall.push(read.wall);
    samples.readDispatch.push(read.ms);
    samples.readWarm.push(read.warmMs);
    samples.readRss.push(read.maxRssKiB);
    const tail = runTail();
    if (tail.sha256 !== read.sha256) throw new Error('read_file and tail returned different lines');
    samples.tailWall.push(tail.wall);
    if (tail.maxRssKiB !== undefined) samples.tailRss.push(tail.maxRssKiB);
  }
  const m = Object.fromEntries(Object.entries(samples).map(([k, xs]) => [k, xs.length ? median(xs) : undefined]));
  const mib = (kib) => (kib === undefined ? 'n/a' : `${(kib / 1024).toFixed(1)} MiB`);
  console.log(`last 100 lines of a 1 GiB file (${ROUNDS} rounds, medians)`);
  console.log(`  read_file dispatch, first  ${m.readDispatch.toFixed(2).padStart(8)} ms   ${(m.readDispatch / m.tailWall).toFixed(2)}x tail`);
  console.log(`  read_file dispatch, again  ${m.readWarm.toFixed(2).padStart(8)} ms   ${(m.readWarm / m.tailWall).toFixed(2)}x tail`);
  console.log(`  read_file process (wall)   ${m.readWall.toFixed(2).padStart(8)} ms   ${(m.readWall / m.tailWall).toFixed(2)}x tail, ${(m.readWall - m.idleWall).toFixed(2)} ms over a process that only loads the tool`);
  console.log(`  tool loaded, no read       ${m.idleWall.toFixed(2).padStart(8)} ms`);
  console.log(`  tail -n 100 (wall)         ${m.tailWall.toFixed(2).padStart(8)} ms`);
  console.log(`  peak RSS: read_file ${mib(m.readRss)}, tool loaded only ${mib(m.idleRss)} (+${mib(m.readRss - m.idleRss)} for the read), tail ${mib(m.tailRss)}` +
    (m.tailRss ? ` (${(m.readRss / m.tailRss).toFixed(1)}x tail)` : ' (no /usr/bin/time to measure it)'));
  const met = m.readRss < 100 * 1024;
  console.log(`  target: read_file peak RSS < 100 MiB: ${met ? 'met' : 'NOT met'} (${mib(m.readRss)})`);
} finally {
  await rm(dir, { recursive: true, force: true });
}

/**
 * Log lines of varying length: one 8 MiB block, written until the file has
 * `size` bytes, the last block cut to fit and ended with a newline.
 */
async function generate(target, size) {
  const parts = [];
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

function runNode(mode) {
  const start = performance.now();
  const result = execFileSync(process.execPath, [child, path.dirname(file), path.basename(file), mode], { encoding: 'utf8' });
  const wall = performance.now() - start;
  return { wall, ...JSON.parse(result) };
}

function runTail() {
  const args = gnuTime ? [gnuTime, '-f', '%M', 'tail', '-n', '100', file] : ['tail', '-n', '100', file];
  const start = performance.now();
  const result = spawnSync(args[0], args.slice(1), { encoding: 'utf8', maxBuffer: 64 * MiB });
  const wall = performance.now() - start;
  if (result.status !== 0) throw new Error(`tail failed: ${result.stderr}`);
  const sha256 = createHash('sha256').update(result.stdout.replace(/\n$/, '')).digest('hex');
  // GNU time prints the peak RSS (KiB) as the last line of stderr.
  const maxRssKiB = gnuTime ? Number(result.stderr.trim().split('\n').at(-1)) : undefined;
  return { wall, maxRssKiB, sha256 };
}
