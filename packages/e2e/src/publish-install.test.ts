import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bytesUnder, codeBlocks, copiesOf, installed } from './installed.js';
import { packDir } from './pack-dir.js';
import { publishTarball } from './publish-tarball.js';
import { startRegistry, type LocalRegistry } from './registry.js';
import { isolatedEnv, progress, run } from './run.js';
import { seedRegistry, thirdPartyClosure } from './third-party.js';
import {
  copyWorkspace,
  linkWorkspaceDependencies,
  OLDEST_NODE,
  pendingChangesets,
  REPO_ROOT,
  TOO_OLD_NODE,
  workspacePackages,
} from './workspace-copy.js';

// The proof of issues 7 and 12, in the order a user and a maintainer meet it.
// Each step needs the one before, so the steps share state and run in sequence.

// The scaffolding README's example package, and the tool it starts with.
const THIRD_PARTY = '@you/tool-word-count';
const THIRD_PARTY_TOOL = 'word_count';
// What the scaffold's package.json asks for besides @toolshed packages: taken from the workspace's own installs.
const SCAFFOLD_TOOLCHAIN = ['typescript', 'vitest', '@types/node', 'valibot'];
/** The optional peers we adapt, each from the package whose tests run against its current major (its devDependency). */
const ADAPTED = [{ name: 'ai', from: 'packages/providers' }];
const YARN = path.join(REPO_ROOT, 'packages/e2e/node_modules/.bin/yarn');
// Issue 12's weight target for the CLI and one plugin, without MCP serving.
const MAX_PACKAGES = 20;
const MAX_BYTES = 10 * 1024 * 1024;

let tmp: string;
let registry: LocalRegistry;
let env: NodeJS.ProcessEnv;
let copy: string;
let project: string;
const versionOf = (file: string) => (JSON.parse(readFileSync(path.join(REPO_ROOT, file), 'utf8')) as { version: string }).version;
const bumpPatch = (version: string) => version.replace(/\.(\d+)$/, (_, patch: string) => `.${Number(patch) + 1}`);
// The versions the workspace has now, and the ones a patch release makes of them.
const readFileVersion = versionOf('plugins/read-file/package.json');
const readFilePatched = bumpPatch(readFileVersion);
const hostVersion = versionOf('packages/host/package.json');
const hostPatched = bumpPatch(hostVersion);
const coreVersion = versionOf('packages/core/package.json');

const npm = (args: string[], cwd: string) => run('npm', args, { cwd, env });
const sh = (script: string, cwd: string) => run('sh', ['-e', '-c', script], { cwd, env });
const toolshed = (args: string[], extraEnv: NodeJS.ProcessEnv = {}) =>
  run(path.join(project, 'node_modules/.bin/toolshed'), args, { cwd: project, env: { ...env, ...extraEnv } });
const readme = (dir: string) => readFileSync(path.join(REPO_ROOT, dir, 'README.md'), 'utf8');

function emptyFolder(name: string): string {
  const dir = path.join(tmp, name);
  mkdirSync(dir);
  return dir;
}

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

// biome-ignore lint/suspicious/noExplicitAny: parsed JSON read field by field in a test
async function publishedManifest(name: string, version: string): Promise<Record<string, any>> {
  const document = (await (await fetch(`${registry.url}/${name.replace('/', '%2f')}`)).json()) as {
    // biome-ignore lint/suspicious/noExplicitAny: parsed JSON read field by field in a test
    versions: Record<string, Record<string, any>>;
  };
  return document.versions[version]!;
}

/** In the copy: replace the pending changesets with one. */
function pendingInCopy(name: string, releases: Record<string, string>): void {
  for (const file of pendingChangesets(copy)) rmSync(path.join(copy, '.changeset', file));
  const frontmatter = Object.entries(releases)
    .map(([pkg, type]) => `"${pkg}": ${type}`)
    .join('\n');
  writeFileSync(path.join(copy, '.changeset', `${name}.md`), `---\n${frontmatter}\n---\n\n${name}: a release made by the e2e test.\n`);
}

