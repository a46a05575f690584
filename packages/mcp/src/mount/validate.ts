// Loaded on the first validation only: ajv is not part of the light entry.
import type { JsonSchemaProblem } from '@toolshed/core';
import AjvModule, { type ErrorObject, type ValidateFunction } from 'ajv';
import Ajv2019Module from 'ajv/dist/2019.js';
import Ajv2020Module from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { RE2 } from 're2-wasm';

type AjvClass = typeof AjvModule.default;
// ajv is CommonJS; its classes sit on `default` under Node's ESM interop.
const Ajv = ((AjvModule as unknown as { default?: AjvClass }).default ?? AjvModule) as AjvClass;
const Ajv2019 = ((Ajv2019Module as unknown as { default?: AjvClass }).default ?? Ajv2019Module) as AjvClass;
const Ajv2020 = ((Ajv2020Module as unknown as { default?: AjvClass }).default ?? Ajv2020Module) as AjvClass;
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: InstanceType<AjvClass>,
) => void;

function linearRegExp(pattern: string, flags: string): { test(value: string): boolean } {
  // re2-wasm takes unicode patterns only, as ajv writes them (its unicodeRegExp default).
  return new RE2(pattern, flags.includes('u') ? flags : `${flags}u`);
}
// For ajv's standalone code only, which Toolshed does not generate.
linearRegExp.code = 'require("re2-wasm").RE2';

type Draft = 'draft-07' | '2019-09' | '2020-12';
type AjvInstance = InstanceType<AjvClass>;

function newAjv(draft: Draft): AjvInstance {
  const Class = draft === '2020-12' ? Ajv2020 : draft === '2019-09' ? Ajv2019 : Ajv;
  // strict: false: servers' schemas carry keywords of their own (titles, examples, vendor keys).
  // A server's `pattern` runs on every call against what a model sends: under JavaScript's
  // backtracking engine `^(a+)+$` against "aaaa…b" blocks the host for minutes. RE2 runs in
  // time linear in the input; a pattern it cannot take (lookaround, backreferences) fails
  // to compile, so its tool is left out with the reason.
  const ajv = new Class({ allErrors: true, strict: false, validateFormats: true, code: { regExp: linearRegExp } });
  addFormats(ajv);
  return ajv;
}

function draftOf(schema: { [key: string]: unknown }): Draft {
  const declared = typeof schema.$schema === 'string' ? schema.$schema : '';
  if (declared.includes('2020-12')) return '2020-12';
  if (declared.includes('2019-09')) return '2019-09';
  // MCP's default dialect is 2020-12, but nearly every server in use writes draft-07 (zod-to-json-schema);
  // a schema without $schema validates the same under both for the keywords they share.
  return declared === '' ? '2020-12' : 'draft-07';
}

export type CompileSchema = (schema: { [key: string]: unknown }) => ValidateFunction;

/**
 * A compiler of a server's schemas that owns what it compiles: ajv keeps every schema an
 * instance compiled for as long as the instance lives, so each listing of a server gets
 * compilers of its own, freed with that listing (one process-wide instance grew with every
 * re-listing a server asked for). It throws with ajv's reason when a schema itself is broken.
 */
export function schemaCompiler(): CompileSchema {
  const instances = new Map<Draft, AjvInstance>();
  return (schema) => {
    const { $schema: _draft, $id: _id, ...rest } = schema;
    const draft = draftOf(schema);
    let ajv = instances.get(draft);
    if (!ajv) instances.set(draft, (ajv = newAjv(draft)));
    return ajv.compile(rest);
  };
}

function pathOf(instancePath: string, root: unknown): (string | number)[] {
  if (instancePath === '') return [];
  const path: (string | number)[] = [];
  let value = root;
  for (const raw of instancePath.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    const item = Array.isArray(value) && /^\d+$/.test(key) ? Number(key) : key;
    path.push(item);
    value = typeof value === 'object' && value !== null ? (value as Record<string | number, unknown>)[item] : undefined;
  }
  return path;
}

/** ajv's errors as the problems core words like any tool's input issues. */
export function toProblems(errors: readonly ErrorObject[], root: unknown): JsonSchemaProblem[] {
  const seen = new Set<string>();
  const problems: JsonSchemaProblem[] = [];
  for (const error of errors) {
    const path = pathOf(error.instancePath, root);
    let problem: JsonSchemaProblem;
    const params = error.params as Record<string, unknown>;
    if (error.keyword === 'required') problem = { path, kind: 'missing', key: String(params.missingProperty) };
    else if (error.keyword === 'additionalProperties' || error.keyword === 'unevaluatedProperties') {
      problem = { path, kind: 'unknown', key: String(params.additionalProperty ?? params.unevaluatedProperty) };
    } else if (error.keyword === 'type') {
      const type = params.type;
      problem = { path, kind: 'type', expected: Array.isArray(type) ? type.join(' | ') : String(type) };
    } else if (error.keyword === 'enum') {
      const allowed = (params.allowedValues as unknown[] | undefined) ?? [];
      problem = { path, kind: 'check', message: `must be one of ${allowed.map((value) => JSON.stringify(value)).join(', ')}` };
    } else problem = { path, kind: 'check', message: error.message ?? `fails "${error.keyword}"` };
    const key = JSON.stringify(problem);
    if (seen.has(key)) continue;
    seen.add(key);
    problems.push(problem);
  }
  return problems;
}
