import { isRecord, type JsonSchema } from '@toolshed/core';
import type * as FastCheck from 'fast-check';

type Fc = typeof FastCheck;
type Arbitrary<T> = FastCheck.Arbitrary<T>;

/** A JSON value's type as JSON Schema names it; `number` here means a non-integer. */
type Kind = 'string' | 'number' | 'integer' | 'boolean' | 'null' | 'array' | 'object';
const KINDS: readonly Kind[] = ['string', 'number', 'integer', 'boolean', 'null', 'array', 'object'];

/** An input the schema rejects, and why, in the words of the field. */
export interface InvalidInput {
  input: unknown;
  reason: string;
}

const MAX_DEPTH = 4;

function kindOf(value: unknown): Kind {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  if (typeof value === 'object') return 'object';
  return typeof value as Kind;
}

function deref(schema: JsonSchema, root: JsonSchema): JsonSchema {
  let node = schema;
  for (let hops = 0; typeof node.$ref === 'string' && hops < 10; hops += 1) {
    const match = /^#\/(\$defs|definitions)\/([^/]+)$/.exec(node.$ref);
    const defs = match ? root[match[1]!] : undefined;
    const target = isRecord(defs) ? defs[decodeURIComponent(match![2]!)] : undefined;
    if (!isRecord(target)) return {};
    const { $ref: _ref, ...siblings } = node;
    node = { ...target, ...siblings };
  }
  return node;
}

/**
 * The kinds of value a schema accepts, or undefined when it cannot tell
 * (no type, `not`, conditionals): then no value is known to be wrong.
 */
export function acceptedKinds(input: JsonSchema, root: JsonSchema): Set<Kind> | undefined {
  const schema = deref(input, root);
  let kinds: Set<Kind> | undefined;
  const narrow = (next: Set<Kind>) => {
    kinds = kinds ? new Set([...kinds].filter((kind) => next.has(kind))) : next;
  };
  if (schema.const !== undefined) narrow(new Set([kindOf(schema.const)]));
  if (Array.isArray(schema.enum)) narrow(new Set(schema.enum.map(kindOf)));
  if (schema.type !== undefined) {
    const types = (Array.isArray(schema.type) ? schema.type : [schema.type]) as Kind[];
    // A number schema accepts integers too.
    narrow(new Set(types.flatMap((type) => (type === 'number' ? ['number', 'integer'] : [type])) as Kind[]));
  }
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = schema[key];
    if (!Array.isArray(branches)) continue;
    const union = new Set<Kind>();
    for (const branch of branches) {
      const branchKinds = isRecord(branch) ? acceptedKinds(branch, root) : undefined;
      if (!branchKinds) return kinds;
      for (const kind of branchKinds) union.add(kind);
    }
    narrow(union);
  }
  if (Array.isArray(schema.allOf)) {
    for (const branch of schema.allOf) {
      const branchKinds = isRecord(branch) ? acceptedKinds(branch, root) : undefined;
      if (branchKinds) narrow(branchKinds);
    }
  }
  return kinds;
}