/** In the copy: one changeset, `changeset version`, and which versions changed. */
async function versionCopy(name: string, releases: Record<string, string>): Promise<Record<string, [string, string]>> {
  pendingInCopy(name, releases);
  const before = Object.fromEntries(workspacePackages(copy).map((item) => [item.name, item.version]));
  await run(path.join(REPO_ROOT, 'node_modules/.bin/changeset'), ['version'], { cwd: copy, env });
  const changed: Record<string, [string, string]> = {};
  for (const item of workspacePackages(copy))
    if (item.version !== before[item.name]) changed[item.name] = [before[item.name]!, item.version];
  return changed;
}

const publishCopy = () => run('pnpm', ['publish', '-r', '--no-git-checks', '--registry', `${registry.url}/`], { cwd: copy, env });

/** An MCP client on the server a command starts, as an MCP client app would start it. */
async function mcpClient(command: string, args: string[], cwd: string): Promise<Client> {
  const client = new Client({ name: 'e2e', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command, args, cwd, env: env as Record<string, string>, stderr: 'pipe' }));
  return client;
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
  // pnpm's store and yarn's cache in the temp folder too.
  env.npm_config_store_dir = path.join(home, 'pnpm-store');
  env.YARN_CACHE_FOLDER = path.join(home, 'yarn-cache');
  const host = new URL(registry.url).host;
  writeFileSync(path.join(home, '.npmrc'), `registry=${registry.url}/\n//${host}/:_authToken=${registry.token}\n`);
  progress(`Verdaccio listening at ${registry.url}`);
}, 60_000);

afterAll(async () => {
  progress('last step: stopping Verdaccio and removing the temp folders');
  await registry?.stop();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
}, 60_000);

