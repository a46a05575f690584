import type { JsonSchema } from '@toolshed/core';
import { describe, expect, it } from 'vitest';
import { doublingSchema } from './schemas.fixture.js';
import { MAX_INLINED_REFS, resolveRef, rewriteSchema, walkSchema, type SchemaStep } from './walk.js';

/** Each place the walk reached, written as a path: `properties.a/items`, `anyOf.0`… */
function where(path: readonly SchemaStep[]): string {
  return (
    path
      .map((step) => ('key' in step ? `${step.keyword}.${step.key}` : 'index' in step ? `${step.keyword}.${step.index}` : step.keyword))
      .join('/') || '#'
  );
}

function walked(schema: JsonSchema) {
  const schemas: string[] = [];
  const refs: string[] = [];
  walkSchema(schema, {
    schema: (_schema, path) => schemas.push(where(path)),
    ref: (ref, why, path) => refs.push(`${where(path)} ${why} ${ref}`),
  });
  return { schemas, refs };
}

describe('walkSchema', () => {
  it('visits every subschema: properties, items, anyOf/oneOf/allOf, additionalProperties, $defs and the rest', () => {
    const { schemas, refs } = walked({
      type: 'object',
      properties: { a: { type: 'array', items: { type: 'string' } }, b: { anyOf: [{ type: 'string' }, { type: 'null' }] } },
      additionalProperties: { oneOf: [{ type: 'number' }, { allOf: [{ minimum: 1 }] }] },
      patternProperties: { '^x': { type: 'boolean' } },
      propertyNames: { pattern: '^[a-z]+$' },
      not: { required: ['z'] },
      if: { properties: { k: { const: 1 } } },
      then: { required: ['k'] },
      else: {},
      dependentSchemas: { a: { required: ['b'] } },
      $defs: { Unused: { type: 'integer' } },
      definitions: { Old: { type: 'string' } },
    });
    expect(schemas).toEqual([
      '#',
      'properties.a',
      'properties.a/items',
      'properties.b',
      'properties.b/anyOf.0',
      'properties.b/anyOf.1',
      'additionalProperties',
      'additionalProperties/oneOf.0',
      'additionalProperties/oneOf.1',
      'additionalProperties/oneOf.1/allOf.0',
      'patternProperties.^x',
      'propertyNames',
      'not',
      'if',
      'if/properties.k',
      'then',
      'else',
      'dependentSchemas.a',
      '$defs.Unused',
      'definitions.Old',
    ]);
    expect(refs).toEqual([]);
  });

  it('visits tuples (items as a list, prefixItems) item by item, and skips boolean schemas', () => {
    const { schemas } = walked({ type: 'array', items: [{ type: 'string' }, true], prefixItems: [{ type: 'number' }], contains: false });
    expect(schemas).toEqual(['#', 'items.0', 'prefixItems.0']);
  });

  it("follows a $ref into its target, where the $ref is written, with the $ref's siblings over the target", () => {
    const seen: { path: string; schema: JsonSchema }[] = [];
    walkSchema(
      {
        type: 'object',
        properties: { home: { $ref: '#/$defs/Address', description: 'Where they live.' } },
        $defs: { Address: { type: 'object', description: 'An address.', properties: { city: { type: 'string' } } } },
      },
      { schema: (schema, path) => seen.push({ path: where(path), schema }) },
    );
    expect(seen.map((entry) => entry.path)).toEqual([
      '#',
      'properties.home',
      'properties.home/properties.city',
      '$defs.Address',
      '$defs.Address/properties.city',
    ]);
    expect(seen[1]!.schema).toEqual({ type: 'object', description: 'Where they live.', properties: { city: { type: 'string' } } });
  });

  it('reports a recursive $ref instead of following it, for a definition, a pair of definitions and the root, and every walk ends', () => {
    const tree = walked({
      type: 'object',
      properties: { tree: { $ref: '#/$defs/Node' } },
      $defs: { Node: { type: 'object', properties: { children: { type: 'array', items: { $ref: '#/$defs/Node' } } } } },
    });
    expect(tree.schemas).toEqual([
      '#',
      'properties.tree',
      'properties.tree/properties.children',
      '$defs.Node',
      '$defs.Node/properties.children',
    ]);
    expect(tree.refs).toEqual([
      'properties.tree/properties.children/items recursive #/$defs/Node',
      // Walked where it is defined, the definition is already one it is inside.
      '$defs.Node/properties.children/items recursive #/$defs/Node',
    ]);

    const pair = walked({
      properties: { a: { $ref: '#/definitions/A' } },
      definitions: { A: { properties: { b: { $ref: '#/definitions/B' } } }, B: { properties: { a: { $ref: '#/definitions/A' } } } },
    });
    expect(pair.refs).toContain('properties.a/properties.b/properties.a recursive #/definitions/A');

    const root = walked({ type: 'object', properties: { name: { type: 'string' }, parent: { $ref: '#' } } });
    expect(root.schemas).toEqual(['#', 'properties.name']);
    expect(root.refs).toEqual(['properties.parent recursive #']);

    const self = walked({ properties: { loop: { $ref: '#/properties/loop' } } });
    expect(self.refs).toEqual(['properties.loop recursive #/properties/loop']);
  });

  it('reports a $ref that does not point into the schema, and follows any JSON Pointer that does', () => {
    const { schemas, refs } = walked({
      properties: {
        far: { $ref: 'https://example.org/schema.json' },
        missing: { $ref: '#/$defs/Nope' },
        broken: { $ref: '#%E0%A4%A' },
        slash: { $ref: '#/$defs/a~1b' },
        encoded: { $ref: '#/%24defs/tilde~0' },
        first: { $ref: '#/$defs/list/0' },
      },
      $defs: { 'a/b': { type: 'string' }, 'tilde~': { type: 'number' }, list: [{ type: 'boolean' }] },
    });
    expect(refs).toEqual([
      'properties.far unresolved https://example.org/schema.json',
      'properties.missing unresolved #/$defs/Nope',
      'properties.broken unresolved #%E0%A4%A',
    ]);
    expect(schemas).toEqual(['#', 'properties.slash', 'properties.encoded', 'properties.first', '$defs.a/b', '$defs.tilde~']);
    expect(resolveRef({ $defs: { 'a/b': { type: 'string' } } }, '#/%24defs/a~1b')).toEqual({
      target: { type: 'string' },
      pointer: '/$defs/a~1b',
    });
  });
});

