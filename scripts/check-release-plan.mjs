#!/usr/bin/env node
// Check the release that the pending changesets would make (the plan
// `changeset version` follows), before it is made:
//
// 1. No breaking dependency change goes out as a patch or minor. A package
//    whose dependency (or peer) on another of ours moves to a new major must
//    itself be released as a major: otherwise `npm update` hands `^1` users a
//    package that needs the dependency's next major, and a project ends with
//    two copies of it (two cores: one for the CLI, one for the plugins). This
//    goes down every chain at once (host -> CLI -> the launchers), also to a
//    package no changeset names (the launchers, whose range a CLI patch meets).
// 2. No package skips its first version. A package that was never released
//    (its CHANGELOG.md has no entry for its version) must have no pending
//    changesets: `changeset version` would take it from 1.0.0 to 1.1.0 before
//    1.0.0 was ever published. `pnpm release:initial` folds them into its
//    first changelog entry instead.
//
// Usage: node scripts/check-release-plan.mjs [workspace root]
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import getReleasePlanModule from '@changesets/get-release-plan';
import semver from 'semver';

const getReleasePlan = getReleasePlanModule.default ?? getReleasePlanModule;
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const root = process.argv[2] ? path.resolve(process.argv[2]) : repo;
const DEPENDENCY_FIELDS = ['dependencies', 'peerDependencies', 'optionalDependencies'];

function workspacePackages() {
  const found = new Map();
  for (const group of ['packages', 'plugins']) {
    for (const entry of readdirSync(path.join(root, group), { withFileTypes: true })) {
      const file = path.join(root, group, entry.name, 'package.json');
      if (!entry.isDirectory() || !existsSync(file)) continue;
      const manifest = JSON.parse(readFileSync(file, 'utf8'));
      found.set(manifest.name, { dir: path.dirname(file), manifest });
    }
  }
  return found;
}

/** The range a published package.json will carry: pnpm rewrites workspace: ranges when it packs. */
function publishedRange(range, dependencyVersion) {
  if (!range.startsWith('workspace:')) return range;
  const rest = range.slice('workspace:'.length);
  if (rest === '*') return dependencyVersion;
  if (rest === '^' || rest === '~') return `${rest}${dependencyVersion}`;
  return rest;
}

/** Whether going from one version to another is a breaking change by semver (a major, or a minor below 1.0). */
function breaking(from, to) {
  return semver.major(to) !== semver.major(from) || (semver.major(from) === 0 && semver.minor(to) !== semver.minor(from));
}

/** Whether a package was ever released: its CHANGELOG.md has an entry for its current version. */
function released({ dir, manifest }) {
  const changelog = path.join(dir, 'CHANGELOG.md');
  if (!existsSync(changelog)) return false;
  const heading = new RegExp(`^## ${manifest.version.replaceAll('.', '\\.')}\\s*$`, 'm');
  return heading.test(readFileSync(changelog, 'utf8'));
}

const packages = workspacePackages();
const plan = await getReleasePlan(root);
const releases = new Map(plan.releases.filter((release) => release.type !== 'none').map((release) => [release.name, release]));
const problems = [];

// Packages whose next release must be a major: planned majors first, then, until nothing changes,
// every public package with a dependency (not a devDependency) on one of them, since its range
// leaves that dependency's next version. A package that changesets leaves alone (a patch of the
// CLI satisfies the launchers' "^1.0.0") needs it as much: through the launchers, a host major
// would otherwise reach `npx -y @toolshed/mcp-server` users as a patch.
const nextMajor = new Map(
  [...releases].filter(([, release]) => release.type === 'major').map(([name, release]) => [name, { version: release.newVersion }]),
);
const needs = [];
for (let grew = true; grew; ) {
  grew = false;
  for (const [name, item] of packages) {
    if (item.manifest.private || nextMajor.has(name) || !released(item)) continue;
    for (const field of DEPENDENCY_FIELDS) {
      for (const [dependency, range] of Object.entries(item.manifest[field] ?? {})) {
        const next = nextMajor.get(dependency);
        const current = packages.get(dependency)?.manifest.version;
        if (!next || !current || nextMajor.has(name)) continue;
        const published = publishedRange(String(range), current);
        if (semver.satisfies(next.version, published) || !breaking(current, next.version)) continue;
        nextMajor.set(name, { version: semver.inc(item.manifest.version, 'major'), because: dependency });
        needs.push({ name, item, field, dependency, published, next });
        grew = true;
      }
    }
  }
}

/** Why a dependency goes to its next major: its own changeset, or the chain of dependencies that forces it. */
function why(name) {
  const chain = [];
  for (let at = nextMajor.get(name); at?.because; at = nextMajor.get(at.because))
    chain.push(`${at.because}@${nextMajor.get(at.because).version}`);
  return chain.length > 0 ? ` (a major it needs because it depends on ${chain.join(', which depends on ')})` : '';
}

for (const [name, release] of releases) {
  const item = packages.get(name);
  if (!item || item.manifest.private) continue;
  if (!released(item)) {
    const named = plan.changesets
      .filter((changeset) => changeset.releases.some((entry) => entry.name === name))
      .map((changeset) => changeset.id);
    problems.push(
      `${name} has never been released (its CHANGELOG.md has no "## ${item.manifest.version}"), but ` +
        (named.length > 0
          ? `${named.length} pending changeset(s) (${named.slice(0, 3).join(', ')}${named.length > 3 ? ', ...' : ''})`
          : 'the release plan') +
        ` would take it to ${release.newVersion} before ${item.manifest.version} is published. ` +
        'Run `pnpm release:initial` to fold them into its first release.',
    );
  }
}
for (const { name, item, field, dependency, published, next } of needs) {
  const release = releases.get(name);
  const now = release ? `would be released as a ${release.type} (${release.newVersion})` : `would stay at ${item.manifest.version}`;
  const source = nextMajor.get(dependency).because
    ? `the changeset that makes ${root_of(dependency)} major`
    : `the changeset that makes ${dependency} major`;
  problems.push(
    `${name} ${now}, but its ${field} on ${dependency} moves from "${published}" to ${dependency}@${next.version}${why(dependency)}, ` +
      `a breaking release. Release ${name} as a major too: add "${name}": major to ${source}.`,
  );
}

/** The planned major at the end of a dependency's chain. */
function root_of(name) {
  let at = name;
  while (nextMajor.get(at)?.because) at = nextMajor.get(at).because;
  return at;
}

if (needs.length > 0) {
  // The majors a changeset names, and those it has to; changesets makes the rest (peer dependents) majors itself.
  const named = plan.changesets.flatMap((changeset) =>
    changeset.releases.filter((entry) => entry.type === 'major').map((entry) => entry.name),
  );
  const lines = [...new Set([...named, ...needs.map((need) => need.name)])].map((name) => `"${name}": major`);
  problems.push(`together, the changeset's front matter would list:\n      ${lines.join('\n      ')}`);
}

if (problems.length > 0) {
  console.log(`The pending release plan is wrong (${problems.length} problem${problems.length === 1 ? '' : 's'}):`);
  for (const problem of problems) console.log(`  - ${problem}`);
  process.exitCode = 1;
} else {
  const summary = [...releases.values()].map((release) => `${release.name}@${release.newVersion} (${release.type})`);
  console.log(summary.length > 0 ? `Release plan ok: ${summary.join(', ')}` : 'Release plan ok: no pending changesets.');
}
