import type { JsonSchema } from '@toolshed/core';
import { isRecord } from '@toolshed/core/contract';
import { MAX_INLINED_REFS, rewriteSchema, type RefRefusal, type SchemaRewriter, type SchemaStep } from '../json-schema/walk.js';

/** Why (part of) a schema cannot be sent with OpenAI `strict: true`. */
export interface StrictProblem {
  /** The field, written from the root of the input: `filters.tags[]`, or `(input)` for the root. */
  at: string;
  reason: string;
}

/**
 * Which keys the strict rewrite turned from optional into required-but-nullable,
 * so that the model's `null` for them can be turned back into a missing key.
 */
export interface NullPlan {
  /** Keys that were optional: `null` there means the model left the key out. */
  omit?: string[];
  properties?: { [key: string]: NullPlan };
  items?: NullPlan;
  /** One plan per branch of the original `anyOf`. */
  anyOf?: NullPlan[];
  /** For an object: its keys, to tell which `anyOf` branch a value took. */
  keys?: string[];
}

export type StrictRewrite = { ok: true; schema: JsonSchema; nulls: NullPlan } | { ok: false; problems: StrictProblem[] };

// OpenAI's documented limits for strict schemas.
const MAX_OBJECT_DEPTH = 10;
const MAX_PROPERTIES = 5000;
const MAX_ENUM_VALUES = 1000;
const STRICT_FORMATS = new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid']);

/** Constraints strict mode rejects but the tool's own validation still enforces: kept as words for the model. */
const HINTED = ['default', 'minLength', 'maxLength', 'uniqueItems', 'minProperties', 'maxProperties', 'minContains', 'maxContains'];
/** Annotations with no effect on what the model may send. */
const DROPPED = [
  '$schema',
  '$id',
  '$comment',
  'examples',
  'readOnly',
  'writeOnly',
  'deprecated',
  'contentEncoding',
  'contentMediaType',
  'nullable',
];
const UNSUPPORTED: Record<string, string> = {
  not: '"not" cannot be expressed in strict mode',
  if: 'conditional schemas (if/then/else) cannot be expressed in strict mode',
  then: 'conditional schemas (if/then/else) cannot be expressed in strict mode',
  else: 'conditional schemas (if/then/else) cannot be expressed in strict mode',
  dependentRequired: '"dependentRequired" cannot be expressed in strict mode',
  dependentSchemas: '"dependentSchemas" cannot be expressed in strict mode',
  patternProperties: 'it is a record with open-ended keys (patternProperties); strict mode needs every key listed',
  unevaluatedProperties: '"unevaluatedProperties" cannot be expressed in strict mode',
  unevaluatedItems: '"unevaluatedItems" cannot be expressed in strict mode',
  prefixItems: 'it is a tuple (prefixItems); strict mode only has arrays of one item type',
  contains: '"contains" cannot be expressed in strict mode',
};

const REF_PROBLEMS: Record<RefRefusal, (ref: string) => string> = {
  recursive: (ref) => `it is recursive ($ref "${ref}"); the strict rewrite only handles schemas it can inline`,
  unresolved: (ref) => `its $ref "${ref}" does not point to a schema inside this one`,
  limit: (ref) =>
    `its $ref "${ref}" is past the ${MAX_INLINED_REFS} the strict rewrite inlines (definitions that use each other many times over); write the schema with fewer references`,
};

interface Rewritten {
  schema: JsonSchema;
  plan: NullPlan;
}

/** The field a path reaches, written from the root of the input: `filters.tags[]`, or `(input)` for the root. */
function fieldPath(path: readonly SchemaStep[]): string {
  let out = '';
  for (const step of path) {
    if (step.keyword === 'properties' && 'key' in step) out = out === '' ? step.key : `${out}.${step.key}`;
    else if (step.keyword === 'items') out = `${out}[]`;
  }
  return out === '' ? '(input)' : out;
}

/** How many objects deep a path is: each property is one level. */
function objectDepth(path: readonly SchemaStep[]): number {
  return path.filter((step) => step.keyword === 'properties').length;
}

function typeOfValue(value: unknown): string | undefined {
  if (value === null) return 'null';
  if (typeof value === 'string' || typeof value === 'boolean') return typeof value;
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return undefined;
}

/** Whether a (rewritten) schema already lets the model send `null`. */
function acceptsNull(schema: JsonSchema): boolean {
  const { type } = schema;
  if (type === 'null' || (Array.isArray(type) && type.includes('null'))) return true;
  if (Array.isArray(schema.enum) && schema.enum.includes(null)) return true;
  if (Array.isArray(schema.anyOf)) return schema.anyOf.some((branch) => isRecord(branch) && acceptsNull(branch));
  return false;
}

