import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHost, inspectPlugins } from './index.js';
import { Project } from './project.fixture.js';

let project: Project;
afterEach(() => project?.remove());

describe('discovery from the project root', () => {
  it('finds only declared dependencies that carry a "toolshed" manifest, without importing them', async () => {
    project = new Project();
    project.plugin({ name: 'tool-a', tools: [{ name: 'alpha' }], marker: true });
    project.plugin({ name: '@scope/tool-b', tools: [{ name: 'beta' }], marker: true });
    project.plugin({ name: 'tool-undeclared', tools: [{ name: 'stray' }], marker: true });
    project.write('node_modules/not-a-plugin/package.json', { name: 'not-a-plugin', version: '2.0.0' });
    project.packageJson({
      dependencies: { 'tool-a': '^1', 'not-a-plugin': '^2', 'declared-but-missing': '^1' },
      devDependencies: { '@scope/tool-b': '^1' },
    });

    const host = await createHost({ cwd: project.dir });

    expect(host.registry.list().map((tool) => tool.name)).toEqual(['alpha', 'beta']);
    expect(
      host.plugins.map(({ name, version, source, tools, status, imported }) => ({ name, version, source, tools, status, imported })),
    ).toEqual([
      { name: 'tool-a', version: '1.0.0', source: 'dependency', tools: ['alpha'], status: 'loaded', imported: false },
      { name: '@scope/tool-b', version: '1.0.0', source: 'dependency', tools: ['beta'], status: 'loaded', imported: false },
    ]);
    expect(project.imported('node_modules/tool-a')).toBe(false);
    expect(project.imported('node_modules/tool-undeclared')).toBe(false);

    const outcome = await host.registry.dispatch({ name: 'alpha', input: { text: 'hi' } });
    expect(outcome).toMatchObject({ ok: true, output: { text: 'hi' } });
    expect(project.imported('node_modules/tool-a')).toBe(true);
    expect(project.imported('node_modules/@scope/tool-b')).toBe(false);
    expect(host.plugins[0]!.imported).toBe(true);
  });

  it('inspectPlugins lists definitions from the manifests alone', async () => {
    project = new Project();
    project.plugin({ name: 'tool-a', tools: [{ name: 'alpha', description: 'First tool.' }], marker: true });
    project.packageJson({ dependencies: { 'tool-a': '^1' } });

    const inspection = await inspectPlugins({ cwd: project.dir });

    expect(inspection.tools).toEqual([
      {
        name: 'alpha',
        description: 'First tool.',
        inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      },
    ]);
    expect(project.imported('node_modules/tool-a')).toBe(false);
  });

  it('finds nothing in a project without package.json or config', async () => {
    project = new Project();
    const host = await createHost({ cwd: project.dir });
    expect(host.registry.list()).toEqual([]);
    expect(host.plugins).toEqual([]);
  });

  it('resolves from the project root, also when the package is installed in a parent folder', async () => {
    project = new Project();
    project.plugin({ name: 'tool-a', tools: [{ name: 'alpha' }] });
    project.write('app/package.json', { name: 'app', dependencies: { 'tool-a': '^1' } });
    const host = await createHost({ cwd: path.join(project.dir, 'app') });
    expect(host.registry.list().map((tool) => tool.name)).toEqual(['alpha']);
    expect(host.plugins[0]!.path).toBe(path.join(project.dir, 'node_modules', 'tool-a'));
  });

  it('"discover": false in the config loads only the plugins named there', async () => {
    project = new Project();
    project.plugin({ name: 'tool-a', tools: [{ name: 'alpha' }] });
    project.plugin({ name: 'tool-b', tools: [{ name: 'beta' }] });
    project.packageJson({ dependencies: { 'tool-a': '^1', 'tool-b': '^1' } });
    project.config({ plugins: ['tool-b'], discover: false });
    const host = await createHost({ cwd: project.dir });
    expect(host.registry.list().map((tool) => tool.name)).toEqual(['beta']);
    expect(host.plugins[0]).toMatchObject({ name: 'tool-b', source: 'config' });
  });

  it('a plugin both named in config and declared is loaded once, as the config names it', async () => {
    project = new Project();
    project.plugin({ name: 'tool-a', tools: [{ name: 'alpha' }] });
    project.packageJson({ dependencies: { 'tool-a': '^1' } });
    project.config({ plugins: ['tool-a'] });
    const host = await createHost({ cwd: project.dir });
    expect(host.plugins.map((plugin) => [plugin.name, plugin.source])).toEqual([['tool-a', 'config']]);
  });
});

