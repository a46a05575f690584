import { definePlugin, defineTool } from '@toolshed/core';
import * as v from 'valibot';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, createHost, type HostError } from './index.js';
import { Project } from './project.fixture.js';

let built = 0;
/** Like read_file: strict options with a root, which its tool reports. */
const rooted = definePlugin({
  name: 'rooted',
  apiVersion: 1,
  options: v.strictObject({ root: v.optional(v.string(), '.') }),
  tools: (options) => {
    built += 1;
    return [defineTool({ name: 'where', description: 'Say the root.', input: v.object({}), run: () => ({ root: options.root }) })];
  },
});

const REFUSED = (field: string, key: string) =>
  `option ${field}: the key "${key}" is refused (JavaScript takes "__proto__", "constructor" and "prototype" for an object's prototype, so options could get values no check saw); remove it`;

let project: Project | undefined;
afterEach(() => {
  project?.remove();
  project = undefined;
  built = 0;
});

describe('prototype keys in options given to createHost in code', () => {
  it('{"__proto__": {"root": "/"}} from JSON.parse is refused naming the plugin and the key; no tool is built', async () => {
    const options = JSON.parse('{"__proto__": {"root": "/"}}') as { root?: string };
    const error = await createHost({ plugins: [[rooted, options]] }).catch((thrown: unknown) => thrown);
    expect((error as Error).message).toContain(
      `1 plugin you named could not be loaded:\n  - rooted [options]: ${REFUSED('__proto__', '__proto__')}.\n`,
    );
    expect(built).toBe(0);
  });

  it('an own "__proto__" written in code, and "constructor"/"prototype" at any depth: every one listed, with fields', async () => {
    const options = { ['__proto__']: { root: '/' }, nested: [{ constructor: { prototype: 1 } }] } as unknown as { root?: string };
    const error = await createHost({ plugins: [[rooted, options]] }).catch((thrown: unknown) => thrown);
    expect((error as Error).message).toContain(
      `1 plugin you named could not be loaded:\n  - rooted [options]: ${REFUSED('__proto__', '__proto__')}; ${REFUSED('nested[0].constructor', 'constructor')}.\n`,
    );
    expect((error as HostError).plugins[0]!.error).toMatchObject({ phase: 'options', field: '__proto__' });
    expect(built).toBe(0);
  });

  it('options without such keys load as before, and "root" is only what was given', async () => {
    const host = await createHost({ plugins: [[rooted, JSON.parse('{"root": "/srv"}') as { root: string }]] });
    expect(await host.registry.dispatch({ name: 'where', input: {} })).toMatchObject({ ok: true, output: { root: '/srv' } });
    await host.close();
  });
});

describe('prototype keys in mcpServers', () => {
  // As text: in an object literal "__proto__" would not be an own key. Tools may be called
  // "constructor" or "__proto__", so a server's rename and annotations maps keep such keys.
  const servers = (form: 'list' | 'object') => {
    const entry =
      '"command": "node", "rename": {"constructor": "c"}, "annotations": {"__proto__": {"readOnly": true}}, "env": {"__proto__": "x"}';
    return form === 'list' ? `[{"name": "files", ${entry}}]` : `{"files": {${entry}}}`;
  };

  it.each([
    ['list', 'mcpServers[0].env.__proto__'],
    ['object', 'mcpServers.files.env.__proto__'],
  ] as const)('a file, %s form: the env key is refused, the tool-name maps pass', async (form, field) => {
    project = new Project();
    project.config(`{"mcpServers": ${servers(form)}}`);
    const error = await createHost({ cwd: project.dir }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toBe(
      `${project.dir}/toolshed.config.json is not a valid Toolshed config:\n  - ${REFUSED(field, '__proto__').slice('option '.length)}`,
    );
  });

  it.each([
    ['list', 'mcpServers[0].env.__proto__'],
    ['object', 'mcpServers.files.env.__proto__'],
  ] as const)(
    'given in code, %s form (from JSON.parse): the env key is refused before any server starts, the tool-name maps pass',
    async (form, field) => {
      const error = await createHost({ mcpServers: JSON.parse(servers(form)) }).catch((thrown: unknown) => thrown);
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toBe(
        `the createHost options are not valid:\n  - ${REFUSED(field, '__proto__').slice('option '.length)}`,
      );
    },
  );
});

describe('prototype keys in a config given as an object or read from a file', () => {
  it('the host options: refused at load, naming the key path', async () => {
    const config = JSON.parse('{"plugins": [["tool-x", {"a": {"prototype": {}}}]], "exposure": {"mode": "search", "constructor": 1}}');
    const error = await createHost({ config }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain('the host options is not a valid Toolshed config:');
    expect((error as Error).message).toContain('  - plugins[0][1].a.prototype (in the entry of "tool-x"): the key "prototype" is refused');
    expect((error as Error).message).toContain('  - exposure.constructor: the key "constructor" is refused');
  });

  it('a file: every refused key listed at once, with the file; rename maps keyed by a tool called "constructor" pass', async () => {
    project = new Project();
    project.plugin({ name: 'tool-ok', tools: [{ name: 'ok' }] });
    project.packageJson({ dependencies: { 'tool-ok': '^1' } });
    // As text: in an object literal "__proto__" would not be an own key.
    project.config(
      '{"plugins": [{"plugin": "tool-ok", "rename": {"constructor": "c"}, "options": {"__proto__": {"root": "/"}}}], "rename": {"__proto__": "x"}}',
    );
    const error = await createHost({ cwd: project.dir }).catch((thrown: unknown) => thrown);
    expect((error as Error).message).toBe(
      [
        `${project.dir}/toolshed.config.json is not a valid Toolshed config:`,
        '  - plugins[0].options.__proto__ (in the entry of "tool-ok"): the key "__proto__" is refused (JavaScript takes "__proto__", "constructor" and "prototype" for an object\'s prototype, so options could get values no check saw); remove it',
      ].join('\n'),
    );
  });
});
