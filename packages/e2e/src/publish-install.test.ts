import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packDir } from './pack-dir.js';
import { publishTarball } from './publish-tarball.js';
import { startRegistry, type LocalRegistry } from './registry.js';
import { isolatedEnv, progress, run } from './run.js';
import { seedRegistry, thirdPartyClosure } from './third-party.js';
import { copyWorkspace, linkWorkspaceDependencies, pendingChangesets, REPO_ROOT, workspacePackages } from './workspace-copy.js';

// The proof of issue 7, in the order a user meets it. Each step needs the one
// before, so the steps share state and run in sequence.

const THIRD_PARTY = '@thirdparty/tool-word-count';
// What the scaffold's package.json asks for besides @toolshed packages: taken from the workspace's own installs.
const SCAFFOLD_TOOLCHAIN = ['typescript', 'vitest', '@types/node', 'valibot'];

let tmp: string;
let registry: LocalRegistry;
let env: NodeJS.ProcessEnv;
let copy: string;
let project: string;
// The version the workspace has now, and the one a patch release makes of it.
const READ_FILE = 'plugins/read-file/package.json';
const readFileVersion = (JSON.parse(readFileSync(path.join(REPO_ROOT, READ_FILE), 'utf8')) as { version: string }).version;
const readFilePatched = readFileVersion.replace(/\.(\d+)$/, (_, patch: string) => `.${Number(patch) + 1}`);

const npm = (args: string[], cwd: string) => run('npm', args, { cwd, env });
const toolshed = (args: string[]) => run(path.join(project, 'node_modules/.bin/toolshed'), args, { cwd: project, env });

async function listedTools(): Promise<{ name: string; plugin: string; version: string }[]> {
  const { stdout } = await toolshed(['list', '--json']);
  return JSON.parse(stdout) as { name: string; plugin: string; version: string }[];
}

async function publishedVersions(name: string): Promise<string[]> {
  const response = await fetch(`${registry.url}/${name.replace('/', '%2f')}`);
  if (response.status === 404) return [];
  const document = (await response.json()) as { versions: Record<string, unknown> };
  return Object.keys(document.versions);
}

