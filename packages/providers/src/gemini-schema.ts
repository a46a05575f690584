import type { JsonSchema } from '@toolshed/core';

/**
 * The OpenAPI 3.0 subset Gemini accepts for function parameters. Anything
 * else is dropped (after inlining `$ref`s and folding `null` into `nullable`);
 * the tool's own validation still checks every call.
 */
const KEPT = new Set([
  'type', 'format', 'title', 'description', 'nullable', 'enum', 'maxItems', 'minItems', 'properties', 'required',
  'minProperties', 'maxProperties', 'minLength', 'maxLength', 'pattern', 'example', 'anyOf', 'propertyOrdering',
  'default', 'items', 'minimum', 'maximum',
]);
/**
 * Keys that are dropped without a word: they hold no rule for a value
 * (identifiers, comments, annotations) or are rewritten above.
 */
const SILENT = new Set([
  '$schema', '$id', '$anchor', '$comment', '$defs', 'definitions', '$ref', 'allOf', 'oneOf', 'const', 'examples',
  'additionalProperties', 'readOnly', 'writeOnly', 'deprecated', 'contentEncoding', 'contentMediaType',
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

const isObject = (value: unknown): value is JsonSchema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

interface Context {
  root: JsonSchema;
  refs: string[];
}

function note(schema: JsonSchema, text: string): void {
  schema.description = typeof schema.description === 'string' && schema.description !== '' ? `${schema.description} (${text})` : `(${text})`;
}

function resolveRef(ref: string, ctx: Context): JsonSchema | undefined {
  const match = /^#\/(\$defs|definitions)\/([^/]+)$/.exec(ref);
  const defs = match ? ctx.root[match[1]!] : undefined;
  const target = isObject(defs) ? defs[decodeURIComponent(match![2]!)] : undefined;
  return isObject(target) ? target : undefined;
}

/** Gemini has no tuples: the items may be any of the tuple's types. */
function tupleItems(items: JsonSchema[]): JsonSchema {
  const distinct = items.filter((item, index) => items.findIndex((other) => JSON.stringify(other) === JSON.stringify(item)) === index);
  return distinct.length === 1 ? distinct[0]! : { anyOf: distinct };
}

function isNullSchema(schema: unknown): boolean {
  return isObject(schema) && schema.type === 'null';
}

function convert(input: unknown, ctx: Context): JsonSchema {
  if (!isObject(input)) return {};
  let node = input;
  if (typeof node.$ref === 'string') {
    const ref = node.$ref;
    const target = resolveRef(ref, ctx);
    const { $ref: _ref, ...siblings } = node;
    if (!target || ctx.refs.includes(ref)) {
      // Gemini has no references and no recursion: describe the rest in words.
      const out: JsonSchema = { type: 'object' };
      if (typeof siblings.description === 'string') out.description = siblings.description;
      note(out, target ? 'a nested value of the same shape as its parent' : `see ${ref}`);
      return out;
    }
    ctx.refs.push(ref);
    const out = convert({ ...target, ...siblings }, ctx);
    ctx.refs.pop();
    return out;
  }
  if (Array.isArray(node.allOf)) {
    // Merge the parts: Gemini has no allOf.
    const { allOf, ...rest } = node;
    node = (allOf as unknown[]).filter(isObject).reduce<JsonSchema>((merged, part) => {
      const properties = { ...(isObject(merged.properties) ? merged.properties : {}), ...(isObject(part.properties) ? part.properties : {}) };
      const required = [...(Array.isArray(merged.required) ? merged.required : []), ...(Array.isArray(part.required) ? part.required : [])];
      return { ...part, ...merged, properties, required };
    }, rest);
    if (Object.keys(node.properties as object).length === 0) delete node.properties;
    if ((node.required as unknown[]).length === 0) delete node.required;
  }

  const out: JsonSchema = {};
  let nullable = node.nullable === true;
  let types: string[] = Array.isArray(node.type) ? node.type.filter((t): t is string => typeof t === 'string') : typeof node.type === 'string' ? [node.type] : [];
  if (types.includes('null')) {
    nullable = true;
    types = types.filter((type) => type !== 'null');
  }
  if (types.length === 1) out.type = types[0];
  else if (types.length > 1) out.anyOf = types.map((type) => ({ type }));

  const branches = [...(Array.isArray(node.anyOf) ? node.anyOf : []), ...(Array.isArray(node.oneOf) ? node.oneOf : [])];
  if (branches.length > 0) {
    if (branches.some(isNullSchema)) nullable = true;
    const rest = branches.filter((branch) => !isNullSchema(branch)).map((branch) => convert(branch, ctx));
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
    if (key === 'properties' && isObject(value)) {
      out.properties = Object.fromEntries(Object.entries(value).map(([name, child]) => [name, convert(child, ctx)]));
    } else if (key === 'items') {
      out.items = Array.isArray(value) ? tupleItems(value.map((item) => convert(item, ctx))) : convert(value, ctx);
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
  if (out.type === 'object' && out.properties === undefined && node.additionalProperties !== undefined && node.additionalProperties !== false) {
    note(out, 'an object with keys of your choosing');
  }
  if (Array.isArray(node.examples) && node.examples.length > 0 && out.example === undefined) out.example = node.examples[0];
  if (nullable) out.nullable = true;
  return out;
}

/** Convert a JSON Schema to the OpenAPI 3.0 subset Gemini's function declarations accept. Pure. */
export function toGeminiSchema(schema: JsonSchema): JsonSchema {
  return convert(schema, { root: schema, refs: [] });
}
