import { cpSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, HostError, isConfigError, isHostError } from './errors.js';
import { Project } from './project.fixture.js';

// The CLI tells a config mistake (exit 2) and a failed plugin report from other faults by
// these errors; a global CLI or a nested install may get them from another copy of host.
// This suite is the first copy (the source); the second is the built package in a folder of its own.
const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
let folder: string;
let other: typeof import('./index.js');

beforeAll(async () => {
  folder = mkdtempSync(path.join(os.tmpdir(), 'toolshed-host-copy-'));
  const copy = path.join(folder, 'host');
  cpSync(path.join(packageDir, 'dist'), path.join(copy, 'dist'), { recursive: true });
  cpSync(path.join(packageDir, 'package.json'), path.join(copy, 'package.json'));
  symlinkSync(path.join(packageDir, 'node_modules'), path.join(copy, 'node_modules'), 'dir');
  other = (await import(pathToFileURL(path.join(copy, 'dist', 'index.js')).href)) as typeof import('./index.js');
});

afterAll(() => {
  if (folder) rmSync(folder, { recursive: true, force: true });
});

describe('two copies of host in one process', () => {
  it("recognises the other copy's ConfigError from a config file that cannot be used", async () => {
    writeFileSync(path.join(folder, 'package.json'), '{"name":"outer"}');
    const config = path.join(folder, 'toolshed.config.json');
    writeFileSync(config, '{"plugins": [');
    const error: unknown = await other.createHost({ cwd: folder, config }).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).not.toBeInstanceOf(ConfigError);
    expect(isConfigError(error)).toBe(true);
    expect(isHostError(error)).toBe(false);
  });

  it("recognises the other copy's HostError, and neither error by its name alone", () => {
    expect(isHostError(new other.HostError([]))).toBe(true);
    expect(other.isHostError(new HostError([]))).toBe(true);
    expect(isConfigError(new other.HostError([]))).toBe(false);
    expect(isConfigError(Object.assign(new Error('bad config'), { name: 'ConfigError', file: 'x.json' }))).toBe(false);
    expect(isHostError(Object.assign(new Error('failed'), { name: 'HostError', plugins: [] }))).toBe(false);
    expect(isHostError(null)).toBe(false);
  });
});

// The `require` condition loads dist/index.cjs, a CommonJS build of the same source (the
// `toolshed` command requires it); a process may hold it beside the ES module build.
describe('the CommonJS build beside the ES module build', () => {
  type Host = typeof import('./index.js');
  const required = createRequire(import.meta.url)(path.join(packageDir, 'dist', 'index.cjs')) as Host;
  const imported = () => import(pathToFileURL(path.join(packageDir, 'dist', 'index.js')).href) as Promise<Host>;
  let project: Project | undefined;
  afterEach(() => project?.remove());

  it('has the same exports, and each build recognises the errors of the other', async () => {
    const esm = await imported();
    expect(Object.keys(required).sort()).toEqual(Object.keys(esm).sort());
    expect(required.createHost).not.toBe(esm.createHost);
    expect(esm.isHostError(new required.HostError([]))).toBe(true);
    expect(required.isHostError(new esm.HostError([]))).toBe(true);
    expect(required.isConfigError(new esm.ConfigError('x.json', 'bad'))).toBe(true);
    expect(required.isConfigError(new esm.HostError([]))).toBe(false);
  });

  it("lists a project's plugins from their manifests, and calls one (an ES module), as the ES module build does", async () => {
    project = new Project();
    project.plugin({ name: 'tool-a', tools: [{ name: 'alpha', output: '{ shout: input.text.toUpperCase() }' }] });
    project.plugin({ name: 'tool-old', tools: [{ name: 'beta' }], packageJson: { peerDependencies: { '@toolshed/core': '^0.9' } } });
    project.packageJson({ dependencies: { 'tool-a': '^1', 'tool-old': '^1' } });
    const esm = await imported();
    const fromRequire = await required.inspectPlugins({ cwd: project.dir });
    expect(fromRequire).toEqual(await esm.inspectPlugins({ cwd: project.dir }));
    // The core version it checks peer ranges against is found from CommonJS too.
    expect(fromRequire.plugins.map((plugin) => [plugin.name, plugin.status, plugin.coreMismatch])).toEqual([
      ['tool-a', 'loaded', undefined],
      ['tool-old', 'loaded', { range: '^0.9', running: expect.stringMatching(/^1\.\d+\.\d+/) }],
    ]);

    const host = await required.createHost({ cwd: project.dir, plugins: ['tool-a'] });
    try {
      expect(await host.registry.dispatch({ name: 'alpha', input: { text: 'hi' } })).toMatchObject({ ok: true, output: { shout: 'HI' } });
      expect(await host.registry.dispatch({ name: 'alpha', input: { text: 1 } })).toMatchObject({
        ok: false,
        error: { code: 'invalid_input' },
      });
    } finally {
      await host.close();
    }
  });
});
