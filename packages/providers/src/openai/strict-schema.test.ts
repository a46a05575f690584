import type { JsonSchema } from '@toolshed/core';
import { describe, expect, it } from 'vitest';
import { restoreOmittedKeys } from './strict-restore.js';
import { describeStrictProblems, strictSchemaProblems, toStrictSchema } from './strict-schema.js';
import { doublingSchema } from '../json-schema/schemas.fixture.js';
import { makeRegistry } from '../tools.fixture.js';

function strict(schema: JsonSchema) {
  const result = toStrictSchema(schema);
  if (!result.ok) throw new Error(`expected a strict schema, got problems: ${JSON.stringify(result.problems)}`);
  return result;
}

const object = (properties: JsonSchema, required: string[] = []): JsonSchema => ({ type: 'object', properties, required });

describe('toStrictSchema', () => {
  it('makes optional, nested and array-item keys required but nullable, and closes every object', () => {
    const { registry } = makeRegistry();
    const { schema, nulls } = strict(registry.get('search')!.definition.inputSchema);
    expect(schema).toEqual({
      type: 'object',
      properties: {
        query: { type: 'string', description: '(minLength: 1)' },
        limit: { type: ['number', 'null'], description: '(default: 10)' },
        filter: {
          anyOf: [
            {
              type: 'object',
              properties: {
                tags: { anyOf: [{ type: 'array', items: { type: 'string' } }, { type: 'null' }] },
                author: { anyOf: [{ type: 'string' }, { type: 'null' }] },
              },
              required: ['tags', 'author'],
              additionalProperties: false,
            },
            { type: 'null' },
          ],
        },
        sort: {
          anyOf: [
            {
              type: 'array',
              items: {
                type: 'object',
                properties: { field: { type: 'string' }, descending: { type: ['boolean', 'null'] } },
                required: ['field', 'descending'],
                additionalProperties: false,
              },
            },
            { type: 'null' },
          ],
        },
      },
      required: ['query', 'limit', 'filter', 'sort'],
      additionalProperties: false,
    });
    // author was nullish already: its null is the tool's own value, so it is not undone.
    expect(nulls.omit).toEqual(['limit', 'filter', 'sort']);
    expect(nulls.properties?.filter?.omit).toEqual(['tags']);
    expect(nulls.properties?.sort?.items?.omit).toEqual(['descending']);
  });

  it('adds null to an optional enum and keeps a default as words', () => {
    const { registry } = makeRegistry();
    const { schema } = strict(registry.get('get_weather')!.definition.inputSchema);
    expect((schema.properties as JsonSchema).unit).toEqual({
      enum: ['celsius', 'fahrenheit', null],
      type: ['string', 'null'],
      description: '(default: "celsius")',
    });
  });

  it('keeps a required nullable field as it is and a const as a one-value enum', () => {
    const { schema, nulls } = strict(
      object({ note: { anyOf: [{ type: 'string' }, { type: 'null' }] }, kind: { const: 'a' } }, ['note', 'kind']),
    );
    expect(schema.properties).toEqual({
      note: { anyOf: [{ type: 'string' }, { type: 'null' }] },
      kind: { enum: ['a'], type: 'string' },
    });
    expect(nulls.omit).toBeUndefined();
  });

  it('moves unsupported formats and length limits into the description, keeping supported ones', () => {
    const { schema } = strict(
      object(
        {
          email: { type: 'string', format: 'email', description: 'Who to write to.' },
          site: { type: 'string', format: 'uri', maxLength: 200 },
        },
        ['email', 'site'],
      ),
    );
    expect(schema.properties).toEqual({
      email: { type: 'string', format: 'email', description: 'Who to write to.' },
      site: { type: 'string', description: '(format: uri; maxLength: 200)' },
    });
  });

  it('inlines $ref targets and drops $defs', () => {
    const { schema } = strict({
      type: 'object',
      properties: { home: { $ref: '#/$defs/Address' } },
      required: ['home'],
      $defs: { Address: object({ city: { type: 'string' } }, ['city']) },
    });
    expect(schema).toEqual({
      type: 'object',
      properties: {
        home: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
      },
      required: ['home'],
      additionalProperties: false,
    });
  });

  it('does not change the schema it is given', () => {
    const { registry } = makeRegistry();
    const input = registry.get('search')!.definition.inputSchema;
    const before = JSON.stringify(input);
    strict(input);
    expect(JSON.stringify(input)).toBe(before);
  });

  it('reports every reason a schema cannot be made strict, by field', () => {
    const problems = strictSchemaProblems(
      object({
        meta: { type: 'object', additionalProperties: { type: 'string' }, propertyNames: { type: 'string' } },
        pair: { type: 'array', items: [{ type: 'string' }, { type: 'number' }] },
        anything: {},
        both: { allOf: [object({ a: { type: 'string' } }), object({ b: { type: 'string' } })] },
        nested: object({ deep: { not: { type: 'string' } } }),
      }),
    );
    expect(problems).toEqual([
      { at: 'meta', reason: expect.stringContaining('open-ended keys (additionalProperties)') },
      { at: 'pair', reason: expect.stringContaining('tuple') },
      { at: 'anything', reason: 'its schema has no type; strict mode needs one (string, number, integer, boolean, object, array or null)' },
      { at: 'both', reason: expect.stringContaining('"allOf" with several schemas') },
      { at: 'both', reason: expect.stringContaining('has no type') },
      { at: 'nested.deep', reason: '"not" cannot be expressed in strict mode' },
      { at: 'nested.deep', reason: expect.stringContaining('has no type') },
    ]);
    expect(strictSchemaProblems(object({ keys: { type: 'object', propertyNames: { pattern: '^a' } } }))).toEqual([
      { at: 'keys', reason: 'it is a record with open-ended keys (propertyNames); strict mode needs every key listed' },
    ]);
    expect(describeStrictProblems('lookup', problems.slice(0, 1))).toBe(
      'Tool "lookup" cannot be sent with OpenAI strict mode:\n' +
        '  - field "meta": it is a record with open-ended keys (additionalProperties); strict mode needs every key listed',
    );
  });

  it('refuses recursive references, a non-object root, and schemas past the size limits', () => {
    expect(
      strictSchemaProblems({
        type: 'object',
        properties: { tree: { $ref: '#/$defs/Node' } },
        $defs: { Node: object({ children: { type: 'array', items: { $ref: '#/$defs/Node' } } }) },
      }),
    ).toEqual([{ at: 'tree.children[]', reason: expect.stringContaining('recursive ($ref "#/$defs/Node")') }]);
    expect(strictSchemaProblems(object({ name: { type: 'string' }, parent: { $ref: '#' } }, ['name']))).toEqual([
      { at: 'parent', reason: 'it is recursive ($ref "#"); the strict rewrite only handles schemas it can inline' },
    ]);
    expect(strictSchemaProblems(doublingSchema(40))).toContainEqual({
      at: expect.stringMatching(/^root(\.[ab])+$/),
      reason: expect.stringMatching(/^its \$ref "#\/\$defs\/L\d+" is past the 1000 the strict rewrite inlines/),
    });
    expect(strictSchemaProblems(object({ far: { $ref: 'https://example.org/address.json' } }))).toEqual([
      { at: 'far', reason: 'its $ref "https://example.org/address.json" does not point to a schema inside this one' },
    ]);
    expect(strictSchemaProblems({ type: 'string' })).toEqual([{ at: '(input)', reason: 'the root of the input must be an object schema' }]);

    let deep: JsonSchema = { type: 'string' };
    for (let level = 0; level < 11; level += 1) deep = object({ next: deep }, ['next']);
    expect(strictSchemaProblems(deep)).toEqual([
      { at: expect.stringMatching(/^next(\.next){9}$/), reason: expect.stringContaining('more than 10 levels') },
    ]);

    const many = Object.fromEntries(Array.from({ length: 1001 }, (_, i) => [`k${i}`, { enum: ['a'] }]));
    expect(strictSchemaProblems(object(many))).toEqual([{ at: '(input)', reason: expect.stringContaining('1001 enum values') }]);
  });

  it('rewrites oneOf as anyOf and keeps a plan per branch', () => {
    const { schema, nulls } = strict(
      object(
        {
          target: {
            oneOf: [
              object({ file: { type: 'string' }, line: { type: 'integer' } }, ['file']),
              object({ url: { type: 'string' } }, ['url']),
            ],
          },
        },
        ['target'],
      ),
    );
    expect((schema.properties as JsonSchema).target).toEqual({
      anyOf: [
        {
          type: 'object',
          properties: { file: { type: 'string' }, line: { type: ['integer', 'null'] } },
          required: ['file', 'line'],
          additionalProperties: false,
        },
        { type: 'object', properties: { url: { type: 'string' } }, required: ['url'], additionalProperties: false },
      ],
    });
    expect(restoreOmittedKeys({ target: { file: 'a.ts', line: null } }, nulls)).toEqual({ target: { file: 'a.ts' } });
    expect(restoreOmittedKeys({ target: { url: 'x' } }, nulls)).toEqual({ target: { url: 'x' } });
  });
});

