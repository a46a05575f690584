import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, createHost, HostError, type Host, type PluginReport } from './index.js';
import { Project, pluginSource } from './project.fixture.js';

let project: Project;
afterEach(() => project?.remove());

/** A project with a healthy plugin `tool-ok` (tool `ok`) and whatever the test adds, all declared. */
function setup(extraDeps: string[]): Project {
  project = new Project();
  project.plugin({ name: 'tool-ok', tools: [{ name: 'ok' }] });
  project.packageJson({ dependencies: Object.fromEntries(['tool-ok', ...extraDeps].map((name) => [name, '^1'])) });
  return project;
}

async function expectOthersWork(host: Host): Promise<void> {
  expect(await host.registry.dispatch({ name: 'ok', input: { text: 'still here' } })).toMatchObject({
    ok: true,
    output: { text: 'still here' },
  });
  expect(host.plugins.find((plugin) => plugin.name === 'tool-ok')).toMatchObject({ status: 'loaded', tools: ['ok'] });
}

function report(host: Host, name: string): PluginReport {
  const found = host.plugins.find((plugin) => plugin.name === name || plugin.spec === name);
  if (!found) throw new Error(`no report for ${name}: ${JSON.stringify(host.plugins)}`);
  return found;
}

/** Faults found only when the plugin's code is imported (on its first call, or loadAll). */
const CODE_FAULTS: { title: string; code: string; phase: string; cause: RegExp }[] = [
  {
    title: 'module that throws on import',
    code: "throw new Error('boom at import');",
    phase: 'import',
    cause: /importing .*index\.js failed: boom at import/,
  },
  { title: 'syntax error', code: 'export default {', phase: 'import', cause: /importing .*index\.js failed: SyntaxError/ },
  {
    title: 'default export of the wrong shape',
    code: 'export default { hello: 1 };',
    phase: 'validate',
    cause: /its default export is not a plugin: it lacks name, apiVersion, tools/,
  },
  { title: 'no default export', code: 'export const plugin = {};', phase: 'validate', cause: /the module has no default export/ },
  {
    title: 'unsupported apiVersion in code',
    code: pluginSource({ name: 'tool-bad', apiVersion: 2 }),
    phase: 'validate',
    cause: /declares apiVersion 2, but this host supports apiVersion 1/,
  },
  {
    title: 'manifest disagreeing with the code (description)',
    code: pluginSource({ name: 'tool-bad', tools: [{ name: 'bad', description: 'Changed after the build.' }] }),
    phase: 'validate',
    cause: /its code describes tool "bad" differently from its manifest; rebuild the plugin/,
  },
  {
    title: 'manifest disagreeing with the code (tool list)',
    code: pluginSource({ name: 'tool-bad', tools: [{ name: 'bad' }, { name: 'extra' }] }),
    phase: 'validate',
    cause: /its code offers tools \[bad, extra\] but its manifest lists \[bad\]/,
  },
  {
    title: 'tools factory that throws',
    code: `import { definePlugin } from '@toolshed/core';
export default definePlugin({ name: 'tool-bad', apiVersion: 1, tools: () => { throw new Error('no database'); } });`,
    phase: 'options',
    cause: /its tools could not be created with these options: no database/,
  },
];

