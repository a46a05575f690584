import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { describeTool } from './definition.js';
import { ToolRegistry } from './registry.js';
import { defineTool, type AnyTool } from './tool.js';

const echo = defineTool({
  name: 'echo',
  description: 'Return the given text.',
  input: v.object({ text: v.pipe(v.string(), v.description('What to return.')), times: v.optional(v.number(), 1) }),
  output: v.object({ text: v.string() }),
  annotations: { readOnly: true },
  run: ({ text }) => ({ text }),
});

describe('register', () => {
  it('is chainable and makes tools visible through has/get/list', () => {
    const other = defineTool({ ...echo, name: 'echo2' });
    const registry = new ToolRegistry().register(echo, { origin: '@toolshed/tool-echo@1.0.0' }).register(other);
    expect(registry.has('echo')).toBe(true);
    expect(registry.has('nope')).toBe(false);
    expect(registry.list().map((t) => t.name)).toEqual(['echo', 'echo2']);
    expect(registry.get('echo')).toMatchObject({ origin: '@toolshed/tool-echo@1.0.0', loaded: true, definition: { name: 'echo' } });
    expect(registry.get('nope')).toBeUndefined();
  });

  it('refuses a duplicate name, naming both registrations', () => {
    const registry = new ToolRegistry().register(echo, { origin: '@toolshed/tool-echo@1.0.0' });
    expect(() => registry.register({ ...echo }, { origin: 'my-echo@0.2.0' })).toThrow(
      'Duplicate tool name "echo": registered from @toolshed/tool-echo@1.0.0 and again from my-echo@0.2.0. Rename one of them.',
    );
    expect(registry.list()).toHaveLength(1);
  });

  // Each is refused by at least one supported API: Gemini wants a letter or "_" first,
  // OpenAI and Anthropic refuse dots, colons and anything past 64.
  it.each(['', 'has space', 'dot.name', 'colon:name', 'x'.repeat(65), 'émoji', 'slash/name', '2fa_check', '-dash_first', '9'])(
    'refuses the invalid name %j, and the registry stays as it was',
    (name) => {
      const registry = new ToolRegistry().register(echo);
      expect(() => registry.register({ ...echo, name })).toThrow(
        `Invalid tool name ${JSON.stringify(name)}: use a letter or "_" first, then letters, digits, "_" or "-", at most 64 in all (what OpenAI, Anthropic, Gemini and MCP all accept), e.g. get_weather.`,
      );
      expect(() => defineTool({ ...echo, name })).toThrow(`Invalid tool name ${JSON.stringify(name)}`);
      expect(() =>
        registry.registerDeferred({ definition: { ...registry.get('echo')!.definition, name }, load: async () => echo }),
      ).toThrow(`Invalid tool name ${JSON.stringify(name)}`);
      expect(registry.list().map((tool) => tool.name)).toEqual(['echo']);
    },
  );

  it('accepts names at the edges of the pattern', () => {
    const registry = new ToolRegistry()
      .register({ ...echo, name: 'a' })
      .register({ ...echo, name: '_' })
      .register({ ...echo, name: '_2fa_check' })
      .register({ ...echo, name: `A-_9${'x'.repeat(60)}` });
    expect(registry.list().map((tool) => tool.name.length)).toEqual([1, 1, 10, 64]);
  });

  it('refuses a schema without a JSON form, naming the tool and the reason', () => {
    const tool = defineTool({ name: 'when', description: 'Takes a date.', input: v.object({ at: v.date() }), run: () => 1 });
    expect(() => new ToolRegistry().register(tool)).toThrow(
      'Tool "when": its input schema cannot be converted to JSON Schema: The "date" schema cannot be converted to JSON Schema.',
    );
  });

  it('refuses an input schema that is not an object', () => {
    const tool = defineTool({ name: 'bare', description: 'A bare string.', input: v.string(), run: () => 1 });
    expect(() => new ToolRegistry().register(tool)).toThrow('Tool "bare": its input schema must describe an object (got "string")');
  });

  it('describes runtime-only checks by the schema they refine', () => {
    const tool = defineTool({
      name: 'even',
      description: 'Takes an even number.',
      input: v.object({
        n: v.pipe(
          v.number(),
          v.check((n) => n % 2 === 0, 'n must be even'),
          v.minValue(0),
        ),
      }),
      run: ({ n }) => n,
    });
    expect(new ToolRegistry().register(tool).list()[0]?.inputSchema).toEqual({
      type: 'object',
      properties: { n: { type: 'number', minimum: 0 } },
      required: ['n'],
    });
  });

  it.each([
    [{ description: '' }, 'Tool "echo": "description" must be a non-empty string'],
    [{ input: { type: 'object' } }, 'Tool "echo": "input" must be a valibot schema'],
    [{ output: 'string' }, 'Tool "echo": "output" must be a valibot schema when given'],
    [{ run: 'not a function' }, 'Tool "echo": "run" must be a function'],
    [{ timeoutMs: 0 }, 'Tool "echo": "timeoutMs" must be a positive number of milliseconds, got 0'],
    [{ annotations: { readonly: true } }, 'Tool "echo": unknown annotation "readonly"'],
    [{ annotations: { destructive: 'yes' } }, 'Tool "echo": annotation "destructive" must be a boolean'],
  ])('refuses a malformed tool %o with a clear message', (patch, message) => {
    expect(() => new ToolRegistry().register({ ...echo, ...patch } as unknown as AnyTool)).toThrow(message);
  });

  it('refuses registration after seal, and dispatch still works', async () => {
    const registry = new ToolRegistry().register(echo).seal();
    expect(registry.sealed).toBe(true);
    expect(() => registry.register({ ...echo, name: 'late' })).toThrow(
      'Cannot register tool "late": the registry is sealed. Register every tool before seal().',
    );
    expect(registry.has('late')).toBe(false);
    expect(await registry.dispatch({ name: 'echo', input: { text: 'x' } })).toMatchObject({ ok: true });
  });
});

