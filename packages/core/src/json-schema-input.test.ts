import { describe, expect, it } from 'vitest';
import { jsonSchemaInput, type JsonSchemaProblem } from './json-schema-input.js';
import { ToolRegistry } from './registry.js';
import { defineTool } from './tool.js';

const schema = {
  type: 'object',
  properties: { path: { type: 'string' }, items: { type: 'array', items: { type: 'object', properties: { n: { type: 'number' } } } } },
  required: ['path'],
  additionalProperties: false,
};

// A validator for this one schema, standing in for the JSON Schema validator a caller brings (ajv in @toolshed/mcp).
function validate(value: unknown): JsonSchemaProblem[] {
  const input = value as Record<string, unknown>;
  const problems: JsonSchemaProblem[] = [];
  if (!('path' in input)) problems.push({ path: [], kind: 'missing', key: 'path' });
  else if (typeof input.path !== 'string') problems.push({ path: ['path'], kind: 'type', expected: 'string' });
  for (const key of Object.keys(input)) if (key !== 'path' && key !== 'items') problems.push({ path: [], kind: 'unknown', key });
  if (Array.isArray(input.items)) {
    input.items.forEach((item, index) => {
      const n = (item as Record<string, unknown>).n;
      if (typeof n === 'number' && n > 10) problems.push({ path: ['items', index, 'n'], kind: 'check', message: 'must be <= 10' });
    });
  }
  return problems;
}

function registry() {
  const ran: unknown[] = [];
  const tool = defineTool({
    name: 'remote',
    description: 'A tool described by JSON Schema.',
    input: jsonSchemaInput(schema, async (value) => validate(value)),
    run: (input) => {
      ran.push(input);
      return { got: input };
    },
  });
  return { registry: new ToolRegistry().register(tool).seal(), ran };
}

describe('jsonSchemaInput', () => {
  it('is described to a model by the JSON Schema it carries, as is', () => {
    const { registry: reg } = registry();
    expect(reg.list()[0]!.inputSchema).toEqual(schema);
  });

  it('runs the handler with a valid input', async () => {
    const { registry: reg, ran } = registry();
    const outcome = await reg.dispatch({ name: 'remote', input: { path: 'a', items: [{ n: 1 }] } });
    expect(outcome).toMatchObject({ ok: true, output: { got: { path: 'a', items: [{ n: 1 }] } } });
    expect(ran).toHaveLength(1);
  });

  it.each([
    [{}, 'Invalid input for remote.path: missing required field "path"', ['path']],
    [{ path: 3 }, 'Invalid input for remote.path: expected string, received number', ['path']],
    [{ path: 'a', extra: true }, 'Invalid input for remote.extra: unknown field "extra"; remove it', ['extra']],
    [{ path: 'a', items: [{ n: 1 }, { n: 11 }] }, 'Invalid input for remote.items[1].n: must be <= 10', ['items', 1, 'n']],
  ] as const)('gives invalid_input with a path for %j and never runs the handler', async (input, message, path) => {
    const { registry: reg, ran } = registry();
    const outcome = await reg.dispatch({ name: 'remote', input });
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.error.code).toBe('invalid_input');
    expect(outcome.error.message).toBe(message);
    expect(outcome.error.issues?.[0]?.path).toEqual(path);
    expect(ran).toHaveLength(0);
  });

  it('refuses a schema that does not describe an object', () => {
    expect(() => jsonSchemaInput({ type: 'string' }, () => [])).toThrow(/type "object"/);
  });

  it('hands out copies: changing the schema given or listed changes nothing stored', () => {
    const given = structuredClone(schema);
    const reg = new ToolRegistry()
      .register(defineTool({ name: 'remote', description: 'd', input: jsonSchemaInput(given, () => []), run: () => null }))
      .seal();
    (given.properties.path as { type: string }).type = 'number';
    (reg.list()[0]!.inputSchema.properties as Record<string, { type: string }>).path!.type = 'boolean';
    expect(reg.list()[0]!.inputSchema).toEqual(schema);
  });
});
