import { defineTool, definePlugin } from '@toolshed/core';
import * as v from 'valibot';
import { afterEach, describe, expect, it } from 'vitest';
import { createHost, HostError, inspectPlugins, type PluginReport } from './index.js';
import { Project } from './project.fixture.js';

let project: Project;
afterEach(() => project?.remove());

function byName(plugins: PluginReport[], name: string): PluginReport {
  const found = plugins.find((plugin) => plugin.name === name || plugin.spec === name);
  if (!found) throw new Error(`no report for ${name}: ${JSON.stringify(plugins)}`);
  return found;
}

const STRICT_OPTIONS = 'v.strictObject({ root: v.optional(v.string()), maxLines: v.optional(v.number()) })';

describe('every failure of the plugins you named is reported at once', () => {
  it('a missing plugin does not hide the invalid options of a plugin with a manifest', async () => {
    project = new Project();
    project.plugin({ name: 'tool-strict', tools: [{ name: 'strict' }], options: STRICT_OPTIONS });
    project.plugin({ name: 'tool-ok', tools: [{ name: 'ok' }] });
    project.config({ plugins: ['tool-missing', ['tool-strict', { root: 123, maxLinez: 5 }], 'tool-ok'] });

    const error = (await createHost({ cwd: project.dir }).catch((thrown: unknown) => thrown)) as HostError;
    expect(error).toBeInstanceOf(HostError);
    expect(error.message).toContain('2 plugins you named could not be loaded:');
    expect(error.message).toContain('tool-missing [resolve]: package "tool-missing" is not installed');
    expect(error.message).toContain(
      'tool-strict@1.0.0 [options]: invalid options: option root: expected string, received number; unknown option "maxLinez".',
    );
    expect(error.plugins.map(({ name, status, error }) => [name, status, error?.phase])).toEqual([
      ['tool-missing', 'failed', 'resolve'],
      ['tool-strict', 'failed', 'options'],
      ['tool-ok', 'loaded', undefined],
    ]);
  });

  it('an unknown option deep in the options is named by its path', async () => {
    project = new Project();
    project.plugin({
      name: 'tool-smtp',
      tools: [{ name: 'mail' }],
      options: 'v.object({ smtp: v.strictObject({ host: v.string() }) })',
      manifestOptions: { smtp: { host: 'x' } },
    });
    project.config({ plugins: [['tool-smtp', { smtp: { host: 'mail.local', hots: 'typo' } }]] });
    await expect(createHost({ cwd: project.dir })).rejects.toThrow(
      'tool-smtp@1.0.0 [options]: invalid options: unknown option "smtp.hots".',
    );
  });

  it('tools already built for a harness that fails to start are closed', async () => {
    project = new Project();
    const closed: string[] = [];
    const holder = definePlugin({
      name: 'holder',
      apiVersion: 1,
      tools: () => [
        Object.assign(defineTool({ name: 'pool', description: 'Holds a connection pool.', input: v.object({}), run: () => 'ok' }), {
          close: () => void closed.push('pool'),
        }),
      ],
    });
    await expect(createHost({ cwd: project.dir, plugins: [holder, 'tool-missing'] })).rejects.toThrow('tool-missing [resolve]');
    expect(closed).toEqual(['pool']);
  });

  it('inspectPlugins, which runs no plugin code, reports what it can know: the missing plugin', async () => {
    project = new Project();
    project.plugin({ name: 'tool-strict', tools: [{ name: 'strict' }], options: STRICT_OPTIONS, marker: true });
    project.config({ plugins: ['tool-missing', ['tool-strict', { maxLinez: 5 }]] });
    const error = (await inspectPlugins({ cwd: project.dir }).catch((thrown: unknown) => thrown)) as HostError;
    expect(error).toBeInstanceOf(HostError);
    expect(error.message).toContain('1 plugin you named could not be loaded:\n  - tool-missing [resolve]');
    expect(project.imported('node_modules/tool-strict')).toBe(false);
  });
});

