import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, expect, it } from 'vitest';
import { Project } from './project.fixture.js';

const run = promisify(execFile);
const HOST_DIR = fileURLToPath(new URL('..', import.meta.url));
const README = readFileSync(path.join(HOST_DIR, 'README.md'), 'utf8');
const snippets = [...README.matchAll(/```js\n([\s\S]*?)```/g)].map((match) => match[1]!);

let project: Project;
afterEach(() => project?.remove());

/** The packages the README's install line installs. */
const INSTALL_LINE = /^npm install (.+)$/m.exec(README)![1]!.split(/\s+/);

/**
 * A project as the README's install line leaves it under pnpm's strict layout: at the top of
 * node_modules only the packages that line names, so a snippet importing anything else fails.
 * The built host, core and valibot are the workspace's; @toolshed/tool-echo is a plugin of that
 * name with tool `echo`, built here by the real toolshed-manifest with its own dependencies
 * beside it (the echo package itself builds with this host, so it cannot be a dependency of
 * these tests).
 */
function installed(): Project {
  project = new Project();
  const modules = path.join(project.dir, 'node_modules');
  const sources: Record<string, string> = {
    '@toolshed/host': HOST_DIR,
    '@toolshed/core': realpathSync(path.join(modules, '@toolshed', 'core')),
    valibot: realpathSync(path.join(modules, 'valibot')),
  };
  rmSync(path.join(modules, '@toolshed', 'core'));
  rmSync(path.join(modules, 'valibot'));
  const echoDir = path.join(modules, '@toolshed', 'tool-echo');
  mkdirSync(path.join(echoDir, 'node_modules', '@toolshed'), { recursive: true });
  symlinkSync(sources['@toolshed/core']!, path.join(echoDir, 'node_modules', '@toolshed', 'core'), 'dir');
  symlinkSync(sources.valibot!, path.join(echoDir, 'node_modules', 'valibot'), 'dir');
  project.plugin({ name: '@toolshed/tool-echo', tools: [{ name: 'echo' }] });
  for (const name of INSTALL_LINE) {
    if (name === '@toolshed/tool-echo') continue;
    if (!sources[name]) throw new Error(`the README installs ${name}, which this test does not know how to provide`);
    symlinkSync(sources[name]!, path.join(modules, name), 'dir');
  }
  project.packageJson({ dependencies: Object.fromEntries(INSTALL_LINE.map((name) => [name, '^1'])) });
  return project;
}

async function node(file: string, cwd: string): Promise<string> {
  const { stdout, stderr } = await run(process.execPath, [file], { cwd });
  expect(stderr).toBe('');
  return stdout;
}

it('the README shows two harnesses and one install line, which names every package they import', () => {
  expect(INSTALL_LINE).toEqual(['@toolshed/host', '@toolshed/core', '@toolshed/tool-echo', 'valibot']);
  expect(snippets).toHaveLength(2);
  expect(snippets[0]).toContain('// harness.mjs — run with: node harness.mjs');
});

it('harness.mjs runs as written, from a subfolder of the project too', async () => {
  const dir = installed().dir;
  project.write('harness.mjs', snippets[0]!);
  const output = await node('harness.mjs', dir);
  expect(output).toContain("name: '@toolshed/tool-echo'");
  expect(output).toContain("status: 'loaded'");
  expect(output).toMatch(/ok: true,[\s\S]*name: 'echo',[\s\S]*output: \{ text: 'hello' \}/);
  project.write('scripts/deep/harness.mjs', snippets[0]!);
  expect(await node('harness.mjs', path.join(dir, 'scripts', 'deep'))).toMatch(/output: \{ text: 'hello' \}/);
});

it('the custom harness composed in code runs as written and prints what its comment says', async () => {
  const dir = installed().dir;
  project.write('custom.mjs', snippets[1]!);
  expect(await node('custom.mjs', dir)).toBe("[ 'echo', 'zone' ]\n");
});