/** Best-effort values the schema accepts: bases for mutations when an author gave no samples. */
export function validArbitrary(fc: Fc, input: JsonSchema, root: JsonSchema, depth = 0): Arbitrary<unknown> {
  const schema = deref(input, root);
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return fc.constantFrom(...(schema.enum as unknown[]));
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = schema[key];
    if (Array.isArray(branches) && branches.length > 0) {
      return fc.oneof(...branches.filter(isRecord).map((branch) => validArbitrary(fc, branch, root, depth + 1)));
    }
  }
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : typeof schema.type === 'string' ? [schema.type] : [];
  if (types.length > 1) return fc.oneof(...types.map((type) => validArbitrary(fc, { ...schema, type }, root, depth)));
  const num = (key: string) => (typeof schema[key] === 'number' ? (schema[key] as number) : undefined);
  switch (types[0]) {
    case 'string': {
      if (typeof schema.pattern === 'string') {
        try {
          return fc.stringMatching(new RegExp(schema.pattern));
        } catch {
          // A pattern JavaScript cannot read: fall through to plain strings.
        }
      }
      if (schema.format === 'email') return fc.emailAddress();
      if (schema.format === 'uri') return fc.webUrl();
      if (schema.format === 'date-time') return fc.date({ noInvalidDate: true }).map((date) => date.toISOString());
      const minLength = num('minLength') ?? 0;
      return fc.string({ minLength, maxLength: num('maxLength') ?? Math.max(minLength, 12) });
    }
    case 'integer':
      return fc.integer({ min: num('minimum') ?? -1000, max: num('maximum') ?? 1000 });
    case 'number':
      return fc.double({ min: num('minimum') ?? -1000, max: num('maximum') ?? 1000, noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const items = isRecord(schema.items) && depth < MAX_DEPTH ? validArbitrary(fc, schema.items, root, depth + 1) : fc.constant(null);
      const minLength = num('minItems') ?? 0;
      return fc.array(items, { minLength, maxLength: Math.min(num('maxItems') ?? 3, minLength + 3) });
    }
    case 'object': {
      const properties = isRecord(schema.properties) ? schema.properties : {};
      const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
      if (depth >= MAX_DEPTH) return fc.constant({});
      const model: Record<string, Arbitrary<unknown>> = {};
      for (const [key, value] of Object.entries(properties)) {
        if (isRecord(value)) model[key] = validArbitrary(fc, value, root, depth + 1);
      }
      return fc.record(model, { requiredKeys: required.filter((key) => key in model) });
    }
    default:
      return fc.jsonValue({ maxDepth: 1 });
  }
}

function wrongValue(fc: Fc, kind: Kind): Arbitrary<unknown> {
  switch (kind) {
    case 'string':
      return fc.string({ maxLength: 8 });
    case 'integer':
      return fc.integer({ min: -1000, max: 1000 });
    case 'number':
      return fc.integer({ min: -1000, max: 1000 }).map((n) => n + 0.5);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(fc.string({ maxLength: 4 }), { maxLength: 2 });
    case 'object':
      return fc.dictionary(fc.string({ minLength: 1, maxLength: 4 }), fc.integer(), { maxKeys: 2 });
  }
}

/** A place in the input where a value of a known wrong kind can go. */
interface Slot {
  path: string[];
  schema: JsonSchema;
  kinds: Set<Kind>;
}

function slots(schema: JsonSchema, root: JsonSchema, path: string[], out: Slot[]): Slot[] {
  const node = deref(schema, root);
  if (path.length >= MAX_DEPTH || !isRecord(node.properties)) return out;
  for (const [key, value] of Object.entries(node.properties)) {
    if (!isRecord(value)) continue;
    const kinds = acceptedKinds(value, root);
    const at = [...path, key];
    if (kinds) out.push({ path: at, schema: deref(value, root), kinds });
    slots(value, root, at, out);
  }
  return out;
}

function withValue(base: unknown, path: readonly string[], value: unknown): unknown {
  const copy: Record<string, unknown> = isRecord(base) ? { ...base } : {};
  const [head, ...rest] = path;
  copy[head!] = rest.length === 0 ? value : withValue(copy[head!], rest, value);
  return copy;
}

const show = (path: readonly string[]) => path.join('.');

/**
 * Inputs the input schema's JSON Schema rejects, built from valid-looking
 * bases (the author's samples, or generated values): the root is not an
 * object, a required key is missing, a field has the wrong type or is wrapped
 * in an extra array or object, an enum or bound is broken, or a closed
 * object gets a key it does not list.
 */
