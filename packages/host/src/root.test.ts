import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHost, findProjectRoot, inspectPlugins } from './index.js';
import { Project } from './project.fixture.js';

let project: Project;
const started = process.cwd();
afterEach(() => {
  process.chdir(started);
  project?.remove();
});

/** A folder of the project with nothing in it, several levels down. */
function nested(): string {
  const dir = path.join(project.dir, 'src', 'deep', 'down');
  mkdirSync(dir, { recursive: true });
  return dir;
}

const MARKERS = ['package.json', 'node_modules', 'toolshed.config.json'];
const TMP = realpathSync(os.tmpdir());
const tmpIsMarked = (() => {
  for (let dir = TMP; ; dir = path.dirname(dir)) {
    if (MARKERS.some((marker) => existsSync(path.join(dir, marker)))) return true;
    if (path.dirname(dir) === dir) return false;
  }
})();

describe('the project root is found upward, as npm finds its prefix', () => {
  it('from a nested folder, the nearest folder with a package.json', () => {
    project = new Project().packageJson({});
    expect(findProjectRoot(nested())).toBe(project.dir);
    // A nested package is a project of its own.
    project.write('src/package.json', { name: 'inner' });
    expect(findProjectRoot(nested())).toBe(path.join(project.dir, 'src'));
  });

  it('a node_modules folder or a toolshed.config.json alone marks the root too', () => {
    project = new Project(); // node_modules, no package.json
    expect(findProjectRoot(nested())).toBe(project.dir);
    project.write('src/toolshed.config.json', { plugins: [] });
    expect(findProjectRoot(nested())).toBe(path.join(project.dir, 'src'));
  });

  it.skipIf(tmpIsMarked)('without a marker up to the file system root, the folder itself', () => {
    const bare = mkdtempSync(path.join(TMP, 'toolshed-bare-'));
    try {
      mkdirSync(path.join(bare, 'a', 'b'), { recursive: true });
      expect(findProjectRoot(path.join(bare, 'a', 'b'))).toBe(path.join(bare, 'a', 'b'));
    } finally {
      rmSync(bare, { recursive: true, force: true });
    }
  });

  it('createHost and inspectPlugins started in a subfolder use the root: its plugins and its config', async () => {
    project = new Project();
    project.plugin({ name: 'tool-a', tools: [{ name: 'alpha' }] });
    project.packageJson({ dependencies: { 'tool-a': '^1' } });
    project.config({ rename: { alpha: 'first' } });
    process.chdir(nested());

    const host = await createHost();
    expect(host.cwd).toBe(project.dir);
    expect(host.registry.list().map((tool) => tool.name)).toEqual(['first']);
    expect(await host.registry.dispatch({ name: 'first', input: { text: 'from below' } })).toMatchObject({
      ok: true,
      output: { text: 'from below' },
    });
    const inspection = await inspectPlugins();
    expect(inspection.tools.map((tool) => tool.name)).toEqual(['first']);
    expect(inspection.configFile).toBe(path.join(project.dir, 'toolshed.config.json'));
  });

  it('a cwd given in so many words wins over the search', async () => {
    project = new Project();
    project.plugin({ name: 'tool-a', tools: [{ name: 'alpha' }] });
    project.packageJson({ dependencies: { 'tool-a': '^1' } });
    const below = nested();
    process.chdir(below);
    const host = await createHost({ cwd: below });
    expect(host.cwd).toBe(below);
    expect(host.registry.list()).toEqual([]);
  });
});