/** Every installed package in a project (nested ones too), by its folder: what `npm update` may change. */
function installed(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (modules: string) => {
    if (!existsSync(modules)) return;
    for (const entry of readdirSync(modules)) {
      if (entry.startsWith('.')) continue;
      const dirs = entry.startsWith('@') ? readdirSync(path.join(modules, entry)).map((name) => path.join(entry, name)) : [entry];
      for (const name of dirs) {
        const dir = path.join(modules, name);
        const file = path.join(dir, 'package.json');
        if (!existsSync(file)) continue;
        out[path.relative(root, dir)] = (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
        walk(path.join(dir, 'node_modules'));
      }
    }
  };
  walk(path.join(root, 'node_modules'));
  return out;
}

beforeAll(async () => {
  tmp = mkdtempSync(path.join(tmpdir(), 'toolshed-e2e-'));
  progress(`step 1: starting Verdaccio (storage in ${tmp}/registry, no uplinks)`);
  registry = await startRegistry(path.join(tmp, 'registry'));
  const home = path.join(tmp, 'home');
  mkdirSync(home, { recursive: true });
  env = isolatedEnv(home, registry.url);
  env.XDG_CONFIG_HOME = path.join(home, '.config');
  env.XDG_DATA_HOME = path.join(home, '.local/share');
  env.XDG_CACHE_HOME = path.join(home, '.cache');
  const host = new URL(registry.url).host;
  writeFileSync(path.join(home, '.npmrc'), `registry=${registry.url}/\n//${host}/:_authToken=${registry.token}\n`);
  progress(`Verdaccio listening at ${registry.url}`);
}, 60_000);

afterAll(async () => {
  progress('step 6: stopping Verdaccio and removing the temp folders');
  await registry?.stop();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
}, 60_000);

describe('publish to a local registry, install selectively, release one plugin alone', () => {
  it('step 2: publishes every package of the workspace (and the third-party packages they need)', async () => {
    const published = workspacePackages(REPO_ROOT).filter((item) => !item.private);
    // turbo builds only what this package depends on before its tests.
    const own = JSON.parse(readFileSync(path.join(REPO_ROOT, 'packages/e2e/package.json'), 'utf8')) as { devDependencies: Record<string, string> };
    const unbuilt = published.filter((item) => !own.devDependencies[item.name] || !existsSync(path.join(item.dir, 'dist')));
    expect(unbuilt.map((item) => item.name), 'add these to packages/e2e devDependencies (workspace:*) and build them').toEqual([]);
    // The registry has no uplinks, so the third-party packages our packages
    // (and a scaffolded plugin's toolchain) depend on are published to it from
    // the copies pnpm installed here: npm install in the project then finds
    // everything locally and nothing can reach the internet.
    const roots = published.map((item) => {
      const manifest = item.manifest as { dependencies?: object; peerDependencies?: object; peerDependenciesMeta?: Record<string, { optional?: boolean }> };
      const peers = Object.keys(manifest.peerDependencies ?? {}).filter((name) => !manifest.peerDependenciesMeta?.[name]?.optional);
      return { dir: item.dir, deps: [...Object.keys(manifest.dependencies ?? {}), ...peers] };
    });
    roots.push({ dir: REPO_ROOT, deps: SCAFFOLD_TOOLCHAIN });
    const isWorkspace = (dir: string) => published.some((item) => dir === item.dir);
    const thirdParty = thirdPartyClosure(roots, isWorkspace).filter((item) => !item.name.startsWith('@toolshed/'));
    progress(`step 2: seeding ${thirdParty.length} third-party packages from the workspace's node_modules`);
    const tarballs = path.join(tmp, 'tarballs');
    mkdirSync(tarballs, { recursive: true });
    await seedRegistry(
      thirdParty,
      (item) => packDir(item.dir, path.join(tarballs, `${item.name.replace('/', '+')}-${item.version}.tgz`)),
      (item) => publishTarball(registry, item),
    );

    copy = copyWorkspace(path.join(tmp, 'repo'));
    linkWorkspaceDependencies(copy);
    progress(`step 2: pnpm publish -r from a copy of the workspace (${published.length} packages)`);
    await run('pnpm', ['publish', '-r', '--no-git-checks', '--registry', `${registry.url}/`], { cwd: copy, env });
    for (const item of published) {
      expect(await publishedVersions(item.name), item.name).toEqual([item.version]);
    }
    // workspace: ranges became real ones when packed.
    const cli = (await (await fetch(`${registry.url}/@toolshed%2fcli`)).json()) as { versions: Record<string, { dependencies: Record<string, string> }> };
    const dependencies = Object.values(cli.versions)[0]!.dependencies;
    expect(dependencies['@toolshed/core']).toMatch(/^\^\d+\.\d+\.\d+$/);
    expect(await publishedVersions('@toolshed/e2e')).toEqual([]);
  }, 600_000);

  it('step 3: a fresh project installs the CLI, echo and read_file, and the host finds exactly those', async () => {
    project = path.join(tmp, 'project');
    mkdirSync(project);
    writeFileSync(path.join(project, 'package.json'), `${JSON.stringify({ name: 'e2e-project', private: true, type: 'module' }, null, 2)}\n`);
    progress('step 3: npm install @toolshed/cli @toolshed/tool-echo @toolshed/tool-read-file in a fresh project');
    await npm(['install', '--ignore-scripts', '@toolshed/cli', '@toolshed/tool-echo', '@toolshed/tool-read-file'], project);
    expect(existsSync(path.join(project, 'node_modules/@toolshed/tool-send-email'))).toBe(false);

    const tools = await listedTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['echo', 'read_file']);
    expect(tools.find((tool) => tool.name === 'read_file')).toMatchObject({ plugin: '@toolshed/tool-read-file', version: readFileVersion });

    const called = await toolshed(['call', 'echo', '{"text": "hello from the registry"}', '--json']);
    expect(JSON.parse(called.stdout)).toMatchObject({ ok: true, name: 'echo', output: { text: 'hello from the registry' } });

    const absent = await toolshed(['call', 'send_email', '{}']).catch((error: Error) => error);
    expect(absent).toBeInstanceOf(Error);
    expect((absent as Error).message).toMatch(/Unknown tool "send_email"; available tools: echo, read_file/);
  }, 600_000);

  it('step 4: a third-party plugin is scaffolded, tested, published and found', async () => {
    const pluginDir = path.join(tmp, 'word-count');
    progress(`step 4: toolshed new plugin ${THIRD_PARTY}, then npm install, npm test, npm publish`);
    await toolshed(['new', 'plugin', THIRD_PARTY, '--dir', pluginDir]);
    await npm(['install', '--ignore-scripts'], pluginDir);
    const tested = await npm(['test'], pluginDir);
    expect(`${tested.stdout}${tested.stderr}`).toMatch(/Tests\s+3 passed \(3\)/);
    await npm(['publish'], pluginDir);
    expect(JSON.parse(readFileSync(path.join(pluginDir, 'dist/toolshed.json'), 'utf8'))).toMatchObject({ tools: [{ definition: { name: 'word_count' } }] });
    expect(await publishedVersions(THIRD_PARTY)).toEqual(['0.1.0']);

    await npm(['install', '--ignore-scripts', THIRD_PARTY], project);
    const tools = await listedTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['echo', 'read_file', 'word_count']);
    const called = await toolshed(['call', 'word_count', '{"text": "three little words"}', '--json']);
    expect(JSON.parse(called.stdout)).toMatchObject({ ok: true, output: { words: 3, characters: 18 } });
  }, 600_000);

  it('step 5: a patch changeset for read_file releases that package alone', async () => {
    progress('step 5: changeset version with one patch changeset for @toolshed/tool-read-file, in the copy');
    for (const file of pendingChangesets(copy)) rmSync(path.join(copy, '.changeset', file));
    writeFileSync(path.join(copy, '.changeset/e2e-read-file-fix.md'), '---\n"@toolshed/tool-read-file": patch\n---\n\nA fix in read_file only.\n');
    const before = Object.fromEntries(workspacePackages(copy).map((item) => [item.name, item.version]));
    await run(path.join(REPO_ROOT, 'node_modules/.bin/changeset'), ['version'], { cwd: copy, env });
    const after = Object.fromEntries(workspacePackages(copy).map((item) => [item.name, item.version]));
    const changed = Object.keys(after).filter((name) => after[name] !== before[name]);
    expect(changed).toEqual(['@toolshed/tool-read-file']);
    expect(after['@toolshed/tool-read-file']).toBe(readFilePatched);
    expect(readFileSync(path.join(copy, 'plugins/read-file/CHANGELOG.md'), 'utf8')).toContain('A fix in read_file only.');

    progress('step 5: pnpm publish -r again: only the new version goes out');
    await run('pnpm', ['publish', '-r', '--no-git-checks', '--registry', `${registry.url}/`], { cwd: copy, env });
    for (const item of workspacePackages(copy).filter((entry) => !entry.private)) {
      const expected = item.name === '@toolshed/tool-read-file' ? [readFileVersion, readFilePatched] : [before[item.name]];
      expect(await publishedVersions(item.name), item.name).toEqual(expected);
    }

    progress('step 5: npm update in the project');
    const installedBefore = installed(project);
    await npm(['update', '--ignore-scripts'], project);
    const installedAfter = installed(project);
    const updated = Object.keys({ ...installedBefore, ...installedAfter }).filter((dir) => installedBefore[dir] !== installedAfter[dir]);
    expect(updated).toEqual([path.join('node_modules', '@toolshed/tool-read-file')]);
    expect(installedAfter[path.join('node_modules', '@toolshed/tool-read-file')]).toBe(readFilePatched);
    expect((await listedTools()).find((tool) => tool.name === 'read_file')).toMatchObject({ version: readFilePatched });
  }, 600_000);
});