describe('faults found when a plugin is loaded', () => {
  for (const fault of CODE_FAULTS) {
    it(`${fault.title}: the call fails naming the plugin, the report says why, others work`, async () => {
      setup(['tool-bad']);
      project.plugin({ name: 'tool-bad', tools: [{ name: 'bad' }] });
      project.write('node_modules/tool-bad/index.js', fault.code);
      const host = await createHost({ cwd: project.dir });
      expect(report(host, 'tool-bad')).toMatchObject({ status: 'loaded', tools: ['bad'] });

      const outcome = await host.registry.dispatch({ name: 'bad', input: { text: 'x' } });
      expect(outcome.ok).toBe(false);
      if (outcome.ok) return;
      expect(outcome.error.code).toBe('execution_failed');
      expect(outcome.error.message).toContain(`plugin tool-bad@1.0.0 could not be loaded (${fault.phase})`);
      expect(outcome.error.message).toMatch(fault.cause);
      expect(report(host, 'tool-bad')).toMatchObject({ status: 'failed', error: { phase: fault.phase } });
      expect(report(host, 'tool-bad').error!.message).toMatch(fault.cause);
      await expectOthersWork(host);
    });
  }

  it('loadAll() imports every waiting plugin and reports all failures without throwing', async () => {
    setup(['tool-bad', 'tool-worse']);
    project.plugin({ name: 'tool-bad', tools: [{ name: 'bad' }] });
    project.plugin({ name: 'tool-worse', tools: [{ name: 'worse' }] });
    project.write('node_modules/tool-bad/index.js', CODE_FAULTS[0]!.code);
    project.write('node_modules/tool-worse/index.js', CODE_FAULTS[2]!.code);
    const host = await createHost({ cwd: project.dir });
    const plugins = await host.loadAll();
    expect(plugins.map(({ name, status, imported, error }) => ({ name, status, imported, phase: error?.phase }))).toEqual([
      { name: 'tool-ok', status: 'loaded', imported: true, phase: undefined },
      { name: 'tool-bad', status: 'failed', imported: false, phase: 'import' },
      { name: 'tool-worse', status: 'failed', imported: true, phase: 'validate' },
    ]);
    await expectOthersWork(host);
  });

  it('invalid options from the config: option path and expected kind, never the value', async () => {
    setup([]);
    project.plugin({
      name: 'tool-opt',
      tools: [{ name: 'opt' }],
      options:
        'v.object({ greeting: v.optional(v.string()), contact: v.optional(v.pipe(v.string(), v.email())), limits: v.optional(v.object({ max: v.number() })) })',
    });
    project.config({
      plugins: [['tool-opt', { greeting: 42, contact: { env: 'CONTACT' }, limits: {} }]],
    });
    // A plugin named in the config is checked at startup: wrong options fail it, listing the cause.
    const error = (await createHost({ cwd: project.dir, env: { CONTACT: 'not-an-email-secret' } }).catch(
      (thrown: unknown) => thrown,
    )) as HostError;
    expect(error).toBeInstanceOf(HostError);
    const failure =
      'invalid options: option greeting: expected string, received number; option contact: failed the email check; option limits.max is required.';
    expect(error.message).toContain(`tool-opt@1.0.0 [options]: ${failure}`);
    expect(error.plugins.find((plugin) => plugin.name === 'tool-opt')).toMatchObject({
      status: 'failed',
      error: { phase: 'options', message: failure },
    });
    expect(error.plugins.find((plugin) => plugin.name === 'tool-ok')).toMatchObject({ status: 'loaded' });
    expect(JSON.stringify(error.plugins) + error.message).not.toContain('not-an-email-secret');
  });

  it('options given to a plugin that takes none', async () => {
    setup([]);
    project.plugin({ name: 'tool-plain', tools: [{ name: 'plain' }] });
    project.config({ plugins: [['tool-plain', { verbose: true }]] });
    const error = (await createHost({ cwd: project.dir }).catch((thrown: unknown) => thrown)) as HostError;
    expect(error).toBeInstanceOf(HostError);
    expect(error.message).toContain('tool-plain@1.0.0 [options]: it takes no options, but was given verbose. Remove them.');
    expect(error.plugins.find((plugin) => plugin.name === 'tool-ok')).toMatchObject({ status: 'loaded' });
  });

  it('warns when the plugin asks for another @toolshed/core', async () => {
    setup(['tool-old']);
    project.plugin({ name: 'tool-old', tools: [{ name: 'old' }], packageJson: { peerDependencies: { '@toolshed/core': '^0.9' } } });
    const host = await createHost({ cwd: project.dir });
    await host.loadAll();
    expect(report(host, 'tool-old')).toMatchObject({ status: 'loaded' });
    expect(report(host, 'tool-old').warnings).toEqual([
      expect.stringMatching(/^it asks for @toolshed\/core "\^0\.9" but runs with 1\.\d+\.\d+; it may misbehave/),
    ]);
  });
});

