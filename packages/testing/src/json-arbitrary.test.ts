import { describeTool } from '@toolshed/core';
import * as fc from 'fast-check';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { invalidArbitrary } from './json-arbitrary.js';

// Schemas as plugin authors write them; for each, every input the kit calls
// invalid must be one valibot rejects too, or the kit would cry wolf.
const SCHEMAS = {
  flat: v.object({ text: v.string(), count: v.number(), flag: v.optional(v.boolean()) }),
  nested: v.object({
    query: v.strictObject({
      term: v.pipe(v.string(), v.maxLength(5)),
      limit: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(50)),
    }),
    tags: v.array(v.string()),
  }),
  choices: v.object({ mode: v.picklist(['fast', 'slow']), either: v.union([v.string(), v.number()]), maybe: v.nullable(v.string()) }),
  closed: v.strictObject({ path: v.string() }),
};

describe('invalidArbitrary', () => {
  for (const [label, schema] of Object.entries(SCHEMAS)) {
    it(`only generates inputs valibot rejects (${label})`, () => {
      const jsonSchema = describeTool({ name: 't', description: 'd', input: schema, run: () => null }).inputSchema;
      fc.assert(
        fc.property(invalidArbitrary(fc, jsonSchema, []), ({ input }) => !v.safeParse(schema, input).success),
        { numRuns: 300 },
      );
    });
  }

  it('covers missing keys, wrong types, extra nesting, enums, bounds and unknown keys', () => {
    const schema = SCHEMAS.nested;
    const jsonSchema = describeTool({
      name: 't',
      description: 'd',
      input: v.object({ ...schema.entries, mode: v.picklist(['a', 'b']) }),
      run: () => null,
    }).inputSchema;
    const reasons = fc
      .sample(invalidArbitrary(fc, jsonSchema, [{ query: { term: 'x', limit: 2 }, tags: [], mode: 'a' }]), { numRuns: 2000, seed: 1 })
      .map((item) => item.reason);
    const seen = (pattern: RegExp) => reasons.some((reason) => pattern.test(reason));
    expect(seen(/^the input is (string|integer|boolean|null|array), not an object$/)).toBe(true);
    expect(seen(/^the required field "(query|tags|mode)" is missing$/)).toBe(true);
    expect(seen(/^field "query.limit" is (string|number|boolean|null|array|object), but the schema accepts integer$/)).toBe(true);
    expect(seen(/^field "tags" is wrapped in an extra object$/)).toBe(true);
    expect(seen(/^field "mode" is ".*", not one of \["a","b"\]$/)).toBe(true);
    expect(seen(/^field "query.limit" is below its minimum 1$/)).toBe(true);
    expect(seen(/^field "query.limit" is above its maximum 50$/)).toBe(true);
    expect(seen(/^field "query.term" is longer than its maxLength 5$/)).toBe(true);
  });

  it('adds unknown keys only where the schema closes the object', () => {
    const closed = describeTool({ name: 't', description: 'd', input: SCHEMAS.closed, run: () => null }).inputSchema;
    const open = describeTool({ name: 't', description: 'd', input: v.object({ path: v.string() }), run: () => null }).inputSchema;
    const reasons = (schema: typeof open) =>
      fc.sample(invalidArbitrary(fc, schema, [{ path: 'a' }]), { numRuns: 500, seed: 2 }).map((item) => item.reason);
    expect(reasons(closed).some((reason) => reason.startsWith('the input has the unknown field'))).toBe(true);
    expect(reasons(open).some((reason) => reason.startsWith('the input has the unknown field'))).toBe(false);
  });
});
