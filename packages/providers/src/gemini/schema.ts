import type { JsonSchema } from '@toolshed/core';
import { isRecord } from '@toolshed/core/contract';
import { rewriteSchema, type SchemaRewriter } from '../json-schema/walk.js';

/**
 * The OpenAPI 3.0 subset Gemini accepts for function parameters. Anything
 * else is dropped (after inlining `$ref`s and folding `null` into `nullable`);
 * the tool's own validation still checks every call.
 */
const KEPT = new Set([
  'type',
  'format',
  'title',
  'description',
  'nullable',
  'enum',
  'maxItems',
  'minItems',
  'properties',
  'required',
  'minProperties',
  'maxProperties',
  'minLength',
  'maxLength',
  'pattern',
  'example',
  'anyOf',
  'propertyOrdering',
  'default',
  'items',
  'minimum',
  'maximum',
]);
/**
 * Keys that are dropped without a word: they hold no rule for a value
 * (identifiers, comments, annotations) or are rewritten above.
 */
const SILENT = new Set([
  '$schema',
  '$id',
  '$anchor',
  '$comment',
  '$defs',
  'definitions',
  '$ref',
  'allOf',
  'oneOf',
  'const',
  'examples',
  'additionalProperties',
  'readOnly',
  'writeOnly',
  'deprecated',
  'contentEncoding',
  'contentMediaType',
]);
/** How a dropped rule is said in the field's description. */
function droppedRule(key: string, value: unknown): string | undefined {
  switch (key) {
    case 'exclusiveMinimum':
      return typeof value === 'number' ? `greater than ${value}` : undefined;
    case 'exclusiveMaximum':
      return typeof value === 'number' ? `less than ${value}` : undefined;
    case 'multipleOf':
      return `a multiple of ${JSON.stringify(value)}`;
    case 'uniqueItems':
      return value === true ? 'no two items the same' : undefined;
    case 'propertyNames':
      // Keys are always strings: only a rule beyond that is worth saying.
      return JSON.stringify(value) === '{"type":"string"}' ? undefined : `keys: ${JSON.stringify(value)}`;
    default:
      return `${key}: ${JSON.stringify(value)}`;
  }
}
const FORMATS: Record<string, string[]> = {
  string: ['enum', 'date-time'],
  number: ['float', 'double'],
  integer: ['int32', 'int64'],
};

function note(schema: JsonSchema, text: string): void {
  schema.description =
    typeof schema.description === 'string' && schema.description !== '' ? `${schema.description} (${text})` : `(${text})`;
}

/** Gemini has no tuples: the items may be any of the tuple's types. */
function tupleItems(items: JsonSchema[]): JsonSchema {
  const distinct = items.filter((item, index) => items.findIndex((other) => JSON.stringify(other) === JSON.stringify(item)) === index);
  return distinct.length === 1 ? distinct[0]! : { anyOf: distinct };
}

function isNullSchema(schema: unknown): boolean {
  return isRecord(schema) && schema.type === 'null';
}

/** Merge the parts of an `allOf` into one schema: Gemini has no allOf. */
function mergeAllOf(node: JsonSchema): JsonSchema {
  const { allOf, ...rest } = node;
  const merged = (allOf as unknown[]).filter(isRecord).reduce<JsonSchema>((merged, part) => {
    const properties = { ...(isRecord(merged.properties) ? merged.properties : {}), ...(isRecord(part.properties) ? part.properties : {}) };
    const required = [...(Array.isArray(merged.required) ? merged.required : []), ...(Array.isArray(part.required) ? part.required : [])];
    // biome-ignore lint/performance/noAccumulatingSpread: an allOf has a handful of parts; clarity over a mutable merge
    return { ...part, ...merged, properties, required };
  }, rest);
  if (Object.keys(merged.properties as object).length === 0) delete merged.properties;
  if ((merged.required as unknown[]).length === 0) delete merged.required;
  return merged;
}