describe('list', () => {
  it('gives what a model sees: name, description, JSON Schemas, annotations; never the handler', () => {
    const [definition] = new ToolRegistry().register(echo).list();
    expect(definition).toEqual({
      name: 'echo',
      description: 'Return the given text.',
      inputSchema: {
        type: 'object',
        properties: { text: { type: 'string', description: 'What to return.' }, times: { type: 'number', default: 1 } },
        required: ['text'],
      },
      outputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      annotations: { readOnly: true },
    });
    expect(JSON.stringify(definition)).not.toContain('run');
  });

  it('is deterministic across registries', () => {
    const a = JSON.stringify(new ToolRegistry().register(echo).list());
    const b = JSON.stringify(new ToolRegistry().register(echo).list());
    expect(a).toBe(b);
  });

  it('hands out copies: changing them changes nothing in the registry', async () => {
    const registry = new ToolRegistry().register(echo);
    const listed = registry.list();
    const first = listed[0]!;
    first.name = 'hacked';
    first.description = 'changed';
    (first.inputSchema.properties as Record<string, unknown>).text = { type: 'number' };
    first.annotations!.destructive = true;
    listed.pop();
    const got = registry.get('echo')!;
    got.definition.description = 'changed via get';
    expect(registry.list()).toEqual(new ToolRegistry().register(echo).list());
    expect(await registry.dispatch({ name: 'echo', input: { text: 'still a string' } })).toMatchObject({ ok: true });
  });
});