export function invalidArbitrary(fc: Fc, schema: JsonSchema, samples: readonly unknown[]): Arbitrary<InvalidInput> {
  const base: Arbitrary<unknown> = samples.length > 0 ? fc.constantFrom(...samples.filter(isRecord)) : validArbitrary(fc, schema, schema);
  const options: Arbitrary<InvalidInput>[] = [
    fc
      .oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.integer(), { maxLength: 3 }))
      .map((input) => ({ input, reason: `the input is ${kindOf(input)}, not an object` })),
  ];
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  if (required.length > 0) {
    options.push(
      fc.tuple(base, fc.constantFrom(...required)).map(([value, key]) => {
        const input: Record<string, unknown> = isRecord(value) ? { ...value } : {};
        delete input[key];
        return { input, reason: `the required field "${key}" is missing` };
      }),
    );
  }
  for (const slot of slots(schema, schema, [], [])) {
    // valibot's object and record schemas take an array as an object with
    // no keys; that looseness is valibot's, not the author's, so it is not probed.
    const objectLike = slot.kinds.has('object');
    const wrong = KINDS.filter((kind) => !slot.kinds.has(kind) && !(objectLike && kind === 'array'));
    if (wrong.length > 0) {
      options.push(
        fc
          .constantFrom(...wrong)
          .chain((kind) => fc.tuple(base, wrongValue(fc, kind), fc.constant(kind)))
          .map(([value, bad, kind]) => ({
            input: withValue(value, slot.path, bad),
            reason: `field "${show(slot.path)}" is ${kind}, but the schema accepts ${[...slot.kinds].join(' or ')}`,
          })),
      );
    }
    // Extra nesting: the right value, wrapped once more than the schema says.
    for (const wrap of ['array', 'object'] as const) {
      if (slot.kinds.has(wrap) || (objectLike && wrap === 'array')) continue;
      options.push(
        fc.tuple(base, validArbitrary(fc, slot.schema, schema, MAX_DEPTH - 1)).map(([value, inner]) => ({
          input: withValue(value, slot.path, wrap === 'array' ? [inner] : { value: inner }),
          reason: `field "${show(slot.path)}" is wrapped in an extra ${wrap}`,
        })),
      );
    }
    if (Array.isArray(slot.schema.enum) && slot.kinds.size === 1 && slot.kinds.has('string')) {
      const allowed = slot.schema.enum as string[];
      options.push(
        fc
          .tuple(
            base,
            fc.string({ minLength: 1, maxLength: 8 }).filter((text) => !allowed.includes(text)),
          )
          .map(([value, bad]) => ({
            input: withValue(value, slot.path, bad),
            reason: `field "${show(slot.path)}" is ${JSON.stringify(bad)}, not one of ${JSON.stringify(allowed)}`,
          })),
      );
    }
    const { minimum, maximum, maxLength } = slot.schema;
    if (typeof minimum === 'number' && !slot.kinds.has('string')) {
      options.push(
        fc.tuple(base, fc.integer({ min: 1, max: 1000 })).map(([value, below]) => ({
          input: withValue(value, slot.path, Math.floor(minimum) - below),
          reason: `field "${show(slot.path)}" is below its minimum ${minimum}`,
        })),
      );
    }
    if (typeof maximum === 'number' && !slot.kinds.has('string')) {
      options.push(
        fc.tuple(base, fc.integer({ min: 1, max: 1000 })).map(([value, above]) => ({
          input: withValue(value, slot.path, Math.ceil(maximum) + above),
          reason: `field "${show(slot.path)}" is above its maximum ${maximum}`,
        })),
      );
    }
    if (typeof maxLength === 'number' && slot.kinds.size === 1 && slot.kinds.has('string') && maxLength < 10_000) {
      options.push(
        base.map((value) => ({
          input: withValue(value, slot.path, 'x'.repeat(maxLength + 1)),
          reason: `field "${show(slot.path)}" is longer than its maxLength ${maxLength}`,
        })),
      );
    }
  }
  if (schema.additionalProperties === false) {
    const known = new Set(Object.keys(isRecord(schema.properties) ? schema.properties : {}));
    options.push(
      fc
        .tuple(
          base,
          fc.string({ minLength: 1, maxLength: 8 }).filter((key) => !known.has(key) && key !== '__proto__'),
        )
        .map(([value, key]) => ({
          input: withValue(value, [key], 1),
          reason: `the input has the unknown field "${key}", and the schema allows no other fields`,
        })),
    );
  }
  return fc.oneof(...options);
}
