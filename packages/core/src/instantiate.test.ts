import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { isPluginError, type PluginError } from './plugin-error.js';
import { instantiatePlugin } from './instantiate.js';
import { definePlugin } from './plugin.js';
import { defineTool, type AnyTool } from './tool.js';

const greet = defineTool({
  name: 'greet',
  description: 'Greet someone by name.',
  input: v.object({ name: v.string() }),
  timeoutMs: 2_000,
  run: ({ name }) => `Hello, ${name}`,
});

const Options = v.object({ greeting: v.string(), contact: v.optional(v.pipe(v.string(), v.email())) });

function withOptions(tools: (options: v.InferOutput<typeof Options>) => AnyTool[] = () => [greet]) {
  return definePlugin({ name: 'tool-greet', apiVersion: 1, options: Options, tools });
}

async function failure(run: Promise<unknown>): Promise<PluginError> {
  const error = await run.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!isPluginError(error)) throw new Error(`expected a PluginError, got ${String(error)}`);
  return error;
}

describe('instantiatePlugin', () => {
  it('builds the tools and their definitions, with options parsed by the schema', async () => {
    let seen: unknown;
    const instance = await instantiatePlugin(
      withOptions((options) => {
        seen = options;
        return [greet];
      }),
      { options: { greeting: 'Hi' }, cwd: '/project' },
    );
    expect(seen).toEqual({ greeting: 'Hi' });
    expect(instance.tools).toEqual([greet]);
    expect(instance.definitions).toEqual([
      { name: 'greet', description: 'Greet someone by name.', inputSchema: expect.objectContaining({ type: 'object' }) },
    ]);
  });

  it('refuses options for a plugin that takes none, naming them', async () => {
    const error = await failure(
      instantiatePlugin(definePlugin({ name: 'tool-plain', apiVersion: 1, tools: [greet] }), { options: { verbose: true }, cwd: '.' }),
    );
    expect(error).toMatchObject({
      phase: 'options',
      plugin: 'tool-plain',
      field: 'verbose',
      message: 'it takes no options, but was given verbose. Remove them.',
    });
  });

  it('words option issues by field and never quotes a value a check saw', async () => {
    const secret = 'hunter2-not-an-email';
    const error = await failure(instantiatePlugin(withOptions(), { options: { greeting: 5, contact: secret, extra: 1 }, cwd: '.' }));
    expect(error.phase).toBe('options');
    expect(error.message).toBe(
      'invalid options: option greeting: expected string, received number; option contact: failed the email check.',
    );
    expect(error.issues?.map((issue) => [issue.field, issue.kind])).toEqual([
      ['greeting', 'type'],
      ['contact', 'check'],
    ]);
    expect(JSON.stringify({ ...error, message: error.message })).not.toContain(secret);
  });

  it('resolves {"env": "NAME"} references when given an env, and names an unset one without a value', async () => {
    let seen: unknown;
    const plugin = withOptions((options) => {
      seen = options;
      return [greet];
    });
    await instantiatePlugin(plugin, { options: { greeting: { env: 'GREETING' } }, env: { GREETING: 'Hej' }, cwd: '.' });
    expect(seen).toEqual({ greeting: 'Hej' });
    const error = await failure(
      instantiatePlugin(plugin, { options: { greeting: { env: 'GREETING' } }, env: {}, configName: 'my.json', cwd: '.' }),
    );
    expect(error).toMatchObject({
      phase: 'options',
      field: 'greeting',
      message:
        'option greeting refers to environment variable GREETING, which is not set. Set GREETING before starting, or change the option in my.json.',
    });
  });

  it.each([
    [{ name: 'p', apiVersion: 2, tools: [] }, 'apiVersion', /declares apiVersion 2, but this host supports apiVersion 1/],
    [{ name: 'p', apiVersion: 1.5, tools: [] }, 'apiVersion', /apiVersion 1\.5, which is not an integer/],
    [{ name: '', apiVersion: 1, tools: [] }, 'name', /"name" must be a non-empty string/],
    [{ name: 'p', apiVersion: 1, tools: 'x' }, 'tools', /"tools" must be a list of tools or a function/],
    [{ name: 'p', apiVersion: 1, tools: [], options: {} }, 'options', /"options" must be a valibot schema/],
  ])('refuses a plugin with a bad field (%#), naming the field', async (plugin, field, message) => {
    const error = await failure(instantiatePlugin(plugin, { cwd: '.' }));
    expect(error.phase).toBe('validate');
    expect(error.field).toBe(field);
    expect(error.message).toMatch(message);
  });

  it('reports a throwing factory as an options failure with its cause', async () => {
    const cause = new Error('no database');
    const error = await failure(
      instantiatePlugin(
        withOptions(() => {
          throw cause;
        }),
        { options: { greeting: 'x' }, cwd: '.' },
      ),
    );
    expect(error).toMatchObject({
      phase: 'options',
      plugin: 'tool-greet',
      message: 'its tools could not be created with these options: no database',
    });
    expect(error.cause).toBe(cause);
  });

  it('names the tool and field of a broken tool, and closes the tools it built', async () => {
    let closed = 0;
    const good = { ...greet, close: () => void (closed += 1) };
    const broken = { ...greet, name: 'broken', input: 'not a schema' } as unknown as AnyTool;
    const error = await failure(
      instantiatePlugin(
        withOptions(() => [good, broken]),
        { options: { greeting: 'x' }, cwd: '.' },
      ),
    );
    expect(error).toMatchObject({ phase: 'validate', plugin: 'tool-greet', tool: 'broken', field: 'input' });
    expect(error.message).toBe('Tool "broken": "input" must be a valibot schema such as v.object({...}).');
    expect(closed).toBe(1);
  });

  it('close() closes every tool once, even when one of them throws', async () => {
    const closed: string[] = [];
    const a = {
      ...greet,
      name: 'a',
      close: () => {
        closed.push('a');
        throw new Error('a failed');
      },
    };
    const b = { ...greet, name: 'b', close: async () => void closed.push('b') };
    const instance = await instantiatePlugin(definePlugin({ name: 'p', apiVersion: 1, tools: () => [a, b] }), { cwd: '.' });
    await Promise.all([instance.close(), instance.close()]);
    await instance.close();
    expect(closed).toEqual(['a', 'b']);
  });

  it('refuses a close that is not a function, naming the tool', async () => {
    const error = await failure(
      instantiatePlugin(definePlugin({ name: 'p', apiVersion: 1, tools: [{ ...greet, close: 'soon' } as unknown as AnyTool] }), {
        cwd: '.',
      }),
    );
    expect(error).toMatchObject({ tool: 'greet', field: 'close' });
  });
});
