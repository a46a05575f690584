import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
const semverMajor = (version: string) => Number(version.split('.')[0]);
import { isolatedEnv, run } from './run.js';
import { copyWorkspace, pendingChangesets, REPO_ROOT, workspacePackages } from './workspace-copy.js';

// The release plan, on copies of the workspace (`changeset version` rewrites
// package.json files and changelogs): the first release keeps every package at
// its version, a core minor leaves its peer dependents alone, a core major is a
// major for every package built on core, and `pnpm check:release` refuses a plan
// that would ship a breaking dependency change as a patch.

let tmp: string;
let copies = 0;
beforeAll(() => {
  tmp = mkdtempSync(path.join(tmpdir(), 'toolshed-changesets-'));
});
afterAll(() => {
  rmSync(tmp, { recursive: true, force: true });
});

const env = () => isolatedEnv(path.join(tmp, 'home'), 'http://127.0.0.1:9');
const changesetVersion = (copy: string) => run(path.join(REPO_ROOT, 'node_modules/.bin/changeset'), ['version'], { cwd: copy, env: env() });

function script(name: string, copy: string): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(REPO_ROOT, 'scripts', name), copy], { cwd: copy }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code) : 0, stdout: `${stdout}${stderr}` });
    });
  });
}

/** A copy of the workspace after its first release: pending changesets folded into each package's 1.0.0 entry. */
async function releasedCopy(): Promise<string> {
  const copy = copyWorkspace(path.join(tmp, `repo-${++copies}`), { dist: false });
  const folded = await script('release-initial.mjs', copy);
  expect(folded.code, folded.stdout).toBe(0);
  return copy;
}

function writeChangeset(copy: string, name: string, releases: Record<string, string>): void {
  const frontmatter = Object.entries(releases)
    .map(([pkg, type]) => `"${pkg}": ${type}`)
    .join('\n');
  writeFileSync(path.join(copy, '.changeset', `${name}.md`), `---\n${frontmatter}\n---\n\nA change for the test.\n`);
}

const published = (copy: string) => workspacePackages(copy).filter((item) => !item.private);

describe('first release', () => {
  it('check:release refuses pending changesets for a never-released package; release:initial folds them and keeps every version', async () => {
    const copy = copyWorkspace(path.join(tmp, `repo-${++copies}`), { dist: false });
    const before = published(copy);
    // As before the first release: no changelogs, and changesets naming the packages.
    for (const item of before) rmSync(path.join(item.dir, 'CHANGELOG.md'), { force: true });
    writeChangeset(copy, 'first-release-probe', { '@toolshed/tool-echo': 'minor' });

    const refused = await script('check-release-plan.mjs', copy);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toMatch(
      /@toolshed\/tool-echo has never been released \(its CHANGELOG\.md has no "## 1\.0\.0"\), but \d+ pending changeset\(s\) .*would take it to 1\.1\.0 before 1\.0\.0 is published\. Run `pnpm release:initial`/,
    );

    const folded = await script('release-initial.mjs', copy);
    expect(folded.code, folded.stdout).toBe(0);
    expect(pendingChangesets(copy)).toEqual([]);
    for (const item of before) {
      const changelog = readFileSync(path.join(item.dir, 'CHANGELOG.md'), 'utf8');
      expect(changelog, item.name).toMatch(
        new RegExp(`^# ${item.name}\\n\\n## ${item.version.replaceAll('.', '\\.')}\\n\\n### First release\\n\\n- `),
      );
    }
    expect(readFileSync(path.join(copy, 'plugins/echo/CHANGELOG.md'), 'utf8')).toContain('- A change for the test.');

    // Nothing left to version: the first publish is each package at the version it names.
    expect((await script('check-release-plan.mjs', copy)).stdout).toContain('Release plan ok: no pending changesets.');
    await changesetVersion(copy);
    expect(published(copy).map((item) => [item.name, item.version])).toEqual(before.map((item) => [item.name, item.version]));

    // Run again, it changes nothing.
    const again = await script('release-initial.mjs', copy);
    expect(again.stdout).toContain('Every package has been released; nothing to fold.');
  }, 120_000);
});

