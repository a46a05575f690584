import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, createHost, inspectPlugins } from './index.js';
import { Project } from './project.fixture.js';

let project: Project;
afterEach(() => project?.remove());

function setup(config: object): void {
  project = new Project();
  project.plugin({ name: 'tool-ok', tools: [{ name: 'ok' }] });
  project.packageJson({ dependencies: { 'tool-ok': '^1' } });
  project.config(config);
}

describe('exposure in toolshed.config.json', () => {
  it("becomes the registry's exposure setting", async () => {
    setup({ exposure: { mode: 'auto', contextWindow: 128000, alwaysLoaded: ['ok'] } });
    const host = await createHost({ cwd: project.dir });
    expect(host.registry.exposure).toEqual({ mode: 'auto', contextWindow: 128000, share: 0.1, alwaysLoaded: ['ok'] });
    await host.close();
  });

  it('"auto" without a contextWindow takes the documented default of 128,000 tokens', async () => {
    setup({ exposure: { mode: 'auto' } });
    const host = await createHost({ cwd: project.dir });
    expect(host.registry.exposure).toEqual({ mode: 'auto', contextWindow: 128_000, share: 0.1 });
    await host.close();
  });

  it('is in the inspection too, for listings that import no plugin code', async () => {
    setup({ exposure: { mode: 'search', alwaysLoaded: ['ok'] } });
    expect((await inspectPlugins({ cwd: project.dir })).exposure).toEqual({ mode: 'search', alwaysLoaded: ['ok'] });
    project.remove();
    setup({});
    expect(await inspectPlugins({ cwd: project.dir })).not.toHaveProperty('exposure');
  });

  it('yields to the exposure a harness sets in code', async () => {
    setup({ exposure: { mode: 'search' } });
    const host = await createHost({ cwd: project.dir, registry: { exposure: { mode: 'always' } } });
    expect(host.registry.exposure).toEqual({ mode: 'always' });
    await host.close();
  });

  it('a bad setting is a config error naming each field, and nothing loads', async () => {
    setup({ exposure: { mode: 'auto', contextWindow: '200k', share: 0 } });
    const error = await createHost({ cwd: project.dir }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toBe(
      [
        `${project.dir}/toolshed.config.json is not a valid Toolshed config:`,
        '  - exposure.contextWindow must be the model\'s context window in tokens (a whole number above 0; leave it out for 128000), got "200k"',
        '  - exposure.share must be a number above 0 and at most 1 (0.1 is 10%), got 0',
      ].join('\n'),
    );
  });
});
