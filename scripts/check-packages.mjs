#!/usr/bin/env node
// Lint every published package as it would be published: pack it once (pnpm
// pack rewrites workspace: ranges, as publishing does), then run publint and
// "Are the Types Wrong?" (ESM-only profile) on that tarball, and check what a
// user and the registry's page expect of its files (published-files.mjs:
// LICENSE, metadata, README, no dangling source maps, no test data, licenses of
// bundled code). Any message, suggestions included, fails the run. Run after a build.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { publishedFileProblems } from './published-files.mjs';
import { readmeImportProblems } from './readme-imports.mjs';

const run = promisify(execFile);
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const attw = path.join(repo, 'node_modules', '.bin', 'attw');
// Another workspace root may be given (the tests check fixtures that way).
const root = process.argv[2] ? path.resolve(process.argv[2]) : repo;

function publishedPackages() {
  const dirs = [];
  for (const group of ['packages', 'plugins']) {
    for (const entry of readdirSync(path.join(root, group), { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const dir = path.join(root, group, entry.name);
      let pkg;
      try {
        pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
      } catch {
        continue;
      }
      if (!pkg.private) dirs.push({ dir, pkg });
    }
  }
  return dirs;
}

async function check({ dir, pkg }, out) {
  const label = path.relative(root, dir);
  const problems = [];
  const { stdout } = await run('pnpm', ['pack', '--pack-destination', out, '--json'], { cwd: dir });
  const tarball = JSON.parse(stdout).filename;
  const data = readFileSync(tarball);
  const { messages, pkg: packed } = await publint({
    pack: { tarball: data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) },
    level: 'suggestion',
  });
  for (const message of messages) {
    problems.push(`publint ${message.type}: ${formatMessage(message, packed, { color: false }) ?? message.code}`);
  }
  for (const [field, value] of Object.entries({ ...packed.dependencies, ...packed.peerDependencies })) {
    if (String(value).startsWith('workspace:')) problems.push(`packed package.json still has ${field}: "${value}"`);
  }
  const unpacked = mkdtempSync(path.join(out, 'unpacked-'));
  await run('tar', ['-xzf', tarball, '-C', unpacked]);
  problems.push(...publishedFileProblems(path.join(unpacked, 'package'), packed, path.relative(root, dir)));
  try {
    await run(attw, [tarball, '--profile', 'esm-only', '--no-definitely-typed', '--format', 'ascii', '--no-color', '--no-emoji'], {
      cwd: dir,
    });
  } catch (error) {
    problems.push(`attw (esm-only profile):\n${String(error.stdout || error.message).trim()}`);
  }
  return { label: `${pkg.name} (${label})`, problems };
}

async function main() {
  const packages = publishedPackages();
  const out = mkdtempSync(path.join(tmpdir(), 'toolshed-check-'));
  try {
    const queue = [...packages];
    const results = [];
    // Two at a time: packing and attw are mostly waiting on child processes.
    await Promise.all(
      [0, 1].map(async () => {
        for (let item = queue.shift(); item; item = queue.shift()) results.push(await check(item, out));
      }),
    );
    results.sort((a, b) => a.label.localeCompare(b.label));
    // The repository's own README is no package's, but its examples are copied the same way.
    const rootReadme = path.join(root, 'README.md');
    if (existsSync(rootReadme))
      results.push({ label: 'the repository README (README.md)', problems: readmeImportProblems(readFileSync(rootReadme, 'utf8')) });
    let failed = 0;
    for (const { label, problems } of results) {
      if (problems.length === 0) {
        console.log(`ok   ${label}`);
        continue;
      }
      failed += 1;
      console.log(`FAIL ${label}`);
      for (const problem of problems) console.log(`     ${problem.replaceAll('\n', '\n     ')}`);
    }
    if (failed > 0) {
      console.log(
        `\n${failed} of ${results.length} packages have problems; fix what each one lists (package.json, README, files) and rebuild.`,
      );
      process.exitCode = 1;
    } else {
      console.log(`\nAll ${results.length} published packages pass publint, attw (esm-only) and the published-files checks.`);
    }
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

await main();