describe('registerDeferred', () => {
  function deferred(tool: AnyTool, loads: { count: number }) {
    return {
      definition: describeTool(echo),
      load: async () => {
        loads.count++;
        return tool;
      },
    };
  }

  it('lists the tool without loading it, and loads it once, on first dispatch', async () => {
    const loads = { count: 0 };
    const registry = new ToolRegistry().registerDeferred(deferred(echo, loads), { origin: 'lazy@1.0.0' });
    expect(registry.list()[0]?.name).toBe('echo');
    expect(registry.get('echo')).toMatchObject({ loaded: false, origin: 'lazy@1.0.0' });
    expect(loads.count).toBe(0);
    const outcomes = await Promise.all([
      registry.dispatch({ name: 'echo', input: { text: 'a' } }),
      registry.dispatch({ name: 'echo', input: { text: 'b' } }),
    ]);
    expect(outcomes.map((o) => o.ok && o.output)).toEqual([{ text: 'a' }, { text: 'b' }]);
    expect(loads.count).toBe(1);
    expect(registry.get('echo')?.loaded).toBe(true);
  });

  it('does not load for invalid input that is not even an object', async () => {
    const loads = { count: 0 };
    const registry = new ToolRegistry().registerDeferred(deferred(echo, loads));
    await registry.dispatch({ name: 'echo', input: 'text' });
    expect(loads.count).toBe(0);
  });

  it('denies a risky tool with no approver without loading its code; with an approver, loads it to check the input', async () => {
    const loads = { count: 0 };
    const risky = defineTool({ ...echo, annotations: { destructive: true } });
    const registry = new ToolRegistry().registerDeferred({ ...deferred(risky, loads), definition: describeTool(risky) });
    for (const input of [{ text: 'a' }, { text: 7 }]) {
      expect(await registry.dispatch({ name: 'echo', input })).toMatchObject({
        ok: false,
        error: {
          code: 'denied',
          message: expect.stringMatching(/^echo needs approval \(it is destructive\) and this harness has no approval hook/),
        },
      });
    }
    expect(loads.count).toBe(0);
    expect(registry.get('echo')?.loaded).toBe(false);

    const asked: unknown[] = [];
    const approve = (call: { input: unknown }) => (asked.push(call.input), true);
    expect(await registry.dispatch({ name: 'echo', input: { text: 7 } }, { approve })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', message: 'Invalid input for echo.text: expected string, received number' },
    });
    expect(loads.count).toBe(1);
    expect(asked).toEqual([]);
    expect(await registry.dispatch({ name: 'echo', input: { text: 'b' } }, { approve })).toMatchObject({ ok: true, output: { text: 'b' } });
    expect(asked).toEqual([{ text: 'b', times: 1 }]);
  });

  it('reports code that disagrees with its manifest as a failure, every time', async () => {
    const loads = { count: 0 };
    const changed = defineTool({ ...echo, description: 'Something else entirely.' });
    const registry = new ToolRegistry().registerDeferred(deferred(changed, loads), { origin: 'lazy@1.0.0' });
    for (let i = 0; i < 2; i++) {
      expect(await registry.dispatch({ name: 'echo', input: { text: 'a' } })).toMatchObject({
        ok: false,
        error: {
          code: 'execution_failed',
          message:
            'Tool "echo" could not be loaded: the code of tool "echo" (lazy@1.0.0) does not match its manifest; rebuild the plugin so its manifest is regenerated',
        },
      });
    }
    expect(loads.count).toBe(1);
  });

  it('reports a load that throws', async () => {
    const registry = new ToolRegistry().registerDeferred({
      definition: describeTool(echo),
      load: () => Promise.reject(new Error("Cannot find module 'gone'")),
    });
    expect(await registry.dispatch({ name: 'echo', input: { text: 'a' } })).toMatchObject({
      ok: false,
      error: { code: 'execution_failed', message: `Tool "echo" could not be loaded: Cannot find module 'gone'` },
    });
  });

  it('checks the definition it is given', () => {
    expect(() =>
      new ToolRegistry().registerDeferred({
        definition: { ...describeTool(echo), inputSchema: { type: 'string' } },
        load: async () => echo,
      }),
    ).toThrow('Tool "echo": "inputSchema" must be a JSON Schema of type "object".');
    expect(() => new ToolRegistry().registerDeferred({ definition: describeTool(echo) } as never)).toThrow(
      'Tool "echo": a deferred tool needs a load() function.',
    );
  });
});