const geminiRewriter: SchemaRewriter<JsonSchema> = {
  other: () => ({}),
  ref(ref, why, siblings) {
    // Gemini has no references and no recursion: describe the rest in words.
    const out: JsonSchema = { type: 'object' };
    if (typeof siblings.description === 'string') out.description = siblings.description;
    // Past the inlining limit the shape is still in the schema, only not spelled out here.
    note(out, why === 'recursive' ? 'a nested value of the same shape as its parent' : `see ${ref}`);
    return out;
  },
  schema(visit) {
    // The merged parts are walked as one schema, so that a $ref they bring is followed.
    if (Array.isArray(visit.schema.allOf)) return visit.walk(mergeAllOf(visit.schema));
    const node = visit.schema;

    const out: JsonSchema = {};
    let nullable = node.nullable === true;
    let types: string[] = Array.isArray(node.type)
      ? node.type.filter((t): t is string => typeof t === 'string')
      : typeof node.type === 'string'
        ? [node.type]
        : [];
    if (types.includes('null')) {
      nullable = true;
      types = types.filter((type) => type !== 'null');
    }
    if (types.length === 1) out.type = types[0];
    else if (types.length > 1) out.anyOf = types.map((type) => ({ type }));

    const branches = [
      ...(Array.isArray(node.anyOf) ? node.anyOf.map((branch, index) => [branch, { keyword: 'anyOf', index }] as const) : []),
      ...(Array.isArray(node.oneOf) ? node.oneOf.map((branch, index) => [branch, { keyword: 'oneOf', index }] as const) : []),
    ];
    if (branches.length > 0) {
      if (branches.some(([branch]) => isNullSchema(branch))) nullable = true;
      const rest = branches.filter(([branch]) => !isNullSchema(branch)).map(([branch, step]) => visit.walk(branch, step));
      if (rest.length === 1) Object.assign(out, rest[0], out.type ? { type: out.type } : {});
      else if (rest.length > 1) out.anyOf = rest;
    }

    const dropped: string[] = [];
    for (const [key, value] of Object.entries(node)) {
      if (!KEPT.has(key)) {
        const rule = SILENT.has(key) ? undefined : droppedRule(key, value);
        if (rule !== undefined) dropped.push(rule);
        continue;
      }
      if (key === 'type' || key === 'anyOf' || key === 'nullable') continue;
      if (key === 'properties' && isRecord(value)) {
        out.properties = Object.fromEntries(
          Object.entries(value).map(([name, child]) => [name, visit.walk(child, { keyword: 'properties', key: name })]),
        );
      } else if (key === 'items') {
        out.items = Array.isArray(value)
          ? tupleItems(value.map((item, index) => visit.walk(item, { keyword: 'items', index })))
          : visit.walk(value, { keyword: 'items' });
      } else if (key === 'required') {
        if (Array.isArray(value) && value.length > 0) out.required = value;
      } else {
        out[key] = value;
      }
    }
    // A bound Gemini can hold exactly stays a bound; the rest is said in words.
    const held = new Set<string>();
    if (out.type === 'integer') {
      if (typeof node.exclusiveMinimum === 'number' && out.minimum === undefined) {
        out.minimum = Math.floor(node.exclusiveMinimum) + 1;
        held.add(`greater than ${node.exclusiveMinimum}`);
      }
      if (typeof node.exclusiveMaximum === 'number' && out.maximum === undefined) {
        out.maximum = Math.ceil(node.exclusiveMaximum) - 1;
        held.add(`less than ${node.exclusiveMaximum}`);
      }
    }
    for (const rule of dropped) if (!held.has(rule)) note(out, rule);
    if ('const' in node) {
      const value = node.const;
      if (typeof value === 'string') out.enum = [value];
      else note(out, `must be ${JSON.stringify(value)}`);
      if (typeof value === 'number') {
        out.type ??= Number.isInteger(value) ? 'integer' : 'number';
        out.minimum = value;
        out.maximum = value;
      }
      out.type ??= typeof value === 'boolean' ? 'boolean' : 'string';
    }
    if (Array.isArray(out.enum) && !out.enum.every((value) => typeof value === 'string')) {
      // Gemini enums are strings only.
      note(out, `one of ${out.enum.map((value) => JSON.stringify(value)).join(', ')}`);
      if (out.type === undefined && out.enum.every((value) => typeof value === 'number')) {
        out.type = out.enum.every((value) => Number.isInteger(value)) ? 'integer' : 'number';
      }
      delete out.enum;
    }
    if (typeof out.format === 'string' && !(FORMATS[String(out.type)] ?? []).includes(out.format)) {
      note(out, `format: ${out.format}`);
      delete out.format;
    }
    if (
      out.type === 'object' &&
      out.properties === undefined &&
      node.additionalProperties !== undefined &&
      node.additionalProperties !== false
    ) {
      note(out, 'an object with keys of your choosing');
    }
    if (Array.isArray(node.examples) && node.examples.length > 0 && out.example === undefined) out.example = node.examples[0];
    if (nullable) out.nullable = true;
    return out;
  },
};

/** Convert a JSON Schema to the OpenAPI 3.0 subset Gemini's function declarations accept. Pure. */
export function toGeminiSchema(schema: JsonSchema): JsonSchema {
  return rewriteSchema(schema, geminiRewriter);
}
