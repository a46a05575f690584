import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { isolatedEnv, run } from './run.js';
import { copyWorkspace, pendingChangesets, REPO_ROOT, workspacePackages } from './workspace-copy.js';

// Independent versions: a minor release of core must not drag every plugin
// into a major release (changesets would, for a peer dependency, without
// onlyUpdatePeerDependentsWhenOutOfRange). Run on a copy: `changeset version`
// rewrites package.json files and changelogs.

let tmp: string;
beforeAll(() => {
  tmp = mkdtempSync(path.join(tmpdir(), 'toolshed-changesets-'));
});
afterAll(() => {
  rmSync(tmp, { recursive: true, force: true });
});

it('a minor bump of core leaves the plugins alone while their peer range still holds', async () => {
  const copy = copyWorkspace(path.join(tmp, 'repo'), { dist: false });
  for (const file of pendingChangesets(copy)) rmSync(path.join(copy, '.changeset', file));
  writeFileSync(path.join(copy, '.changeset/core-minor.md'), '---\n"@toolshed/core": minor\n---\n\nA new feature in core.\n');
  const before = workspacePackages(copy);
  await run(path.join(REPO_ROOT, 'node_modules/.bin/changeset'), ['version'], { cwd: copy, env: isolatedEnv(path.join(tmp, 'home'), 'http://127.0.0.1:9') });
  const after = new Map(workspacePackages(copy).map((item) => [item.name, item]));

  const [major, minor] = before.find((item) => item.name === '@toolshed/core')!.version.split('.').map(Number);
  expect(after.get('@toolshed/core')!.version).toBe(`${major}.${minor! + 1}.0`);
  const plugins = before.filter((item) => item.manifest.peerDependencies?.['@toolshed/core']);
  expect(plugins.map((item) => item.name)).toEqual(expect.arrayContaining(['@toolshed/tool-echo', '@toolshed/tool-read-file', '@toolshed/tool-send-email']));
  for (const plugin of plugins) {
    const now = after.get(plugin.name)!;
    // Same version, same peer range: nothing to release for them.
    expect(now.version, plugin.name).toBe(plugin.version);
    expect(now.manifest.peerDependencies['@toolshed/core'], plugin.name).toBe(plugin.manifest.peerDependencies['@toolshed/core']);
  }
  // Packages that depend on core directly take a patch bump, never a major one.
  for (const item of before.filter((entry) => !entry.private && String(entry.manifest.dependencies?.['@toolshed/core'] ?? '').startsWith('workspace:'))) {
    const [oldMajor] = item.version.split('.');
    expect(after.get(item.name)!.version.split('.')[0], item.name).toBe(oldMajor);
  }
  expect(readFileSync(path.join(copy, 'packages/core/CHANGELOG.md'), 'utf8')).toContain('A new feature in core.');
}, 120_000);