describe('after the first release', () => {
  it('a minor bump of core leaves its peer dependents alone while their range still holds', async () => {
    const copy = await releasedCopy();
    writeChangeset(copy, 'core-minor', { '@toolshed/core': 'minor' });
    const before = published(copy);
    expect((await script('check-release-plan.mjs', copy)).code).toBe(0);
    await changesetVersion(copy);
    const after = new Map(published(copy).map((item) => [item.name, item]));

    const [major, minor] = before
      .find((item) => item.name === '@toolshed/core')!
      .version.split('.')
      .map(Number);
    expect(after.get('@toolshed/core')!.version).toBe(`${major}.${minor! + 1}.0`);
    const peers = before.filter((item) => item.manifest.peerDependencies?.['@toolshed/core']);
    expect(peers.map((item) => item.name)).toEqual(
      expect.arrayContaining([
        '@toolshed/host',
        '@toolshed/cli',
        '@toolshed/mcp',
        '@toolshed/providers',
        '@toolshed/testing',
        '@toolshed/tool-echo',
      ]),
    );
    for (const item of peers) {
      const now = after.get(item.name)!;
      expect(now.version, item.name).toBe(item.version);
      expect(now.manifest.peerDependencies['@toolshed/core'], item.name).toBe(item.manifest.peerDependencies['@toolshed/core']);
    }
    expect(readFileSync(path.join(copy, 'packages/core/CHANGELOG.md'), 'utf8')).toContain('A change for the test.');
  }, 120_000);

  it('a major bump of core is a major release of every package built on it, and check:release names what a core-only changeset misses', async () => {
    const copy = await releasedCopy();
    writeChangeset(copy, 'core-major', { '@toolshed/core': 'major' });
    const before = published(copy);

    // The launchers depend on the CLI and the MCP server as ordinary dependencies:
    // changesets would give them a patch with ranges on the next majors.
    const refused = await script('check-release-plan.mjs', copy);
    expect(refused.code).toBe(1);
    const named = [...refused.stdout.matchAll(/^ {2}- (\S+) would be released as a patch/gm)].map((match) => match[1]).sort();
    expect(named).toEqual(['@toolshed/create-plugin', '@toolshed/mcp-server']);
    expect(refused.stdout).toMatch(
      /@toolshed\/create-plugin would be released as a patch \(1\.0\.1\), but its dependencies on @toolshed\/cli moves from "\^1\.0\.0" to @toolshed\/cli@2\.0\.0, a breaking release\. Release @toolshed\/create-plugin as a major too/,
    );

    writeChangeset(copy, 'core-major', { '@toolshed/core': 'major', '@toolshed/create-plugin': 'major', '@toolshed/mcp-server': 'major' });
    const accepted = await script('check-release-plan.mjs', copy);
    expect(accepted.code, accepted.stdout).toBe(0);
    await changesetVersion(copy);
    const after = new Map(published(copy).map((item) => [item.name, item]));
    // Built on core: depends on it, or on a package that is (every package of ours is).
    const builtOnCore = new Set(['@toolshed/core']);
    for (let grew = true; grew; ) {
      grew = false;
      for (const item of before) {
        const deps = Object.keys({ ...item.manifest.dependencies, ...item.manifest.peerDependencies });
        if (!builtOnCore.has(item.name) && deps.some((dep) => builtOnCore.has(dep))) grew = Boolean(builtOnCore.add(item.name));
      }
    }
    expect([...builtOnCore]).toEqual(
      expect.arrayContaining(['@toolshed/host', '@toolshed/cli', '@toolshed/mcp', '@toolshed/tool-echo', '@toolshed/create-plugin']),
    );
    for (const item of before.filter((entry) => builtOnCore.has(entry.name))) {
      expect(after.get(item.name)!.version, item.name).toBe(`${Number(item.version.split('.')[0]) + 1}.0.0`);
      // And no package still asks for the old core.
      const peer = after.get(item.name)!.manifest.peerDependencies?.['@toolshed/core'];
      if (peer !== undefined) expect(peer, item.name).toBe('^2.0.0');
    }
  }, 120_000);

  it.each([
    ['@toolshed/host', ['@toolshed/cli', '@toolshed/inspector']],
    [
      '@toolshed/providers',
      ['@toolshed/cli', '@toolshed/context', '@toolshed/host', '@toolshed/inspector', '@toolshed/mcp', '@toolshed/testing'],
    ],
  ])(
    'a major of %s is refused until every package a user gets it through is a major, down to the launchers',
    async (pkg, direct) => {
      const copy = await releasedCopy();
      writeChangeset(copy, 'major', { [pkg]: 'major' });
      const refused = await script('check-release-plan.mjs', copy);
      expect(refused.code).toBe(1);
      const named = [...refused.stdout.matchAll(/^ {2}- (\S+) would (?:be released as a patch|stay at)/gm)].map((match) => match[1]).sort();
      expect(named).toEqual([...direct, '@toolshed/create-plugin', '@toolshed/mcp-server'].sort());
      // No changeset names the launchers, and a CLI patch meets their "^1.0.0": changesets alone would leave them at 1.0.0.
      expect(refused.stdout).toContain(
        `  - @toolshed/mcp-server would stay at 1.0.0, but its dependencies on @toolshed/cli moves from "^1.0.0" to @toolshed/cli@2.0.0 (a major it needs because it depends on ${pkg}@2.0.0), a breaking release. Release @toolshed/mcp-server as a major too: add "@toolshed/mcp-server": major to the changeset that makes ${pkg} major.`,
      );
      const frontMatter = /together, the changeset's front matter would list:\n((?: {6}.*\n?)+)/.exec(refused.stdout)![1]!;
      const lines = frontMatter.trim().split(/\n\s*/);
      expect(lines).toContain(`"${pkg}": major`);

      // The front matter it gives is a plan it accepts, and `changeset version` makes each of them a major.
      writeChangeset(copy, 'major', Object.fromEntries(lines.map((line) => [JSON.parse(line.split(': ')[0]!), 'major'])));
      const accepted = await script('check-release-plan.mjs', copy);
      expect(accepted.code, accepted.stdout).toBe(0);
      await changesetVersion(copy);
      const after = new Map(published(copy).map((item) => [item.name, item]));
      for (const name of [pkg, ...direct, '@toolshed/create-plugin', '@toolshed/mcp-server'])
        expect(after.get(name)!.version, name).toBe('2.0.0');
      expect(after.get('@toolshed/mcp-server')!.manifest.dependencies['@toolshed/cli']).toBe('workspace:^');
      expect(semverMajor(after.get('@toolshed/core')!.version)).toBe(1);
    },
    120_000,
  );

  it('check:release fails a plan where a regular dependency on core moves to its next major in a patch', async () => {
    // Host as it was: core as an ordinary dependency, which changesets answers with a patch.
    const copy = await releasedCopy();
    const file = path.join(copy, 'packages/host/package.json');
    const host = JSON.parse(readFileSync(file, 'utf8'));
    delete host.peerDependencies['@toolshed/core'];
    // Its optional peer @toolshed/mcp (itself a peer of core) would make changesets release host as a major anyway.
    delete host.peerDependencies['@toolshed/mcp'];
    delete host.peerDependenciesMeta?.['@toolshed/mcp'];
    host.dependencies['@toolshed/core'] = 'workspace:^';
    writeFileSync(file, JSON.stringify(host, null, 2));
    writeChangeset(copy, 'core-major', { '@toolshed/core': 'major', '@toolshed/create-plugin': 'major', '@toolshed/mcp-server': 'major' });

    const refused = await script('check-release-plan.mjs', copy);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain(
      '@toolshed/host would be released as a patch (1.0.1), but its dependencies on @toolshed/core moves from "^1.0.0" to @toolshed/core@2.0.0, a breaking release.',
    );
    expect(existsSync(path.join(copy, '.changeset/core-major.md'))).toBe(true);
  }, 120_000);
});