describe('restoreOmittedKeys', () => {
  it('turns the nulls the rewrite introduced into missing keys, at every depth, and leaves real nulls', () => {
    const { registry } = makeRegistry();
    const { nulls } = strict(registry.get('search')!.definition.inputSchema);
    const sent = {
      query: 'q',
      limit: null,
      filter: { tags: null, author: null },
      sort: [
        { field: 'date', descending: null },
        { field: 'title', descending: true },
      ],
    };
    const copy = structuredClone(sent);
    expect(restoreOmittedKeys(sent, nulls)).toEqual({
      query: 'q',
      filter: { author: null },
      sort: [{ field: 'date' }, { field: 'title', descending: true }],
    });
    expect(sent).toEqual(copy);
  });

  it('keeps a key named __proto__ as plain data', () => {
    const input = JSON.parse('{"query":"q","limit":null,"__proto__":{"polluted":true}}') as unknown;
    const out = restoreOmittedKeys(input, { omit: ['limit'] }) as Record<string, unknown>;
    expect(Object.keys(out)).toEqual(['query', '__proto__']);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('the tool still decides after the round trip: defaults apply, wrong values are still refused', async () => {
    const { registry, received } = makeRegistry();
    const { nulls } = strict(registry.get('search')!.definition.inputSchema);
    const ok = await registry.dispatch({
      name: 'search',
      input: restoreOmittedKeys({ query: 'q', limit: null, filter: null, sort: null }, nulls),
    });
    expect(ok.ok).toBe(true);
    expect(received).toEqual([{ name: 'search', input: { query: 'q', limit: 10 } }]);

    const bad = await registry.dispatch({
      name: 'search',
      input: restoreOmittedKeys({ query: '', limit: null, filter: null, sort: null }, nulls),
    });
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid_input', message: expect.stringContaining('search.query') } });
    expect(received).toHaveLength(1);
  });
});
