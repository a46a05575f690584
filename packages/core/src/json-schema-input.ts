import type * as v from 'valibot';
import type { AnySchema } from './tool.js';

/** A JSON Schema as plain data. */
export type JsonSchema = { [key: string]: unknown };

/**
 * Where a tool's input schema carries its own JSON Schema: `toolJsonSchema` hands
 * this out as is instead of converting a valibot schema. A `Symbol.for` key, so two
 * copies of core agree on it.
 */
export const JSON_SCHEMA_KEY: unique symbol = Symbol.for('toolshed.jsonSchema') as never;

/**
 * One problem a JSON Schema validator found, as fields. `path` leads from the root of
 * the input to the value in question (for `missing` and `unknown`, to the object
 * holding `key`). Core words them like any valibot tool's issues.
 */
export type JsonSchemaProblem =
  | { path: (string | number)[]; kind: 'missing'; key: string }
  | { path: (string | number)[]; kind: 'unknown'; key: string }
  | { path: (string | number)[]; kind: 'type'; expected: string }
  | { path: (string | number)[]; kind: 'check'; message: string };

export type JsonSchemaValidator = (value: unknown) => JsonSchemaProblem[] | Promise<JsonSchemaProblem[]>;

/**
 * An input schema for a tool described by JSON Schema rather than valibot (an MCP
 * server's tool): `validate` checks a value against `schema` (with a JSON Schema
 * validator of the caller's choice, loaded when first needed), and its problems reach
 * the caller as `invalid_input` with paths, like any tool's. The model sees `schema` as is.
 * Always async, so the validator may load lazily on the first call.
 */
export function jsonSchemaInput(schema: JsonSchema, validate: JsonSchemaValidator): AnySchema {
  if (typeof schema !== 'object' || schema === null || schema.type !== 'object') {
    throw new TypeError('jsonSchemaInput: the schema must be a JSON Schema of type "object".');
  }
  const carried = JSON.parse(JSON.stringify(schema)) as JsonSchema;
  const run = async (dataset: { value: unknown }): Promise<v.OutputDataset<unknown, v.BaseIssue<unknown>>> => {
    const problems = await validate(dataset.value);
    if (problems.length === 0) return { typed: true, value: dataset.value };
    return {
      typed: false,
      value: dataset.value,
      issues: problems.map((problem) => toIssue(dataset.value, problem)) as [v.BaseIssue<unknown>],
    };
  };
  return {
    kind: 'schema',
    type: 'json_schema',
    reference: jsonSchemaInput,
    expects: 'Object',
    async: true,
    message: undefined,
    [JSON_SCHEMA_KEY]: carried,
    '~run': run,
  } as unknown as AnySchema;
}

/** The JSON Schema a `jsonSchemaInput` schema carries (a copy), or undefined for any other schema. */
export function carriedJsonSchema(schema: unknown): JsonSchema | undefined {
  if (typeof schema !== 'object' || schema === null) return undefined;
  const carried = (schema as { [JSON_SCHEMA_KEY]?: unknown })[JSON_SCHEMA_KEY];
  if (typeof carried !== 'object' || carried === null) return undefined;
  return JSON.parse(JSON.stringify(carried)) as JsonSchema;
}

function pathItems(root: unknown, path: readonly (string | number)[]): v.IssuePathItem[] {
  const items: v.IssuePathItem[] = [];
  let parent = root;
  for (const key of path) {
    const value = typeof parent === 'object' && parent !== null ? (parent as Record<string | number, unknown>)[key] : undefined;
    items.push({ type: Array.isArray(parent) ? 'array' : 'object', origin: 'value', input: parent, key, value } as v.IssuePathItem);
    parent = value;
  }
  return items;
}

// The shapes core's issue reading (classifyIssue) recognises: a key issue (origin "key") for
// missing and unknown fields, a schema issue for a wrong type, a validation issue otherwise.
function toIssue(root: unknown, problem: JsonSchemaProblem): v.BaseIssue<unknown> {
  const base = {
    type: 'json_schema',
    received: '',
    requirement: undefined,
    lang: undefined,
    abortEarly: undefined,
    abortPipeEarly: undefined,
  };
  const path = pathItems(root, problem.path);
  // The value the problem is about (for missing and unknown, the object holding the key).
  const at = path.length > 0 ? path[path.length - 1]!.value : root;
  if (problem.kind === 'missing' || problem.kind === 'unknown') {
    const value = (at as Record<string, unknown>)?.[problem.key];
    return {
      ...base,
      kind: 'schema',
      input: value,
      expected: problem.kind === 'unknown' ? 'never' : 'present',
      message: problem.kind,
      path: [...path, { type: 'object', origin: 'key', input: at, key: problem.key, value } as v.IssuePathItem] as [v.IssuePathItem],
    };
  }
  const type = problem.kind === 'type';
  return {
    ...base,
    kind: type ? 'schema' : 'validation',
    input: at,
    expected: type ? problem.expected : null,
    message: type ? `expected ${problem.expected}` : problem.message,
    ...(path.length > 0 ? { path: path as [v.IssuePathItem] } : {}),
  };
}