describe('faults found at startup, in a discovered plugin: skipped with a warning, others load', () => {
  const cases: { title: string; make: () => void; phase: string; cause: RegExp }[] = [
    {
      title: 'malformed package.json',
      make: () => project.write('node_modules/tool-bad/package.json', '{ "name": "tool-bad", '),
      phase: 'resolve',
      cause: /node_modules\/tool-bad\/package\.json is not valid JSON/,
    },
    {
      title: 'unsupported apiVersion in the manifest',
      make: () => project.plugin({ name: 'tool-bad', manifest: false, packageJson: { toolshed: { apiVersion: 2, tools: ['echo'] } } }),
      phase: 'validate',
      cause: /it declares apiVersion 2, but this host supports apiVersion 1\. Upgrade @toolshed\/host/,
    },
    {
      title: 'a "toolshed" field of the wrong shape',
      make: () => project.plugin({ name: 'tool-bad', manifest: false, packageJson: { toolshed: { apiVersion: 1, tools: 'echo' } } }),
      phase: 'validate',
      cause: /"toolshed\.tools" must list its tool names/,
    },
    {
      title: 'a manifest file that was never built',
      make: () =>
        project.plugin({
          name: 'tool-bad',
          manifest: false,
          packageJson: { toolshed: { apiVersion: 1, tools: ['echo'], manifest: './dist/toolshed.json' } },
        }),
      phase: 'validate',
      cause: /cannot read its manifest dist\/toolshed\.json: it is missing\. Rebuild the plugin/,
    },
    {
      title: 'a manifest file that disagrees with package.json',
      make: () => {
        project.plugin({ name: 'tool-bad', tools: [{ name: 'bad' }] });
        project.write('node_modules/tool-bad/package.json', {
          name: 'tool-bad',
          version: '1.0.0',
          type: 'module',
          exports: './index.js',
          toolshed: { apiVersion: 1, tools: ['renamed'], manifest: './dist/toolshed.json' },
        });
      },
      phase: 'validate',
      cause: /it lists tools \[bad\] but package\.json "toolshed\.tools" lists \[renamed\]/,
    },
    {
      title: 'duplicate tool name',
      make: () => project.plugin({ name: 'tool-bad', version: '2.1.0', tools: [{ name: 'ok' }] }),
      phase: 'register',
      cause: /tool "ok" is offered by both tool-ok@1\.0\.0 and tool-bad@2\.1\.0\. Rename one in toolshed\.config\.json/,
    },
    {
      title: 'a plugin without a manifest whose code throws',
      make: () =>
        project.plugin({
          name: 'tool-bad',
          manifest: false,
          code: "throw new Error('eager boom');",
          packageJson: { toolshed: { apiVersion: 1, tools: ['bad'] } },
        }),
      phase: 'import',
      cause: /eager boom/,
    },
  ];
  for (const fault of cases) {
    it(fault.title, async () => {
      setup(['tool-bad']);
      fault.make();
      const host = await createHost({ cwd: project.dir });
      const bad = report(host, 'tool-bad');
      expect(bad.status).toBe('skipped');
      expect(bad.error?.phase).toBe(fault.phase);
      expect(bad.error?.message).toMatch(fault.cause);
      // The cause is a field, not also a sentence among the warnings for callers to parse.
      expect(bad.warnings.join('\n')).not.toContain(bad.error!.message);
      await expectOthersWork(host);
    });
  }
});

