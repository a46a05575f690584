import type { JsonSchema } from '@toolshed/core';

/** Definitions that each use the next one twice: inlined in full, 40 levels are 2^40 copies. */
export function doublingSchema(levels: number): JsonSchema {
  const $defs: Record<string, JsonSchema> = { [`L${levels}`]: { type: 'string' } };
  for (let level = levels - 1; level >= 0; level -= 1) {
    const next = { $ref: `#/$defs/L${level + 1}` };
    $defs[`L${level}`] = { type: 'object', properties: { a: next, b: next }, required: ['a', 'b'] };
  }
  return { type: 'object', properties: { root: { $ref: '#/$defs/L0' } }, required: ['root'], $defs };
}
