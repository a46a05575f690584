// Reads what `vitest bench --outputJson` wrote and prints, per group, each
// case's median against the group's floor (its first case, measured by the
// same tinybench loop), then PASS or MISS for each target in bench/targets.json.
//   node ../../scripts/bench-report.mjs <results.json> [targets.json]
// A target is a ratio, {"group", "case", "floor", "max"}: median(case) / median(floor) <= max;
// or a time, {"group", "case", "stat" ("median", "p99", ...), "maxMs"}: stat(case) <= maxMs;
// or a time beyond the floor, {"group", "case", "floor", "maxExtraMs"}: median(case) - median(floor) <= maxExtraMs.
// Groups named "<group> (round N)" are one group measured in rounds: tinybench runs a
// case's samples back to back, so on a shared machine a floor timed in a quiet minute
// and a case timed in a busy one would give a false ratio. Each round's ratio compares
// cases timed minutes apart at most; the report gives the median of the rounds' ratios.
// Exits 1 when a target is missed, names a case that was not measured, or a case threw.
import { existsSync, readFileSync } from 'node:fs';

const [resultsFile, targetsFile = 'bench/targets.json'] = process.argv.slice(2);
if (!resultsFile) {
  console.error('usage: bench-report.mjs <vitest bench --outputJson file> [targets.json]');
  process.exit(2);
}
const results = JSON.parse(readFileSync(resultsFile, 'utf8'));
const targets = existsSync(targetsFile) ? JSON.parse(readFileSync(targetsFile, 'utf8')) : [];

/** group name (the describe block's, without the file and round) -> its rounds, each case name -> result */
const groups = new Map();
const failed = [];
for (const file of results.files) {
  for (const group of file.groups) {
    const fullName = group.fullName.split(' > ').slice(1).join(' > ') || group.fullName;
    const name = fullName.replace(/ \(round \d+\)$/, '');
    // A case that threw has no samples (vitest bench does not say why): it is reported as
    // failed and counts as a miss, so a broken case never passes as a fast one.
    for (const b of group.benchmarks) if (!(b.sampleCount > 0)) failed.push(`${fullName}: ${b.name}`);
    const round = new Map(group.benchmarks.filter((b) => b.sampleCount > 0).map((b) => [b.name, b]));
    groups.set(name, [...(groups.get(name) ?? []), round]);
  }
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
/** The case's statistic over the rounds that measured it (median of the rounds'), or undefined. */
function statOf(rounds, caseName, stat = 'median') {
  const values = rounds.map((round) => round.get(caseName)?.[stat]).filter((value) => typeof value === 'number');
  return values.length === rounds.length ? median(values) : undefined;
}
/** Each round's ratio of case to floor, or undefined when a round lacks either. */
function ratiosOf(rounds, caseName, floorName) {
  const ratios = rounds.map((round) => round.get(caseName)?.median / round.get(floorName)?.median);
  return ratios.every((ratio) => Number.isFinite(ratio)) ? ratios : undefined;
}

const time = (ms) => (ms >= 1 ? `${ms.toFixed(2)} ms` : ms >= 0.001 ? `${(ms * 1000).toFixed(2)} µs` : `${(ms * 1e6).toFixed(0)} ns`);
const roundsNote = (ratios) => (ratios.length > 1 ? `  (rounds: ${ratios.map((r) => r.toFixed(2)).join(', ')})` : '');
const width = Math.max(
  10,
  ...[...groups.values()].flatMap((rounds) => rounds.flatMap((round) => [...round.keys()].map((name) => name.length))),
);
for (const [name, rounds] of groups) {
  const caseNames = [...new Set(rounds.flatMap((round) => [...round.keys()]))];
  const floorName = caseNames[0];
  const samples = (caseName) => rounds.reduce((sum, round) => sum + (round.get(caseName)?.sampleCount ?? 0), 0);
  const how = rounds.length > 1 ? `${rounds.length} rounds; median of the rounds' medians and ratios` : 'median of tinybench samples';
  console.log(`\n${name}  (${how}; ratio to "${floorName}")`);
  for (const caseName of caseNames) {
    const ms = statOf(rounds, caseName);
    const ratios = ratiosOf(rounds, caseName, floorName);
    const rme = rounds.length === 1 ? ` ±${rounds[0].get(caseName).rme.toFixed(1).padStart(4)}%` : '';
    console.log(
      `  ${caseName.padEnd(width)} ${ms === undefined ? 'n/a'.padStart(10) : time(ms).padStart(10)}${rme}  ${String(samples(caseName)).padStart(6)} samples  ${ratios ? `${median(ratios).toFixed(2).padStart(6)}x` : '   n/a'}`,
    );
  }
}

let missed = failed.length;
for (const name of failed) console.log(`\n  FAILED  ${name}: no samples, the case threw (run vitest bench on its file to see the error)`);
if (targets.length > 0) console.log('\ntargets');
for (const target of targets) {
  const rounds = groups.get(target.group) ?? [];
  const why = target.why ? `  (${target.why})` : '';
  if (target.maxMs !== undefined) {
    const label = `${target.group}: ${target.case} ${target.stat} <= ${target.maxMs} ms`;
    const value = rounds.length > 0 ? statOf(rounds, target.case, target.stat) : undefined;
    if (value === undefined) {
      missed++;
      console.log(`  MISS  ${label}: not measured (no such group, case or statistic in ${resultsFile})`);
      continue;
    }
    if (value > target.maxMs) missed++;
    console.log(`  ${value <= target.maxMs ? 'PASS' : 'MISS'}  ${label}: ${time(value)}${why}`);
    continue;
  }
  if (target.maxExtraMs !== undefined) {
    const label = `${target.group}: ${target.case} <= ${target.floor} + ${target.maxExtraMs} ms`;
    const extras = rounds.map((round) => round.get(target.case)?.median - round.get(target.floor)?.median);
    if (rounds.length === 0 || !extras.every((extra) => Number.isFinite(extra))) {
      missed++;
      console.log(`  MISS  ${label}: not measured (no such group or case in ${resultsFile})`);
      continue;
    }
    const extra = median(extras);
    if (extra > target.maxExtraMs) missed++;
    console.log(`  ${extra <= target.maxExtraMs ? 'PASS' : 'MISS'}  ${label}: +${time(Math.max(0, extra))}${why}`);
    continue;
  }
  const label = `${target.group}: ${target.case} <= ${target.max}x ${target.floor}`;
  const ratios = rounds.length > 0 ? ratiosOf(rounds, target.case, target.floor) : undefined;
  if (!ratios) {
    missed++;
    console.log(`  MISS  ${label}: not measured (no such group or case in ${resultsFile})`);
    continue;
  }
  const ratio = median(ratios);
  const pass = ratio <= target.max;
  if (!pass) missed++;
  console.log(`  ${pass ? 'PASS' : 'MISS'}  ${label}: ${ratio.toFixed(2)}x${roundsNote(ratios)}${why}`);
}
if (missed > 0) {
  console.log(`\n${missed} target(s) missed or case(s) failed`);
  process.exitCode = 1;
}