describe('publish to a local registry, install selectively, run every documented command, release', () => {
  it('step 2: publishes every package of the workspace (and the third-party packages they need)', async () => {
    const published = workspacePackages(REPO_ROOT).filter((item) => !item.private);
    // turbo builds only what this package depends on before its tests.
    const own = JSON.parse(readFileSync(path.join(REPO_ROOT, 'packages/e2e/package.json'), 'utf8')) as {
      devDependencies: Record<string, string>;
    };
    const unbuilt = published.filter(
      (item) => !own.devDependencies[item.name] || (item.manifest.scripts?.build && !existsSync(path.join(item.dir, 'dist'))),
    );
    expect(
      unbuilt.map((item) => item.name),
      'add these to packages/e2e devDependencies (workspace:*) and build them',
    ).toEqual([]);
    // The registry has no uplinks, so the third-party packages our packages
    // (and a scaffolded plugin's toolchain) depend on are published to it from
    // the copies pnpm installed here: installs in the test then find
    // everything locally and nothing can reach the internet.
    const roots = published.map((item) => {
      const manifest = item.manifest as {
        dependencies?: object;
        peerDependencies?: object;
        peerDependenciesMeta?: Record<string, { optional?: boolean }>;
      };
      const peers = Object.keys(manifest.peerDependencies ?? {}).filter((name) => !manifest.peerDependenciesMeta?.[name]?.optional);
      return { dir: item.dir, deps: [...Object.keys(manifest.dependencies ?? {}), ...peers] };
    });
    roots.push({ dir: REPO_ROOT, deps: SCAFFOLD_TOOLCHAIN });
    roots.push(...ADAPTED.map(({ name, from }) => ({ dir: path.join(REPO_ROOT, from), deps: [name] })));
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
    // The first release as CONTRIBUTING describes it: pending changesets folded into each package's first entry.
    progress('step 2: pnpm release:initial in the copy');
    await run(process.execPath, [path.join(REPO_ROOT, 'scripts/release-initial.mjs'), copy], { cwd: copy, env });
    // What is left bumps nothing: `none` changesets of changes that ship in the unpublished 1.0.0.
    const bumping = pendingChangesets(copy).filter((file) =>
      /^"[^"]+": (patch|minor|major)$/m.test(readFileSync(path.join(copy, '.changeset', file), 'utf8')),
    );
    expect(bumping).toEqual([]);
    progress(`step 2: pnpm publish -r from a copy of the workspace (${published.length} packages)`);
    await publishCopy();
    for (const item of published) {
      expect(await publishedVersions(item.name), item.name).toEqual([item.version]);
    }
    // workspace: ranges became real ones when packed; core is a peer, the MCP server, context and the inspector optional ones.
    const cli = await publishedManifest('@toolshed/cli', versionOf('packages/cli/package.json'));
    expect(cli.dependencies['@toolshed/host']).toMatch(/^\^\d+\.\d+\.\d+$/);
    expect(cli.peerDependencies).toEqual({
      '@toolshed/context': '^1',
      '@toolshed/core': '^1',
      '@toolshed/inspector': '^1',
      '@toolshed/mcp': '^1',
    });
    expect(cli.peerDependenciesMeta).toEqual({
      '@toolshed/context': { optional: true },
      '@toolshed/inspector': { optional: true },
      '@toolshed/mcp': { optional: true },
    });
    expect(cli.dependencies['@modelcontextprotocol/sdk']).toBeUndefined();
    expect(await publishedVersions('@toolshed/e2e')).toEqual([]);
  }, 600_000);

  it("step 3: the CLI README's commands run as written in an empty folder; the CLI and a plugin stay small", async () => {
    const dir = emptyFolder('cli-readme');
    const [commands] = codeBlocks(readme('packages/cli'), 'sh');
    expect(commands).toContain('npm install @toolshed/cli @toolshed/tool-echo');
    progress(`step 3: the CLI README's commands in an empty folder:\n${commands!.trim()}`);
    const { stdout } = await sh(commands!, dir);
    expect(stdout).toMatch(/^echo {2}@toolshed\/tool-echo@1\.\d+\.\d+$/m);
    expect(stdout).toMatch(/\{\n {2}"text": "hello"\n\}\n$/);

    const found = installed(dir);
    const bytes = bytesUnder(path.join(dir, 'node_modules'));
    progress(
      `step 3: @toolshed/cli + @toolshed/tool-echo with npm: ${Object.keys(found).length} packages, ${(bytes / 1024 / 1024).toFixed(2)} MB in node_modules`,
    );
    expect(Object.keys(found).length).toBeLessThanOrEqual(MAX_PACKAGES);
    expect(bytes).toBeLessThanOrEqual(MAX_BYTES);
    expect(copiesOf(found, '@modelcontextprotocol/sdk')).toEqual([]);
    expect(copiesOf(found, '@toolshed/core')).toEqual(['node_modules/@toolshed/core']);

    // Serving needs the MCP server package: the CLI says which command brings it.
    const serve = await sh('npx @toolshed/cli serve', dir).catch((error: Error) => error);
    expect(serve).toBeInstanceOf(Error);
    expect((serve as Error).message).toContain(
      'toolshed: serve needs @toolshed/mcp, which is not installed where @toolshed/cli is. Run: npm install @toolshed/mcp',
    );

    progress('step 3: npm install @toolshed/mcp, then npx @toolshed/cli serve answers an MCP client');
    await npm(['install', '@toolshed/mcp'], dir);
    const client = await mcpClient('npx', ['@toolshed/cli', 'serve'], dir);
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['echo']);
      expect((await client.callTool({ name: 'echo', arguments: { text: 'over MCP' } })).structuredContent).toEqual({ text: 'over MCP' });
    } finally {
      await client.close();
    }
  }, 600_000);

  it("step 3b: the context README's commands run as written in an empty folder", async () => {
    const dir = emptyFolder('context-readme');
    const blocks = codeBlocks(readme('packages/context'), 'sh');
    const commands = blocks.find((block) => block.includes('npx @toolshed/cli context'));
    expect(commands).toContain('npm install @toolshed/cli @toolshed/context @toolshed/tool-echo');
    progress(`step 3b: the context README's commands in an empty folder:\n${commands!.trim()}`);
    const { stdout } = await sh(commands!, dir);
    // Three reports: openai as a table, anthropic as JSON (an estimate), mcp as a table within the budget.
    // No format lists output schemas, so the table has no output column.
    expect(stdout).toMatch(/^tool +description +input +tokens +bytes$/m);
    expect(stdout).toMatch(/^echo +\d+ +\d+ +\d+ +\d+$/m);
    expect(stdout).toMatch(/^total: \d+ tokens, \d+ bytes for 1 tool in openai format, counted with o200k_base$/m);
    const json = JSON.parse(stdout.match(/^\{[\s\S]*?^\}$/m)![0]) as { format: string; estimate: boolean; tools: { name: string }[] };
    expect(json).toMatchObject({ format: 'anthropic', estimate: true, tools: [{ name: 'echo' }] });
    expect(stdout).toMatch(/^total: \d+ tokens, \d+ bytes for 1 tool in mcp format, estimated/m);
  }, 600_000);

  it('step 4: a fresh project installs the CLI, echo and read_file, and the host finds exactly those', async () => {
    project = emptyFolder('project');
    writeFileSync(
      path.join(project, 'package.json'),
      `${JSON.stringify({ name: 'e2e-project', private: true, type: 'module' }, null, 2)}\n`,
    );
    progress('step 4: npm install @toolshed/cli @toolshed/tool-echo @toolshed/tool-read-file in a fresh project');
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

  it('step 4b: npm installs the current major of every peer we adapt beside providers and context (no ERESOLVE), and the adapter runs', async () => {
    const dir = emptyFolder('adapted-peers');
    writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify({ name: 'e2e-adapted', private: true, type: 'module' }, null, 2)}\n`);
    const wanted = ADAPTED.map(({ name, from }) => {
      const { version } = JSON.parse(readFileSync(path.join(REPO_ROOT, from, 'node_modules', name, 'package.json'), 'utf8')) as {
        version: string;
      };
      return { name, version };
    });
    // What the workspace tests against is the current major (ai 7 has been the latest since August).
    expect(wanted.find((item) => item.name === 'ai')!.version).toMatch(/^([7-9]|\d\d+)\./);
    progress(
      `step 4b: npm install @toolshed/providers @toolshed/context beside ${wanted.map(({ name, version }) => `${name}@${version}`).join(' ')}`,
    );
    await npm(
      [
        'install',
        '--ignore-scripts',
        '@toolshed/providers',
        '@toolshed/context',
        '@toolshed/tool-echo',
        ...wanted.map(({ name, version }) => `${name}@${version}`),
      ],
      dir,
    );
    for (const { name, version } of wanted) {
      expect(JSON.parse(readFileSync(path.join(dir, 'node_modules', name, 'package.json'), 'utf8')).version, name).toBe(version);
    }
    const script = [
      "import { ToolRegistry } from '@toolshed/core';",
      "import { toAiSdkTools } from '@toolshed/providers/ai-sdk';",
      "import { echo } from '@toolshed/tool-echo';",
      'const tools = toAiSdkTools(new ToolRegistry().register(echo));',
      "console.log(JSON.stringify(await tools.echo.execute({ text: 'through ai' }, { toolCallId: 'c1', messages: [], context: {} })));",
    ].join('\n');
    writeFileSync(path.join(dir, 'adapt.mjs'), script);
    const ran = await run(process.execPath, ['adapt.mjs'], { cwd: dir, env });
    expect(JSON.parse(ran.stdout)).toEqual({ text: 'through ai' });
  }, 600_000);

  it('step 5: on the oldest Node that engines allows, the installed CLI works, and a CommonJS program require()s host and core; on 20.18 require() fails with ERR_REQUIRE_ESM', async () => {
    const oldest = (await run(OLDEST_NODE, ['--version'], { cwd: project, env })).stdout.trim();
    const engines = (
      JSON.parse(readFileSync(path.join(project, 'node_modules/@toolshed/cli/package.json'), 'utf8')) as { engines: { node: string } }
    ).engines.node;
    // The first range's lowest version is the Node installed as the oldest.
    expect(engines.split('||')[0]?.trim()).toBe(`^${oldest.slice(1)}`);
    progress(`step 5: the installed CLI on Node ${oldest}`);
    const bin = path.join(project, 'node_modules/@toolshed/cli/bin/toolshed.cjs');
    const listed = await run(OLDEST_NODE, [bin, 'list', '--json'], { cwd: project, env });
    expect((JSON.parse(listed.stdout) as { name: string }[]).map((tool) => tool.name).sort()).toEqual(['echo', 'read_file']);
    const called = await run(OLDEST_NODE, [bin, 'call', 'echo', '{"text":"old node"}'], { cwd: project, env });
    expect(JSON.parse(called.stdout)).toEqual({ text: 'old node' });
    // Commander's program, which imports the providers' adapters.
    const schema = await run(OLDEST_NODE, [bin, 'schema', '--format', 'anthropic'], { cwd: project, env });
    expect((JSON.parse(schema.stdout) as { name: string }[]).map((tool) => tool.name).sort()).toEqual(['echo', 'read_file']);

    // A CommonJS program: require() loads the ES modules on the oldest Node and on this one, warning nothing.
    writeFileSync(
      path.join(project, 'require-host.cjs'),
      [
        "const { createHost } = require('@toolshed/host');",
        "const { ToolRegistry } = require('@toolshed/core');",
        "createHost({ plugins: ['@toolshed/tool-echo'], discover: false }).then(async (host) => {",
        "  const outcome = await host.registry.dispatch({ name: 'echo', input: { text: 'from require' } });",
        '  console.log(JSON.stringify({ ok: outcome.ok, output: outcome.output, registry: host.registry instanceof ToolRegistry }));',
        '  await host.close();',
        '});',
      ].join('\n'),
    );
    for (const node of [OLDEST_NODE, process.execPath]) {
      expect(await run(node, ['require-host.cjs'], { cwd: project, env }), node).toMatchObject({
        stdout: `${JSON.stringify({ ok: true, output: { text: 'from require' }, registry: true })}\n`,
        stderr: '',
      });
    }
    // Node 20.18 cannot: Node's own error, naming the file and what to do instead.
    expect((await run(TOO_OLD_NODE, ['--version'], { cwd: project, env })).stdout).toMatch(/^v20\.18\./);
    writeFileSync(
      path.join(project, 'require-core.cjs'),
      "try { require('@toolshed/core'); console.log('loaded'); } catch (error) { console.log(error.code); console.log(error.message); }\n",
    );
    expect((await run(TOO_OLD_NODE, ['require-core.cjs'], { cwd: project, env })).stdout).toMatch(
      /^ERR_REQUIRE_ESM\nrequire\(\) of ES Module .*node_modules\/@toolshed\/core\/dist\/index\.js from .*require-core\.cjs not supported\.\nInstead change the require of index\.js .* to a dynamic import\(\)/,
    );
  }, 600_000);

  it('step 6: pnpm and yarn install selectively from empty folders too', async () => {
    progress('step 6: pnpm add @toolshed/cli @toolshed/tool-read-file in an empty folder');
    const withPnpm = emptyFolder('with-pnpm');
    await run('pnpm', ['add', '@toolshed/cli', '@toolshed/tool-read-file'], { cwd: withPnpm, env });
    const pnpmList = await run('pnpm', ['exec', 'toolshed', 'list', '--json'], { cwd: withPnpm, env });
    expect((JSON.parse(pnpmList.stdout) as { name: string }[]).map((tool) => tool.name)).toEqual(['read_file']);
    writeFileSync(path.join(withPnpm, 'notes.txt'), 'one\ntwo\n');
    const pnpmCall = await run('pnpm', ['exec', 'toolshed', 'call', 'read_file', '{"path":"notes.txt"}', '--json'], { cwd: withPnpm, env });
    expect(JSON.parse(pnpmCall.stdout)).toMatchObject({ ok: true, name: 'read_file' });

    progress('step 6: yarn add @toolshed/cli @toolshed/core @toolshed/tool-echo (yarn 1 installs no peers) in an empty folder');
    const withYarn = emptyFolder('with-yarn');
    await run(
      YARN,
      [
        'add',
        '--non-interactive',
        '--no-progress',
        '--registry',
        `${registry.url}/`,
        '@toolshed/cli',
        '@toolshed/core',
        '@toolshed/tool-echo',
      ],
      {
        cwd: withYarn,
        env,
      },
    );
    const yarnList = await run(path.join(withYarn, 'node_modules/.bin/toolshed'), ['list', '--json'], { cwd: withYarn, env });
    expect((JSON.parse(yarnList.stdout) as { name: string }[]).map((tool) => tool.name)).toEqual(['echo']);
    expect(copiesOf(installed(withYarn), '@toolshed/core')).toEqual(['node_modules/@toolshed/core']);
  }, 600_000);

  it("step 7: the MCP client config from @toolshed/mcp's README serves the project with nothing installed", async () => {
    const config = codeBlocks(readme('packages/mcp'), 'json').map(
      (block) => JSON.parse(block) as { mcpServers?: Record<string, { command: string; args: string[] }> },
    );
    const server = config.find((entry) => entry.mcpServers)!.mcpServers!.toolshed!;
    expect(server).toEqual({ command: 'npx', args: ['-y', '@toolshed/mcp-server', '--cwd', '/path/to/your/project'] });
    progress(`step 7: ${server.command} ${server.args.join(' ')} (the project's path for /path/to/your/project), from an empty folder`);
    const args = server.args.map((arg) => (arg === '/path/to/your/project' ? project : arg));
    const client = await mcpClient(server.command, args, emptyFolder('mcp-client'));
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual(['echo', 'read_file']);
      expect((await client.callTool({ name: 'echo', arguments: { text: 'from the config' } })).structuredContent).toEqual({
        text: 'from the config',
      });
    } finally {
      await client.close();
    }
  }, 600_000);

  it("step 7b: the mcp-server README's tool search runs with nothing installed: npx -y @toolshed/mcp-server --tool-search", async () => {
    const command = /`(npx -y @toolshed\/mcp-server [^`]*--tool-search[^`]*)`/.exec(readme('packages/mcp-server'))?.[1];
    expect(command).toBe('npx -y @toolshed/mcp-server --cwd /path/to/your/project --tool-search');
    const [, ...args] = command!.replace('/path/to/your/project', project).split(' ');
    progress(`step 7b: ${command} (the project's path for /path/to/your/project), from an empty folder`);
    const client = await mcpClient('npx', args, emptyFolder('mcp-client-search'));
    try {
      // Only the search up front; a search makes echo available, and it runs.
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['tool_search']);
      const found = await client.callTool({ name: 'tool_search', arguments: { query: 'echo text back' } });
      expect(JSON.stringify(found.content)).toContain('echo');
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('echo');
      expect((await client.callTool({ name: 'echo', arguments: { text: 'found' } })).structuredContent).toEqual({ text: 'found' });
    } finally {
      await client.close();
    }
  }, 600_000);

  it("step 8: the scaffolding README's commands run as written; the plugin packs with its build, publishes and is found", async () => {
    const dir = emptyFolder('scaffold');
    const [commands] = codeBlocks(readme('packages/create-plugin'), 'sh');
    expect(commands).toContain(`npm create @toolshed/plugin ${THIRD_PARTY}`);
    progress(`step 8: the scaffolding README's commands in an empty folder:\n${commands!.trim()}`);
    const created = await sh(commands!, dir);
    expect(`${created.stdout}${created.stderr}`).toMatch(/Tests\s+3 passed \(3\)/);

    const pluginDir = path.join(dir, 'tool-word-count');
    expect(existsSync(path.join(pluginDir, 'dist'))).toBe(false);
    progress('step 8: npm pack before any build: prepack builds it');
    const tarballs = emptyFolder('scaffold-tarball');
    await npm(['pack', '--pack-destination', tarballs], pluginDir);
    const listing = await run('tar', ['-tzf', path.join(tarballs, 'you-tool-word-count-0.1.0.tgz')], { cwd: tarballs, env });
    const files = listing.stdout
      .trim()
      .split('\n')
      .map((file) => file.replace(/^package\//, ''))
      .sort();
    expect(files).toEqual(
      expect.arrayContaining([
        'dist/index.js',
        'dist/index.d.ts',
        `dist/${THIRD_PARTY_TOOL}.js`,
        'dist/toolshed.json',
        'package.json',
        'README.md',
      ]),
    );
    expect(files.filter((file) => file.endsWith('.map') || file.includes('.test.'))).toEqual([]);

    await npm(['publish'], pluginDir);
    expect(await publishedVersions(THIRD_PARTY)).toEqual(['0.1.0']);
    await npm(['install', '--ignore-scripts', THIRD_PARTY], project);
    const tools = await listedTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['echo', 'read_file', THIRD_PARTY_TOOL]);
    const called = await toolshed(['call', THIRD_PARTY_TOOL, '{"text": "three little words"}', '--json']);
    expect(JSON.parse(called.stdout)).toMatchObject({ ok: true, output: { words: 3, characters: 18 } });
  }, 600_000);

  it('step 9: a patch changeset for read_file releases that package alone', async () => {
    progress('step 9: changeset version with one patch changeset for @toolshed/tool-read-file, in the copy');
    const changed = await versionCopy('e2e-read-file-fix', { '@toolshed/tool-read-file': 'patch' });
    expect(changed).toEqual({ '@toolshed/tool-read-file': [readFileVersion, readFilePatched] });
    expect(readFileSync(path.join(copy, 'plugins/read-file/CHANGELOG.md'), 'utf8')).toContain(
      'e2e-read-file-fix: a release made by the e2e test.',
    );

    progress('step 9: pnpm publish -r again: only the new version goes out');
    const before = Object.fromEntries(workspacePackages(REPO_ROOT).map((item) => [item.name, item.version]));
    await publishCopy();
    for (const item of workspacePackages(copy).filter((entry) => !entry.private)) {
      const expected = item.name === '@toolshed/tool-read-file' ? [readFileVersion, readFilePatched] : [before[item.name]];
      expect(await publishedVersions(item.name), item.name).toEqual(expected);
    }

    progress('step 9: npm update in the project');
    const installedBefore = installed(project);
    await npm(['update', '--ignore-scripts'], project);
    const installedAfter = installed(project);
    const updated = Object.keys({ ...installedBefore, ...installedAfter }).filter((dir) => installedBefore[dir] !== installedAfter[dir]);
    expect(updated).toEqual([path.join('node_modules', '@toolshed/tool-read-file')]);
    expect(installedAfter[path.join('node_modules', '@toolshed/tool-read-file')]).toBe(readFilePatched);
    expect((await listedTools()).find((tool) => tool.name === 'read_file')).toMatchObject({ version: readFilePatched });
  }, 600_000);

  it('step 10: a fix released in @toolshed/host alone reaches the installed CLI through npm update', async () => {
    progress('step 10: a host fix (patch changeset) in the copy, versioned and published');
    // The fix: the CLI reports it when it loads this host, so the test can see which host runs.
    const hostEntry = path.join(copy, 'packages/host/dist/index.js');
    writeFileSync(
      hostEntry,
      `${readFileSync(hostEntry, 'utf8')}\nif (process.env.TOOLSHED_E2E_HOST_FIX) process.stderr.write('host fix ${hostPatched} loaded\\n');\n`,
    );
    const changed = await versionCopy('e2e-host-fix', { '@toolshed/host': 'patch' });
    expect(changed['@toolshed/host']).toEqual([hostVersion, hostPatched]);
    // Dependents take a patch for the new range, and nothing takes more.
    for (const [name, [from, to]] of Object.entries(changed)) expect(to, name).toBe(bumpPatch(from));
    await publishCopy();

    const before = await toolshed(['list', '--json'], { TOOLSHED_E2E_HOST_FIX: '1' });
    expect(before.stderr).toBe('');
    await npm(['update', '--ignore-scripts'], project);
    const found = installed(project);
    expect(copiesOf(found, '@toolshed/host')).toEqual(['node_modules/@toolshed/host']);
    expect(found['node_modules/@toolshed/host']).toBe(hostPatched);
    const after = await toolshed(['list', '--json'], { TOOLSHED_E2E_HOST_FIX: '1' });
    expect(after.stderr).toBe(`host fix ${hostPatched} loaded\n`);
    expect((JSON.parse(after.stdout) as { name: string }[]).map((tool) => tool.name).sort()).toEqual([
      'echo',
      'read_file',
      THIRD_PARTY_TOOL,
    ]);
  }, 600_000);

  it('step 11: a core major is a major release of every package, and npm update leaves a project with one core', async () => {
    progress('step 11: a major changeset for @toolshed/core (and the launchers, as check:release asks), versioned and published');
    const releases = { '@toolshed/core': 'major', '@toolshed/create-plugin': 'major', '@toolshed/mcp-server': 'major' };
    pendingInCopy('e2e-core-major', releases);
    const check = await run(process.execPath, [path.join(REPO_ROOT, 'scripts/check-release-plan.mjs'), copy], { cwd: copy, env });
    expect(check.stdout).toMatch(/^Release plan ok: .*@toolshed\/cli@\d+\.0\.0 \(major\)/);
    const changed = await versionCopy('e2e-core-major', releases);
    // @toolshed/context-embeddings depends on nothing of ours (a table and a tokenizer): a core major leaves it as it is.
    const everyPackage = workspacePackages(copy).filter((item) => !item.private && item.name !== '@toolshed/context-embeddings');
    for (const item of everyPackage) {
      expect(changed[item.name], `${item.name} is released`).toBeDefined();
      const [from, to] = changed[item.name]!;
      expect(to, item.name).toBe(`${Number(from.split('.')[0]) + 1}.0.0`);
    }
    await publishCopy();
    const nextCore = `${Number(coreVersion.split('.')[0]) + 1}.0.0`;
    for (const name of ['@toolshed/cli', '@toolshed/host', '@toolshed/tool-echo']) {
      const manifest = await publishedManifest(name, changed[name]![1]);
      expect(manifest.peerDependencies['@toolshed/core'], name).toBe(`^${nextCore}`);
    }

    const installedBefore = installed(project);
    await npm(['update', '--ignore-scripts'], project);
    const installedAfter = installed(project);
    // Nothing crosses a major: the project keeps one core, the one its plugins were built for.
    expect(installedAfter).toEqual(installedBefore);
    expect(copiesOf(installedAfter, '@toolshed/core')).toEqual(['node_modules/@toolshed/core']);
    expect(installedAfter['node_modules/@toolshed/core']).toBe(coreVersion);
    expect((await listedTools()).map((tool) => tool.name).sort()).toEqual(['echo', 'read_file', THIRD_PARTY_TOOL]);
  }, 600_000);
});
