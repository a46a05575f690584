import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const bin = fileURLToPath(new URL('../../bin/toolshed.cjs', import.meta.url));
const cliDir = fileURLToPath(new URL('../..', import.meta.url));

function toolshed(args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], { cwd, env: { ...process.env, NO_COLOR: '1' } }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

// biome-ignore lint/suspicious/noExplicitAny: parsed JSON read field by field in a test
const readJson = async (file: string) => JSON.parse(await readFile(file, 'utf8')) as Record<string, any>;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'toolshed-new-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('toolshed new plugin, outside a workspace', () => {
  it("the create-plugin README's example package gets a tool named for what the generated tool does (counting words)", async () => {
    const readme = await readFile(fileURLToPath(new URL('../../../create-plugin/README.md', import.meta.url)), 'utf8');
    const names = [...readme.matchAll(/npm create @toolshed\/plugin (\S+)/g)].map((match) => match[1]!);
    expect(new Set(names)).toEqual(new Set(['@you/tool-word-count']));
    const run = await toolshed(['new', 'plugin', names[0]!, '--dir', 'from-readme'], dir);
    expect(run.code).toBe(0);
    const tool = await readFile(join(dir, 'from-readme/src/word_count.ts'), 'utf8');
    expect(tool).toContain("name: 'word_count',");
    expect(tool).toContain("description: 'Count the words and characters in a text.");
  });

  it('writes a standalone plugin package with real version ranges', async () => {
    const run = await toolshed(['new', 'plugin', '@acme/tool-word-count'], dir);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const pkgDir = join(dir, 'tool-word-count');
    expect((await readdir(join(pkgDir, 'src'))).sort()).toEqual(['index.test.ts', 'index.ts', 'word_count.ts']);
    for (const file of ['package.json', 'tsconfig.json', 'tsconfig.build.json', 'README.md', '.gitignore']) {
      expect(existsSync(join(pkgDir, file))).toBe(true);
    }
    const pkg = await readJson(join(pkgDir, 'package.json'));
    expect(pkg).toMatchObject({
      name: '@acme/tool-word-count',
      type: 'module',
      exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' } },
      toolshed: {
        apiVersion: 1,
        tools: ['word_count'],
        manifest: './dist/toolshed.json',
        permissions: { read: [], write: [], net: [], env: [], spawn: false },
      },
      peerDependencies: { '@toolshed/core': '^1' },
      scripts: { build: 'tsc -p tsconfig.build.json && toolshed-manifest', test: 'vitest run' },
    });
    // The Node versions every Toolshed package supports: the CLI's own.
    expect(pkg.engines).toEqual((await readJson(join(cliDir, 'package.json'))).engines);
    for (const range of Object.values({ ...pkg.dependencies, ...pkg.devDependencies })) {
      expect(range).toMatch(/^[~^]\d+\.\d+\.\d+$/);
    }
    expect(Object.keys(pkg.devDependencies)).toEqual(
      expect.arrayContaining(['@toolshed/core', '@toolshed/host', '@toolshed/testing', 'typescript', 'vitest']),
    );
    const index = await readFile(join(pkgDir, 'src/index.ts'), 'utf8');
    expect(index).toContain("name: '@acme/tool-word-count'");
    expect(await readFile(join(pkgDir, 'src/index.test.ts'), 'utf8')).toContain("from '@toolshed/testing'");
    expect(run.stdout).toContain('Created @acme/tool-word-count with the tool word_count in tool-word-count');
  });

  it('takes --dir and --tool', async () => {
    const run = await toolshed(['new', 'plugin', 'toolshed-plugin-weather', '--dir', 'nested/weather', '--tool', 'get_weather'], dir);
    expect(run.code).toBe(0);
    const pkg = await readJson(join(dir, 'nested/weather/package.json'));
    expect(pkg.toolshed.tools).toEqual(['get_weather']);
    expect(existsSync(join(dir, 'nested/weather/src/get_weather.ts'))).toBe(true);
  });
});

describe('toolshed new plugin, inside a workspace', () => {
  it('links the workspace own packages with workspace: ranges and adds a changeset', async () => {
    const root = join(dir, 'monorepo');
    await mkdir(join(root, 'packages/core'), { recursive: true });
    await mkdir(join(root, '.changeset'), { recursive: true });
    await writeFile(join(root, 'pnpm-workspace.yaml'), "packages:\n  - 'packages/*'\n  - plugins/*\n");
    await writeFile(join(root, 'packages/core/package.json'), '{"name": "@toolshed/core", "version": "1.2.0"}');
    await writeFile(join(root, '.changeset/config.json'), '{}');
    const run = await toolshed(['new', 'plugin', '@toolshed/tool-clock', '--dir', 'plugins/clock'], root);
    expect(run.code).toBe(0);
    const pkg = await readJson(join(root, 'plugins/clock/package.json'));
    expect(pkg.devDependencies['@toolshed/core']).toBe('workspace:*');
    expect(pkg.devDependencies['@toolshed/testing']).toBe('^1.0.0');
    expect(pkg.peerDependencies).toEqual({ '@toolshed/core': '^1' });
    expect(await readFile(join(root, '.changeset/toolshed-tool-clock-initial.md'), 'utf8')).toBe(
      '---\n"@toolshed/tool-clock": minor\n---\n\nNew plugin: @toolshed/tool-clock.\n',
    );
  });

  it('refuses a name the workspace already has', async () => {
    const root = join(dir, 'monorepo');
    const run = await toolshed(['new', 'plugin', '@toolshed/core', '--dir', 'plugins/core2'], root);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('already has a package named @toolshed/core; choose another name.');
    expect(existsSync(join(root, 'plugins/core2'))).toBe(false);
  });
});

describe('toolshed new plugin refuses bad input and writes nothing', () => {
  it('an invalid package name', async () => {
    const run = await toolshed(['new', 'plugin', 'My Plugin'], dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      'toolshed: "My Plugin" is not a valid npm package name: use lower-case letters, digits, "-", "." or "_", optionally scoped, e.g. "@acme/tool-weather" or "toolshed-plugin-weather".\n',
    );
    expect(existsSync(join(dir, 'My Plugin'))).toBe(false);
  });

  it('an invalid tool name', async () => {
    const run = await toolshed(['new', 'plugin', 'good-name', '--tool', 'get weather'], dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('"get weather" is not a valid tool name');
    expect(existsSync(join(dir, 'good-name'))).toBe(false);
    // Gemini refuses a digit first, so the scaffold does too, stating the rule.
    const digit = await toolshed(['new', 'plugin', 'good-name', '--tool', '2fa_check'], dir);
    expect(digit.code).toBe(2);
    expect(digit.stderr).toBe(
      'toolshed: "2fa_check" is not a valid tool name: use a letter or "_" first, then letters, digits, "_" or "-", at most 64 in all (what OpenAI, Anthropic, Gemini and MCP all accept), e.g. get_weather.\n',
    );
    expect(existsSync(join(dir, 'good-name'))).toBe(false);
  });

  it('a folder that is not empty, leaving its files as they were', async () => {
    await mkdir(join(dir, 'taken'), { recursive: true });
    await writeFile(join(dir, 'taken/notes.txt'), 'keep me');
    const run = await toolshed(['new', 'plugin', 'taken'], dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('taken already exists and is not empty; choose another folder with --dir.');
    expect(await readdir(join(dir, 'taken'))).toEqual(['notes.txt']);
    expect(await readFile(join(dir, 'taken/notes.txt'), 'utf8')).toBe('keep me');
  });

  it('a missing name', async () => {
    const run = await toolshed(['new', 'plugin'], dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("missing required argument 'name'");
  });
});