describe('a schema that grows twofold with each $ref level', () => {
  it(`inlines at most ${MAX_INLINED_REFS} $refs in one walk and reports the rest as past the limit`, () => {
    let schemas = 0;
    const limited = new Set<string>();
    walkSchema(doublingSchema(40), {
      schema: () => (schemas += 1),
      ref: (ref, why) => {
        if (why === 'limit') limited.add(ref);
      },
    });
    // Each inlined $ref is one object with two properties; the other visits are the definitions themselves.
    expect(schemas).toBeLessThanOrEqual(3 * MAX_INLINED_REFS + 3 * 41 + 1);
    expect(limited.size).toBeGreaterThan(0);
    // Below the limit everything is inlined: from the root, 7 levels are 1 + 2 + … + 128 = 255 $refs.
    const small: string[] = [];
    let refs = 0;
    rewriteSchema<void>(doublingSchema(7), {
      schema(visit) {
        for (const [step, child] of Object.entries(visit.schema.properties ?? {})) {
          if (typeof (child as { $ref?: unknown }).$ref === 'string') refs += 1;
          visit.walk(child, { keyword: 'properties', key: step });
        }
      },
      other() {},
      ref: (ref, why) => void small.push(`${why} ${ref}`),
    });
    expect(small).toEqual([]);
    expect(refs).toBe(255);
  });
});

describe('rewriteSchema', () => {
  it('lets the rewriter choose the children, stand a merged schema in for the node, and never changes the input', () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: { a: { allOf: [{ $ref: '#/$defs/S' }] }, b: { $ref: '#/$defs/S' } },
      $defs: { S: { type: 'string', maxLength: 3 } },
    };
    const before = JSON.stringify(schema);
    // A rewrite that keeps only types, and merges a one-part allOf into its parent.
    const types = rewriteSchema<unknown>(schema, {
      schema(visit) {
        const { allOf, ...rest } = visit.schema;
        if (Array.isArray(allOf) && allOf.length === 1) return visit.walk({ ...(allOf[0] as JsonSchema), ...rest });
        const properties = visit.schema.properties as Record<string, unknown> | undefined;
        if (!properties) return visit.schema.type;
        return Object.fromEntries(
          Object.entries(properties).map(([key, child]) => [key, visit.walk(child, { keyword: 'properties', key })]),
        );
      },
      other: (value) => `not a schema: ${JSON.stringify(value)}`,
      ref: (ref, why) => `${why} ${ref}`,
    });
    expect(types).toEqual({ a: 'string', b: 'string' });
    expect(JSON.stringify(schema)).toBe(before);
  });
});
