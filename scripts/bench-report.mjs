// Reads what `vitest bench --outputJson` wrote and prints, per group, each
// case's median against the group's floor (its first case, measured by the
// same tinybench loop), then PASS or MISS for each target in bench/targets.json.
//   node ../../scripts/bench-report.mjs <results.json> [targets.json]
// A target is a ratio, {"group", "case", "floor", "max"}: median(case) / median(floor) <= max;
// or a time, {"group", "case", "stat" ("median", "p99", ...), "maxMs"}: stat(case) <= maxMs.
// Exits 1 when a target is missed or names a case that was not measured.
import { existsSync, readFileSync } from 'node:fs';

const [resultsFile, targetsFile = 'bench/targets.json'] = process.argv.slice(2);
if (!resultsFile) {
  console.error('usage: bench-report.mjs <vitest bench --outputJson file> [targets.json]');
  process.exit(2);
}
const results = JSON.parse(readFileSync(resultsFile, 'utf8'));
const targets = existsSync(targetsFile) ? JSON.parse(readFileSync(targetsFile, 'utf8')) : [];

/** group name (the describe block's, without the file) -> case name -> result */
const groups = new Map();
const failed = [];
for (const file of results.files) {
  for (const group of file.groups) {
    const name = group.fullName.split(' > ').slice(1).join(' > ') || group.fullName;
    // A case that threw has no samples (vitest bench does not say why): it is reported as
    // failed and counts as a miss, so a broken case never passes as a fast one.
    for (const b of group.benchmarks) if (!(b.sampleCount > 0)) failed.push(`${name}: ${b.name}`);
    groups.set(name, new Map(group.benchmarks.filter((b) => b.sampleCount > 0).map((b) => [b.name, b])));
  }
}

const time = (ms) => (ms >= 1 ? `${ms.toFixed(2)} ms` : ms >= 0.001 ? `${(ms * 1000).toFixed(2)} µs` : `${(ms * 1e6).toFixed(0)} ns`);
const width = Math.max(10, ...[...groups.values()].flatMap((cases) => [...cases.keys()].map((name) => name.length)));
for (const [name, cases] of groups) {
  const [floorName, floor] = cases.entries().next().value;
  console.log(`\n${name}  (median of tinybench samples; ratio to "${floorName}")`);
  for (const [caseName, result] of cases) {
    console.log(
      `  ${caseName.padEnd(width)} ${time(result.median).padStart(10)} ±${result.rme.toFixed(1).padStart(4)}%  ${String(result.sampleCount).padStart(6)} samples  ${(result.median / floor.median).toFixed(2).padStart(6)}x`,
    );
  }
}

let missed = failed.length;
for (const name of failed) console.log(`\n  FAILED  ${name}: no samples, the case threw (run vitest bench on its file to see the error)`);
if (targets.length > 0) console.log('\ntargets');
for (const target of targets) {
  const cases = groups.get(target.group);
  const measured = cases?.get(target.case);
  if (target.maxMs !== undefined) {
    const label = `${target.group}: ${target.case} ${target.stat} <= ${target.maxMs} ms`;
    const value = measured?.[target.stat];
    if (typeof value !== 'number') {
      missed++;
      console.log(`  MISS  ${label}: not measured (no such group, case or statistic in ${resultsFile})`);
      continue;
    }
    if (value > target.maxMs) missed++;
    console.log(`  ${value <= target.maxMs ? 'PASS' : 'MISS'}  ${label}: ${time(value)}${target.why ? `  (${target.why})` : ''}`);
    continue;
  }
  const floor = cases?.get(target.floor);
  const label = `${target.group}: ${target.case} <= ${target.max}x ${target.floor}`;
  if (!measured || !floor) {
    missed++;
    console.log(`  MISS  ${label}: not measured (no such group or case in ${resultsFile})`);
    continue;
  }
  const ratio = measured.median / floor.median;
  const pass = ratio <= target.max;
  if (!pass) missed++;
  console.log(`  ${pass ? 'PASS' : 'MISS'}  ${label}: ${ratio.toFixed(2)}x${target.why ? `  (${target.why})` : ''}`);
}
if (missed > 0) {
  console.log(`\n${missed} target(s) missed or case(s) failed`);
  process.exitCode = 1;
}