function withNull(schema: JsonSchema): JsonSchema {
  if (acceptsNull(schema)) return schema;
  // Scalars take a type list; objects and arrays a branch, the form OpenAI's own examples use.
  if (typeof schema.type === 'string' && schema.type !== 'object' && schema.type !== 'array') {
    const out: JsonSchema = { ...schema, type: [schema.type, 'null'] };
    if (Array.isArray(schema.enum)) out.enum = [...schema.enum, null];
    return out;
  }
  if (Array.isArray(schema.anyOf)) return { ...schema, anyOf: [...schema.anyOf, { type: 'null' }] };
  const { description, ...rest } = schema;
  return description === undefined ? { anyOf: [rest, { type: 'null' }] } : { description, anyOf: [rest, { type: 'null' }] };
}

function matters(plan: NullPlan): boolean {
  return plan.omit !== undefined || plan.properties !== undefined || plan.items !== undefined || plan.anyOf !== undefined;
}

function hint(schema: JsonSchema, notes: string[]): JsonSchema {
  if (notes.length === 0) return schema;
  const text = `(${notes.join('; ')})`;
  const description = typeof schema.description === 'string' && schema.description !== '' ? `${schema.description} ${text}` : text;
  return { ...schema, description };
}

/** The strict rewrite of one schema, as the shared walker drives it; counts and problems go into `totals`. */
function strictRewriter(totals: { problems: StrictProblem[]; properties: number; enumValues: number }): SchemaRewriter<Rewritten> {
  const problemAt = (path: readonly SchemaStep[], reason: string) => totals.problems.push({ at: fieldPath(path), reason });
  const empty = (): Rewritten => ({ schema: {}, plan: {} });
  return {
    other(_value, path) {
      problemAt(path, 'its schema accepts any value; strict mode needs a type');
      return empty();
    },
    ref(ref, why, _siblings, path) {
      problemAt(path, REF_PROBLEMS[why](ref));
      return empty();
    },
    schema(visit) {
      const { schema: node, path } = visit;
      const problem = (reason: string) => problemAt(path, reason);
      if (Array.isArray(node.allOf) && node.allOf.length === 1 && isRecord(node.allOf[0])) {
        // One part is no conjunction: the schema is that part (a $ref in it is followed).
        const { allOf, ...rest } = node;
        return visit.walk({ ...(allOf as JsonSchema[])[0], ...rest });
      }

      const out: JsonSchema = {};
      const notes: string[] = [];
      for (const [key, value] of Object.entries(node)) {
        if (key === '$defs' || key === 'definitions' || DROPPED.includes(key)) continue;
        if (key in UNSUPPORTED) problem(UNSUPPORTED[key]!);
        else if (HINTED.includes(key)) notes.push(`${key}: ${JSON.stringify(value)}`);
        else if (key === 'format' && !STRICT_FORMATS.has(String(value))) notes.push(`format: ${String(value)}`);
        else out[key] = value;
      }

      if ('const' in out) {
        const value = out.const;
        delete out.const;
        out.enum = [value];
        const type = typeOfValue(value);
        if (out.type === undefined && type !== undefined) out.type = type;
      }
      if (Array.isArray(out.enum)) totals.enumValues += out.enum.length;
      if (Array.isArray(out.type)) {
        const types = out.type.filter((type) => type !== 'null');
        if (types.length > 1) problem(`it has several types (${types.join(', ')}); write it as anyOf, one type per branch`);
      }
      if (Array.isArray(out.oneOf)) {
        // The tool's own schema still checks exclusivity after the call.
        out.anyOf = [...(Array.isArray(out.anyOf) ? out.anyOf : []), ...out.oneOf];
        delete out.oneOf;
      }
      if (Array.isArray(out.allOf)) {
        problem('"allOf" with several schemas cannot be expressed in strict mode; merge them into one');
        delete out.allOf;
      }

      const plan: NullPlan = {};
      const types = Array.isArray(out.type) ? out.type : [out.type];

      if (Array.isArray(out.anyOf)) {
        if (path.length === 0 && out.type === undefined) problem('the root of the input cannot be anyOf in strict mode; use one object');
        const branches = out.anyOf.map((branch, index) => visit.walk(branch, { keyword: 'anyOf', index }));
        out.anyOf = branches.map((branch) => branch.schema);
        if (branches.some((branch) => matters(branch.plan))) {
          plan.anyOf = branches.map((branch) => branch.plan);
        }
      } else if (out.type === undefined && !Array.isArray(out.enum)) {
        problem('its schema has no type; strict mode needs one (string, number, integer, boolean, object, array or null)');
      }

      if (types.includes('object')) {
        if (objectDepth(path) + 1 > MAX_OBJECT_DEPTH) {
          problem(`objects are nested more than ${MAX_OBJECT_DEPTH} levels deep, the most strict mode allows`);
        }
        if (out.additionalProperties !== undefined && out.additionalProperties !== false) {
          problem('it is a record with open-ended keys (additionalProperties); strict mode needs every key listed');
        } else if ('propertyNames' in out) {
          problem('it is a record with open-ended keys (propertyNames); strict mode needs every key listed');
        }
        delete out.propertyNames;
        const properties = isRecord(out.properties) ? out.properties : {};
        const required = new Set(Array.isArray(out.required) ? out.required.filter((key) => typeof key === 'string') : []);
        const rewritten: JsonSchema = {};
        const omit: string[] = [];
        const nested: { [key: string]: NullPlan } = {};
        for (const [key, child] of Object.entries(properties)) {
          totals.properties += 1;
          const result = visit.walk(child, { keyword: 'properties', key });
          if (required.has(key)) {
            rewritten[key] = result.schema;
          } else if (acceptsNull(result.schema)) {
            // null is a real value for this key: the tool's schema decides what it means.
            rewritten[key] = result.schema;
          } else {
            rewritten[key] = withNull(result.schema);
            omit.push(key);
          }
          if (matters(result.plan)) nested[key] = result.plan;
        }
        out.properties = rewritten;
        out.required = Object.keys(rewritten);
        out.additionalProperties = false;
        plan.keys = Object.keys(rewritten);
        if (omit.length > 0) plan.omit = omit;
        if (Object.keys(nested).length > 0) plan.properties = nested;
      }

      if (types.includes('array')) {
        if (Array.isArray(out.items)) {
          problem('it is a tuple (items given as a list); strict mode only has arrays of one item type');
        } else if (out.items === undefined) {
          problem('its array items have no schema; strict mode needs one');
        } else {
          const result = visit.walk(out.items, { keyword: 'items' });
          out.items = result.schema;
          if (matters(result.plan)) plan.items = result.plan;
        }
      }

      return { schema: hint(out, notes), plan };
    },
  };
}