describe('plugins named in toolshed.config.json', () => {
  const GREET = {
    name: 'tool-greet',
    tools: [{ name: 'greet', output: '{ text: `${options.greeting}, ${input.text}` }' }],
    options: "v.object({ greeting: v.optional(v.string(), 'Hello'), token: v.optional(v.string()) })",
  };

  it('passes validated options to the tools, never into the schema the model sees', async () => {
    project = new Project();
    project.plugin(GREET);
    project.packageJson({});
    project.config({ plugins: [['tool-greet', { greeting: 'Ahoy' }]] });
    const host = await createHost({ cwd: project.dir });
    const outcome = await host.registry.dispatch({ name: 'greet', input: { text: 'crew' } });
    expect(outcome).toMatchObject({ ok: true, output: { text: 'Ahoy, crew' } });
    expect(JSON.stringify(host.registry.list())).not.toContain('greeting');
  });

  it('resolves {"env": "NAME"} option values from the environment', async () => {
    project = new Project();
    project.plugin({ ...GREET, tools: [{ name: 'greet', output: '{ text: `${options.greeting}:${options.token.length}` }' }] });
    project.packageJson({});
    project.config({ plugins: [{ plugin: 'tool-greet', options: { greeting: 'Hi', token: { env: 'GREET_TOKEN' } } }] });
    const host = await createHost({ cwd: project.dir, env: { GREET_TOKEN: 's3cret-value' } });
    const outcome = await host.registry.dispatch({ name: 'greet', input: { text: 'x' } });
    expect(outcome).toMatchObject({ ok: true, output: { text: 'Hi:12' } });
    expect(JSON.stringify(host.plugins)).not.toContain('s3cret-value');
  });

  it('loads a plugin package from a relative path and a plugin module file', async () => {
    project = new Project();
    project.plugin({ name: 'local-dir-plugin', tools: [{ name: 'from_dir' }] }, 'tools/dir-plugin');
    project.write(
      'tools/file-plugin.js',
      (await import('./project.fixture.js')).pluginSource({ name: 'file-plugin', tools: [{ name: 'from_file' }] }),
    );
    project.packageJson({});
    project.config({ plugins: ['./tools/dir-plugin', './tools/file-plugin.js'] });
    const host = await createHost({ cwd: project.dir });
    expect(host.registry.list().map((tool) => tool.name)).toEqual(['from_dir', 'from_file']);
    const imported = () => host.plugins.map(({ name, spec, imported }) => ({ name, spec, imported }));
    expect(imported()).toEqual([
      // A package named by path waits for the first call of one of its tools, as an installed one
      // does (its manifest lists them); a module file has none, so it ran to be known.
      { name: 'local-dir-plugin', spec: './tools/dir-plugin', imported: false },
      { name: 'file-plugin', spec: './tools/file-plugin.js', imported: true },
    ]);
    expect(await host.registry.dispatch({ name: 'from_file', input: { text: 'f' } })).toMatchObject({ ok: true, output: { text: 'f' } });
    expect(imported()[0]!.imported).toBe(false);
    expect(await host.registry.dispatch({ name: 'from_dir', input: { text: 'd' } })).toMatchObject({ ok: true, output: { text: 'd' } });
    expect(imported()[0]!.imported).toBe(true);
  });

  it('a --config file elsewhere resolves relative paths from its own folder', async () => {
    project = new Project();
    project.plugin({ name: 'local-dir-plugin', tools: [{ name: 'from_dir' }] }, 'conf/dir-plugin');
    project.packageJson({});
    project.write('conf/custom.json', { plugins: ['./dir-plugin'] });
    const inspection = await inspectPlugins({ cwd: project.dir, config: 'conf/custom.json' });
    expect(inspection.configFile).toBe(path.join(project.dir, 'conf/custom.json'));
    expect(inspection.tools.map((tool) => tool.name)).toEqual(['from_dir']);
  });

  it('renames tools globally and per plugin; the old names are gone and calls reach the right code', async () => {
    project = new Project();
    project.plugin({ name: 'tool-a', tools: [{ name: 'read_file', output: "{ text: 'a:' + input.text }" }] });
    project.plugin({ name: 'tool-b', tools: [{ name: 'read_file', output: "{ text: 'b:' + input.text }" }, { name: 'other' }] });
    project.packageJson({ dependencies: { 'tool-a': '^1' } });
    project.config({ plugins: [{ plugin: 'tool-b', rename: { read_file: 'b_read' } }], rename: { other: 'b_other' } });
    const host = await createHost({ cwd: project.dir });
    expect(host.registry.list().map((tool) => tool.name)).toEqual(['b_read', 'b_other', 'read_file']);
    expect(await host.registry.dispatch({ name: 'b_read', input: { text: '1' } })).toMatchObject({ ok: true, output: { text: 'b:1' } });
    expect(await host.registry.dispatch({ name: 'read_file', input: { text: '2' } })).toMatchObject({ ok: true, output: { text: 'a:2' } });
    expect(host.plugins[0]!.tools).toEqual(['b_read', 'b_other']);
    expect(host.warnings).toEqual([]);
  });

  it('warns about a rename that matches no tool', async () => {
    project = new Project();
    project.packageJson({});
    project.config({ rename: { nothing_here: 'x' } });
    const host = await createHost({ cwd: project.dir });
    expect(host.warnings).toEqual(['rename: no loaded plugin offers a tool named "nothing_here"; the rename does nothing.']);
  });
});