describe('a plugin declared in package.json but not installed is reported, not dropped', () => {
  it('a devDependency left out by npm ci --omit=dev: skipped, naming the field and the fix; the others load', async () => {
    project = new Project();
    project.plugin({ name: 'tool-ok', tools: [{ name: 'ok' }] });
    project.packageJson({ dependencies: { 'tool-ok': '^1' }, devDependencies: { '@acme/tool-weather': '^1', typescript: '^5' } });

    const host = await createHost({ cwd: project.dir });
    expect(host.registry.list().map((tool) => tool.name)).toEqual(['ok']);
    expect(host.plugins.map(({ name, status }) => [name, status])).toEqual([
      ['tool-ok', 'loaded'],
      ['@acme/tool-weather', 'skipped'],
    ]);
    expect(byName(host.plugins, '@acme/tool-weather')).toMatchObject({
      source: 'dependency',
      tools: [],
      error: {
        phase: 'resolve',
        message: expect.stringMatching(
          /^it is declared in package\.json "devDependencies" but is not installed, so its tools are missing\. Run npm install \(npm ci --omit=dev/,
        ),
      },
    });
    // typescript is missing too, but it is no plugin: nothing to say about it.
    expect(host.plugins.some((plugin) => plugin.name === 'typescript')).toBe(false);
  });

  it('a plugin whose name says nothing is recognised by the npm lockfile, which records its peer dependency on core', async () => {
    project = new Project();
    project.packageJson({ dependencies: { 'weather-tools': '^2', 'left-pad': '^1' } });
    project.write('package-lock.json', {
      name: 'fixture-project',
      lockfileVersion: 3,
      packages: {
        '': { dependencies: { 'weather-tools': '^2', 'left-pad': '^1' } },
        'node_modules/weather-tools': { version: '2.0.0', peerDependencies: { '@toolshed/core': '^1' } },
        'node_modules/left-pad': { version: '1.3.0' },
      },
    });
    const inspection = await inspectPlugins({ cwd: project.dir });
    expect(inspection.plugins).toEqual([
      expect.objectContaining({
        name: 'weather-tools',
        status: 'skipped',
        error: {
          phase: 'resolve',
          message: 'it is declared in package.json "dependencies" but is not installed, so its tools are missing. Run npm install.',
        },
      }),
    ]);
  });
});

describe('a peer range that misses the running core shows wherever the plugin is listed', () => {
  it('as a field and a warning in inspectPlugins, without importing the plugin', async () => {
    project = new Project();
    project.plugin({
      name: 'tool-old',
      tools: [{ name: 'old' }],
      marker: true,
      packageJson: { peerDependencies: { '@toolshed/core': '^0.9' } },
    });
    project.plugin({ name: 'tool-ok', tools: [{ name: 'ok' }] });
    project.packageJson({ dependencies: { 'tool-old': '^1', 'tool-ok': '^1' } });

    const inspection = await inspectPlugins({ cwd: project.dir });
    const old = byName(inspection.plugins, 'tool-old');
    expect(old).toMatchObject({
      status: 'loaded',
      imported: false,
      coreMismatch: { range: '^0.9', running: expect.stringMatching(/^1\.\d+\.\d+/) },
    });
    expect(old.warnings).toEqual([expect.stringMatching(/^it asks for @toolshed\/core "\^0\.9" but runs with 1\.\d+\.\d+/)]);
    expect(byName(inspection.plugins, 'tool-ok').coreMismatch).toBeUndefined();
    expect(project.imported('node_modules/tool-old')).toBe(false);

    // Loading its code (first call) does not repeat the warning.
    const host = await createHost({ cwd: project.dir });
    expect(await host.registry.dispatch({ name: 'old', input: { text: 'still works' } })).toMatchObject({ ok: true });
    expect(byName(host.plugins, 'tool-old').warnings).toHaveLength(1);
  });
});
