import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { defineTool, definePlugin } from '@toolshed/core';
import * as v from 'valibot';
import { afterEach, describe, expect, it } from 'vitest';
import { isPluginError } from '@toolshed/core/contract';
import { createHost, generateManifest, isHostError, type PluginReport } from './index.js';
import { Project } from './project.fixture.js';

let project: Project | undefined;
afterEach(() => project?.remove());

async function failures(run: Promise<unknown>): Promise<PluginReport[]> {
  const error = await run.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!isHostError(error)) throw new Error(`expected a HostError, got ${String(error)}`);
  return error.plugins.filter((plugin) => plugin.status === 'failed');
}

const echo = defineTool({ name: 'echo', description: 'Echo the text.', input: v.object({ text: v.string() }), run: ({ text }) => text });

describe('a failed plugin says where, as fields (not only in its message)', () => {
  it('an invalid option: the option path', async () => {
    const plugin = definePlugin({
      name: 'p',
      apiVersion: 1,
      options: v.object({ smtp: v.object({ port: v.number() }) }),
      tools: () => [echo],
    });
    const [failed] = await failures(createHost({ plugins: [[plugin, { smtp: { port: 'x' } } as never]] }));
    expect(failed?.error).toEqual({
      phase: 'options',
      field: 'smtp.port',
      message: 'invalid options: option smtp.port: expected number, received string.',
    });
  });

  it('an unset environment variable: the option that refers to it', async () => {
    const plugin = definePlugin({ name: 'p', apiVersion: 1, options: v.object({ password: v.string() }), tools: () => [echo] });
    const [failed] = await failures(createHost({ plugins: [[plugin, { password: { env: 'NOT_SET_ANYWHERE' } } as never]], env: {} }));
    expect(failed?.error).toMatchObject({ phase: 'options', field: 'password' });
  });

  it('a broken tool: the tool and its field', async () => {
    const broken = { ...echo, name: 'broken', output: 'not a schema' } as never;
    const [failed] = await failures(createHost({ plugins: [definePlugin({ name: 'p', apiVersion: 1, tools: [echo, broken] })] }));
    expect(failed?.error).toEqual({
      phase: 'validate',
      tool: 'broken',
      field: 'output',
      message: 'Tool "broken": "output" must be a valibot schema when given.',
    });
  });

  it('an unsupported apiVersion: the field', async () => {
    const [failed] = await failures(createHost({ plugins: [{ name: 'p', apiVersion: 9, tools: [echo] } as never] }));
    expect(failed?.error).toMatchObject({ phase: 'validate', field: 'apiVersion' });
  });

  it('a manifest whose tools differ from the code: the manifest field', async () => {
    project = new Project();
    project.plugin({ name: 'tool-drift', tools: [{ name: 'echo' }] });
    // The code now offers another tool than the manifest lists.
    project.write(
      'node_modules/tool-drift/index.js',
      (await import('./project.fixture.js')).pluginSource({ name: 'tool-drift', tools: [{ name: 'shout' }] }),
    );
    project.config({ plugins: ['tool-drift'] });
    // Its code runs on the first call of its tool (or loadAll), as a discovered plugin's does.
    const host = await createHost({ cwd: project.dir });
    const [failed] = (await host.loadAll()).filter((plugin) => plugin.status === 'failed');
    expect(failed?.error).toMatchObject({ phase: 'validate', field: 'toolshed.tools' });
  });
});

describe('toolshed-manifest fails with fields too', () => {
  it('options its tools need: the phase, the plugin and the option', async () => {
    project = new Project();
    const dir = project.plugin({
      name: 'tool-needs',
      tools: [{ name: 'needs' }],
      options: 'v.object({ root: v.string() })',
      manifest: false,
      packageJson: { toolshed: { apiVersion: 1, tools: ['needs'], manifest: './dist/toolshed.json' } },
    });
    const error = await generateManifest(dir, { root: 7 }).catch((caught: unknown) => caught);
    expect(isPluginError(error) && { phase: error.phase, plugin: error.plugin, field: error.field, message: error.message }).toEqual({
      phase: 'options',
      plugin: 'tool-needs',
      field: 'root',
      message: 'tool-needs (options): invalid options: option root: expected string, received number.',
    });
  });
});

describe('start-up cost', () => {
  it("inspectPlugins with manifest plugins loads neither valibot nor core's main entry", () => {
    project = new Project();
    project.plugin({ name: 'tool-listed', tools: [{ name: 'listed' }], options: 'v.object({ greeting: v.optional(v.string()) })' });
    project.packageJson({ dependencies: { 'tool-listed': '^1' } });
    const hostEntry = pathToFileURL(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist/index.js')).href;
    // A resolve hook writes every module URL the child pulls in.
    const hook = `data:text/javascript,${encodeURIComponent(
      `import { register } from 'node:module'; register('data:text/javascript,' + encodeURIComponent(\`export async function resolve(s, c, next) { const r = await next(s, c); process.stderr.write(r.url + '\\\\n'); return r; }\`));`,
    )}`;
    const script = `const { inspectPlugins } = await import(${JSON.stringify(hostEntry)}); const i = await inspectPlugins({ cwd: ${JSON.stringify(project.dir)} }); console.log(i.tools.map((t) => t.name).join());`;
    const run = spawnSync(process.execPath, ['--import', hook, '--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(run.stdout).toBe('listed\n');
    const urls = run.stderr.split('\n').filter((line) => line.startsWith('file:'));
    expect(urls.some((url) => url.endsWith('/core/dist/contract.js'))).toBe(true);
    expect(
      urls.filter((url) => /\/valibot\/|\/core\/dist\/index\.js$|\/core\/dist\/instantiate\.js$|tool-listed\/index\.js$/.test(url)),
    ).toEqual([]);
  });
});
