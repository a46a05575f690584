#!/usr/bin/env node
// Fold the pending changesets of packages that were never released into their
// first release. A package is unreleased while its CHANGELOG.md has no entry for
// its version. Its first published version is the one in its package.json (1.0.0
// for every package of the first release): `changeset version` would instead
// apply every pending changeset on top of it, and 1.0.0 would never exist.
//
// For each unreleased package this writes CHANGELOG.md with a "## <version>"
// entry listing what its changesets said, then takes the package out of those
// changesets (deleting a changeset that names nothing else). Versions stay as
// they are. Packages already released are left to `changeset version`.
// Running it again changes nothing. Afterwards, `pnpm check:release` passes and
// `pnpm changeset publish` publishes each package at the version it names.
//
// Usage: node scripts/release-initial.mjs [workspace root]
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import readChangesetsModule from '@changesets/read';

const readChangesets = readChangesetsModule.default ?? readChangesetsModule;
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const root = process.argv[2] ? path.resolve(process.argv[2]) : repo;

function workspacePackages() {
  const found = [];
  for (const group of ['packages', 'plugins']) {
    for (const entry of readdirSync(path.join(root, group), { withFileTypes: true })) {
      const file = path.join(root, group, entry.name, 'package.json');
      if (!entry.isDirectory() || !existsSync(file)) continue;
      const manifest = JSON.parse(readFileSync(file, 'utf8'));
      if (!manifest.private) found.push({ dir: path.dirname(file), manifest });
    }
  }
  return found;
}

function released({ dir, manifest }) {
  const changelog = path.join(dir, 'CHANGELOG.md');
  if (!existsSync(changelog)) return false;
  return new RegExp(`^## ${manifest.version.replaceAll('.', '\\.')}\\s*$`, 'm').test(readFileSync(changelog, 'utf8'));
}

/** A changeset's summary as a changelog list item (continuation lines indented under it). */
function item(summary) {
  const [first, ...rest] = summary.trim().split('\n');
  return [`- ${first}`, ...rest.map((line) => (line.trim() === '' ? '' : `  ${line}`))].join('\n');
}

const changesets = await readChangesets(root);
const unreleased = workspacePackages().filter((pkg) => !released(pkg));
const folding = new Set(unreleased.map((pkg) => pkg.manifest.name));

for (const pkg of unreleased) {
  const { name, version } = pkg.manifest;
  const entries = changesets
    .filter((changeset) => changeset.releases.some((release) => release.name === name))
    .map((changeset) => item(changeset.summary));
  const file = path.join(pkg.dir, 'CHANGELOG.md');
  const earlier = existsSync(file) ? readFileSync(file, 'utf8').replace(/^# .*\n+/, '') : '';
  const body = entries.length > 0 ? entries.join('\n') : '- First release.';
  writeFileSync(file, `# ${name}\n\n## ${version}\n\n### First release\n\n${body}\n${earlier ? `\n${earlier}` : ''}`);
  console.log(`${name}@${version}: CHANGELOG.md with ${entries.length} change${entries.length === 1 ? '' : 's'}`);
}

for (const changeset of changesets) {
  const kept = changeset.releases.filter((release) => !folding.has(release.name));
  if (kept.length === changeset.releases.length) continue;
  const file = path.join(root, '.changeset', `${changeset.id}.md`);
  if (kept.length === 0) {
    rmSync(file);
    continue;
  }
  const frontmatter = kept.map((release) => `"${release.name}": ${release.type}`).join('\n');
  writeFileSync(file, `---\n${frontmatter}\n---\n\n${changeset.summary.trim()}\n`);
}
console.log(
  unreleased.length > 0
    ? `Folded the pending changesets of ${unreleased.length} unreleased packages.`
    : 'Every package has been released; nothing to fold.',
);
