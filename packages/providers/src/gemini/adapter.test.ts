import { defineTool, ToolRegistry, type JsonSchema } from '@toolshed/core';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { LOCAL_CALL_ID_PREFIX } from '../call-id.js';
import { dispatchCalls } from '../run-tool-calls.js';
import { doublingSchema } from '../json-schema/schemas.fixture.js';
import { makeRegistry } from '../tools.fixture.js';
import { gemini } from './adapter.js';
import { toGeminiSchema } from './schema.js';

// A generateContent response as documented: functionCall parts with name and args (id optional).
const response = {
  candidates: [
    {
      content: {
        role: 'model',
        parts: [
          { text: 'Let me check.' },
          { functionCall: { name: 'get_weather', args: { location: 'Lisbon, Portugal' } } },
          { functionCall: { id: 'fc-7', name: 'search', args: { query: 'tides', limit: 'many' } } },
          { functionCall: { name: 'ping' } },
        ],
      },
      finishReason: 'STOP',
      index: 0,
    },
  ],
};

describe('Gemini schemas', () => {
  it('keeps the OpenAPI subset: nullable instead of null types, no additionalProperties, string enums only', () => {
    const { registry } = makeRegistry();
    expect(toGeminiSchema(registry.get('search')!.definition.inputSchema)).toEqual({
      type: 'object',
      properties: {
        query: { type: 'string', minLength: 1 },
        limit: { type: 'number', default: 10 },
        filter: {
          type: 'object',
          properties: { tags: { type: 'array', items: { type: 'string' } }, author: { type: 'string', nullable: true } },
        },
        sort: {
          type: 'array',
          items: { type: 'object', properties: { field: { type: 'string' }, descending: { type: 'boolean' } }, required: ['field'] },
        },
      },
      required: ['query'],
    });
  });

  it('inlines $ref, folds type lists and oneOf, and says in words what it had to drop', () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: {
        home: { $ref: '#/$defs/Address', description: 'Where they live.' },
        tree: { $ref: '#/$defs/Node' },
        labels: { type: 'object', additionalProperties: { type: 'string' }, propertyNames: { type: 'string' } },
        level: { enum: [1, 2, 3] },
        mode: { const: 'fast' },
        site: { type: ['string', 'null'], format: 'uri' },
        when: { type: 'string', format: 'date-time' },
        either: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
        pair: { type: 'array', items: [{ type: 'string' }, { type: 'string' }], minItems: 2 },
        mixed: { type: 'array', items: [{ type: 'string' }, { type: 'number' }] },
      },
      required: ['home'],
      additionalProperties: false,
      $defs: {
        Address: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        Node: { type: 'object', properties: { child: { $ref: '#/$defs/Node' } } },
      },
    };
    const before = JSON.stringify(schema);
    expect(toGeminiSchema(schema)).toEqual({
      type: 'object',
      properties: {
        home: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], description: 'Where they live.' },
        tree: {
          type: 'object',
          properties: { child: { type: 'object', description: '(a nested value of the same shape as its parent)' } },
        },
        labels: { type: 'object', description: '(an object with keys of your choosing)' },
        level: { type: 'integer', description: '(one of 1, 2, 3)' },
        mode: { enum: ['fast'], type: 'string' },
        site: { type: 'string', nullable: true, description: '(format: uri)' },
        when: { type: 'string', format: 'date-time' },
        either: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
        pair: { type: 'array', items: { type: 'string' }, minItems: 2 },
        mixed: { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'number' }] } },
      },
      required: ['home'],
    });
    expect(JSON.stringify(schema)).toBe(before);
    // Definitions that use each other many times over are inlined up to the walker's limit, then named.
    const doubling = JSON.stringify(toGeminiSchema(doublingSchema(40)));
    expect(doubling).toMatch(/\(see #\/\$defs\/L\d+\)/);
    expect(doubling).not.toContain('$ref');
    // A reference to the root is recursive too; one that leads outside the schema is named.
    expect(
      toGeminiSchema({ type: 'object', properties: { parent: { $ref: '#', description: 'The parent.' }, far: { $ref: 'other.json' } } }),
    ).toEqual({
      type: 'object',
      properties: {
        parent: { type: 'object', description: 'The parent. (a nested value of the same shape as its parent)' },
        far: { type: 'object', description: '(see other.json)' },
      },
    });
  });

  it('never drops a rule in silence: bounds Gemini can hold stay bounds, the rest goes into the description', () => {
    const registry = new ToolRegistry().register(
      defineTool({
        name: 'plan',
        description: 'Plan a trip.',
        input: v.object({
          version: v.literal(3),
          ratio: v.pipe(v.number(), v.gtValue(0), v.ltValue(1), v.description('Share of the budget.')),
          seats: v.pipe(v.number(), v.integer(), v.gtValue(0), v.ltValue(10), v.multipleOf(2)),
        }),
        run: () => 'ok',
      }),
    );
    const [declaration] = gemini.tools(registry)[0].functionDeclarations;
    expect(declaration!.parameters).toEqual({
      type: 'object',
      properties: {
        // An integer const stays an integer, pinned by its bounds.
        version: { type: 'integer', minimum: 3, maximum: 3, description: '(must be 3)' },
        ratio: { type: 'number', description: 'Share of the budget. (greater than 0) (less than 1)' },
        // Exclusive integer bounds become inclusive ones; a step Gemini cannot hold is said in words.
        seats: { type: 'integer', minimum: 1, maximum: 9, description: '(a multiple of 2)' },
      },
      required: ['version', 'ratio', 'seats'],
    });

    expect(
      toGeminiSchema({
        type: 'object',
        properties: {
          tags: { type: 'array', items: { type: 'string' }, uniqueItems: true },
          level: { const: 2.5 },
          code: { type: 'string', not: { const: 'root' } },
          keys: { type: 'object', additionalProperties: true, propertyNames: { pattern: '^[a-z]+$' } },
          capped: { type: 'integer', minimum: 5, exclusiveMinimum: 0 },
        },
      }),
    ).toEqual({
      type: 'object',
      properties: {
        tags: { type: 'array', items: { type: 'string' }, description: '(no two items the same)' },
        level: { type: 'number', minimum: 2.5, maximum: 2.5, description: '(must be 2.5)' },
        code: { type: 'string', description: '(not: {"const":"root"})' },
        keys: { type: 'object', description: '(keys: {"pattern":"^[a-z]+$"}) (an object with keys of your choosing)' },
        capped: { type: 'integer', minimum: 5, description: '(greater than 0)' },
      },
    });
  });

  it('declares tools as [{functionDeclarations}], leaving out parameters for a tool without input', () => {
    const { registry } = makeRegistry();
    const [tools] = gemini.tools(registry);
    expect(tools!.functionDeclarations.map((declaration) => declaration.name)).toEqual(['get_weather', 'search', 'delete_file', 'ping']);
    expect(tools!.functionDeclarations[0]).toEqual({
      name: 'get_weather',
      description: 'Current weather for a city.',
      parameters: {
        type: 'object',
        properties: {
          location: { type: 'string', description: 'City and country, e.g. Paris, France' },
          unit: { enum: ['celsius', 'fahrenheit'], type: 'string', default: 'celsius' },
        },
        required: ['location'],
      },
    });
    expect(tools!.functionDeclarations[3]).toEqual({ name: 'ping', description: 'Answer pong.' });
  });
});

