import { execFile } from 'node:child_process';
import { readFileSync, symlinkSync } from 'node:fs';
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

/**
 * A project as the README's install line leaves it: the built host, core, valibot, and a plugin
 * named @toolshed/tool-echo with tool `echo` (built here by the real toolshed-manifest: the
 * echo package itself builds with this host, so it cannot be a dependency of its tests).
 */
function installed(): Project {
  project = new Project();
  symlinkSync(HOST_DIR, path.join(project.dir, 'node_modules', '@toolshed', 'host'), 'dir');
  project.plugin({ name: '@toolshed/tool-echo', tools: [{ name: 'echo' }] });
  project.packageJson({ dependencies: { '@toolshed/host': '^1', '@toolshed/core': '^1', '@toolshed/tool-echo': '^1', valibot: '^1' } });
  return project;
}

async function node(file: string, cwd: string): Promise<string> {
  const { stdout, stderr } = await run(process.execPath, [file], { cwd });
  expect(stderr).toBe('');
  return stdout;
}

it('the README shows two harnesses', () => {
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