/**
 * Rewrite a tool's input schema so OpenAI accepts it with `strict: true`:
 * every key required, optional keys made nullable, `additionalProperties: false`
 * on every object, unsupported constraints moved into the description (the
 * tool's own validation still enforces them). Pure: the argument is not changed.
 *
 * Returns the strict schema and the plan `restoreOmittedKeys` needs on the way
 * back, or every reason the schema cannot be made strict.
 */
export function toStrictSchema(schema: JsonSchema): StrictRewrite {
  if (!isRecord(schema) || schema.type !== 'object') {
    return { ok: false, problems: [{ at: '(input)', reason: 'the root of the input must be an object schema' }] };
  }
  const totals = { problems: [] as StrictProblem[], properties: 0, enumValues: 0 };
  const { schema: strict, plan } = rewriteSchema(schema, strictRewriter(totals));
  if (totals.properties > MAX_PROPERTIES) {
    totals.problems.push({
      at: '(input)',
      reason: `it has ${totals.properties} properties in all; strict mode allows at most ${MAX_PROPERTIES}`,
    });
  }
  if (totals.enumValues > MAX_ENUM_VALUES) {
    totals.problems.push({
      at: '(input)',
      reason: `it has ${totals.enumValues} enum values in all; strict mode allows at most ${MAX_ENUM_VALUES}`,
    });
  }
  // One problem per field and reason, in the order found (if, then and else give the same one).
  const problems = [...new Map(totals.problems.map((problem) => [`${problem.at}\u0000${problem.reason}`, problem])).values()];
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, schema: strict, nulls: plan };
}

/** Every reason a schema cannot be made strict; empty when `toStrictSchema` succeeds. */
export function strictSchemaProblems(schema: JsonSchema): StrictProblem[] {
  const result = toStrictSchema(schema);
  return result.ok ? [] : result.problems;
}

/** `field "tags": reason` lines for one tool, as errors and the CLI print them. */
export function describeStrictProblems(toolName: string, problems: readonly StrictProblem[]): string {
  const lines = problems.map((problem) =>
    problem.at === '(input)' ? `  - ${problem.reason}` : `  - field "${problem.at}": ${problem.reason}`,
  );
  return `Tool "${toolName}" cannot be sent with OpenAI strict mode:\n${lines.join('\n')}`;
}

/** Thrown when strict tools were asked for and some tool cannot be made strict. */
export class StrictSchemaError extends Error {
  readonly tools: { name: string; problems: StrictProblem[] }[];

  constructor(tools: { name: string; problems: StrictProblem[] }[]) {
    super(
      `${tools.map((tool) => describeStrictProblems(tool.name, tool.problems)).join('\n')}\n` +
        'Change those schemas, or send the tools without strict mode.',
    );
    this.name = 'StrictSchemaError';
    this.tools = tools;
  }
}