describe('Gemini calls and responses', () => {
  it('reads functionCall parts, ids made up where the model sent none and never sent back', async () => {
    const { registry, received } = makeRegistry();
    const calls = gemini.parseCalls(response);
    expect(calls.map((call) => call.name)).toEqual(['get_weather', 'search', 'ping']);
    expect(calls[0]!.callId.startsWith(LOCAL_CALL_ID_PREFIX)).toBe(true);
    expect(calls[0]!.callId).not.toBe(calls[2]!.callId);
    expect(calls[1]!.callId).toBe('fc-7');

    const outcomes = await dispatchCalls(registry, calls, { approve: 'allow-all' });
    expect(outcomes.map((outcome) => outcome.callId)).toEqual(calls.map((call) => call.callId));
    const content = gemini.results(outcomes);
    expect(content).toEqual({
      role: 'user',
      parts: [
        {
          functionResponse: {
            name: 'get_weather',
            response: { output: { location: 'Lisbon, Portugal', unit: 'celsius', temperature: 21 } },
          },
        },
        {
          functionResponse: {
            id: 'fc-7',
            name: 'search',
            response: { error: { code: 'invalid_input', message: 'Invalid input for search.limit: expected number, received string' } },
          },
        },
        { functionResponse: { name: 'ping', response: { output: 'pong' } } },
      ],
    });
    expect(received.map((call) => call.name)).toEqual(['get_weather', 'ping']);
  });

  it('accepts the content or the parts as well as the response, and finds nothing in a text reply', () => {
    expect(gemini.parseCalls(response.candidates[0]!.content)).toHaveLength(3);
    expect(gemini.parseCalls(response.candidates[0]!.content.parts)).toHaveLength(3);
    expect(gemini.parseCalls({ candidates: [{ content: { parts: [{ text: 'done' }] } }] })).toEqual([]);
    expect(gemini.parseCalls({})).toEqual([]);
  });

  it('sends an output over the cap as cut text with the note', () => {
    const outcome = { ok: true as const, callId: 'x', name: 'big', input: {}, durationMs: 1, output: { rows: 'y'.repeat(600) } };
    const [part] = gemini.results([outcome], { maxChars: 300 }).parts;
    const output = (part!.functionResponse.response as { output: string }).output;
    expect(output.length).toBeLessThanOrEqual(300);
    expect(output).toMatch(/^\{"rows":"y+\n\[Truncated: showing the first \d+ of 611 characters/);
  });
});