describe('faults in plugins the user named: startup fails listing every error at once', () => {
  it('lists an unresolvable name, a malformed package, an unset env variable and a duplicate together', async () => {
    setup([]);
    project.write('node_modules/tool-broken/package.json', '{ nope');
    project.plugin({
      name: 'tool-secret',
      tools: [{ name: 'secret' }],
      options: 'v.object({ token: v.string() })',
      manifestOptions: { token: 'build-time' },
    });
    project.plugin({ name: 'tool-dup', tools: [{ name: 'ok' }] });
    project.config({
      plugins: ['tool-missing', 'tool-broken', ['tool-secret', { token: { env: 'TOOL_TOKEN' } }], 'tool-ok', 'tool-dup'],
    });
    const error = await createHost({ cwd: project.dir, env: {} }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(HostError);
    const { message, plugins } = error as HostError;
    expect(message).toContain('4 plugins you named could not be loaded:');
    expect(message).toContain('tool-missing [resolve]: package "tool-missing" is not installed in');
    expect(message).toContain('tool-broken [resolve]:');
    expect(message).toContain('is not valid JSON');
    expect(message).toContain(
      'tool-secret@1.0.0 [options]: option token refers to environment variable TOOL_TOKEN, which is not set. Set TOOL_TOKEN before starting, or change the option in toolshed.config.json.',
    );
    expect(message).toContain('tool-dup@1.0.0 [register]: tool "ok" is offered by both tool-ok@1.0.0 and tool-dup@1.0.0');
    expect(plugins.map(({ name, status }) => [name, status])).toEqual([
      ['tool-missing', 'failed'],
      ['tool-broken', 'failed'],
      ['tool-secret', 'failed'],
      ['tool-ok', 'loaded'],
      ['tool-dup', 'failed'],
    ]);
  });

  it('a config plugin path that does not exist', async () => {
    setup([]);
    project.config({ plugins: ['./nowhere/plugin.js'] });
    await expect(createHost({ cwd: project.dir })).rejects.toThrow(
      /\.\/nowhere\/plugin\.js \[resolve\]: .*nowhere\/plugin\.js does not exist/,
    );
  });

  it('a plugin object of the wrong shape handed over in code', async () => {
    project = new Project();
    await expect(createHost({ cwd: project.dir, plugins: [{ name: 'x' } as never] })).rejects.toThrow(
      /x \[validate\]: the plugin handed to createHost is not a plugin: it lacks apiVersion, tools/,
    );
  });
});

describe('config files that cannot be used', () => {
  it('a config file that is not valid JSON names the file', async () => {
    setup([]);
    const file = project.write('toolshed.config.json', '{ "plugins": [ "tool-ok", ] }');
    const error = await createHost({ cwd: project.dir }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).file).toBe(file);
    expect((error as ConfigError).message).toMatch(
      new RegExp(
        `^${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} is not valid JSON \\(.+\\)\\. Fix the file, or pass another with --config\\.$`,
      ),
    );
  });

  it('lists every problem in a config of the wrong shape', async () => {
    setup([]);
    project.config({ plugins: ['ok', 3, ['a', 'b'], { plugin: 'c', extra: 1 }], rename: { a: 1 }, discover: 'yes', other: true });
    await expect(createHost({ cwd: project.dir })).rejects.toThrow(
      [
        'toolshed.config.json is not a valid Toolshed config:',
        '  - unknown key "other"; use plugins, mcpServers, rename, discover, exposure, isolate',
        '  - plugins[1] must be a package name, a relative path, ["name", {options}] or {"plugin": "name", "options": {...}, "rename": {...}, "isolate": true, "grant": {...}}',
        '  - plugins[2][1] (the options of a) must be an object',
        '  - plugins[3] has unknown key "extra"; use plugin, options, rename, isolate, grant',
        '  - rename["a"] must be the new tool name (a string)',
        '  - "discover" must be true or false',
      ].join('\n'),
    );
  });

  it('refuses entries of the wrong shape in code with the words a config file gets', async () => {
    setup([]);
    const plugins = ['ok', ['a', 'b'], { plugin: 'c', extra: 1, rename: { a: 1 } }, 7] as never;
    await expect(createHost({ cwd: project.dir, plugins })).rejects.toThrow(
      [
        'the createHost options are not valid:',
        '  - plugins[1][1] (the options of a) must be an object',
        '  - plugins[2].rename["a"] must be the new tool name (a string)',
        '  - plugins[2] has unknown key "extra"; use plugin, options, rename, isolate, grant',
        '  - plugins[3] must be a package name, a relative path, ["name", {options}] or {"plugin": "name", "options": {...}, "rename": {...}, "isolate": true, "grant": {...}}',
      ].join('\n'),
    );
  });

  it('a project package.json that is not valid JSON names the file', async () => {
    project = new Project();
    const file = project.write('package.json', '{ "dependencies": ');
    const error = await createHost({ cwd: project.dir }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).file).toBe(file);
    expect((error as ConfigError).message).toMatch(
      /^The project's .*package\.json is not valid JSON \(.+\); fix it so its dependencies can be read\.$/,
    );
  });

  it('a --config file that does not exist', async () => {
    setup([]);
    await expect(createHost({ cwd: project.dir, config: 'missing.json' })).rejects.toThrow(
      /Cannot read config file .*missing\.json: it does not exist\./,
    );
  });
});
