import { isRecord } from '@toolshed/core/contract';
import type { JsonSchema } from '@toolshed/core';

/**
 * Where a subschema sits in its parent: the keyword, and the key (`properties`,
 * `$defs`…) or index (`anyOf`, a tuple's `items`…) under it.
 */
export type SchemaStep = { keyword: string; key: string } | { keyword: string; index: number } | { keyword: string };

/** Keywords whose value maps names to subschemas. */
const KEYED = ['properties', 'patternProperties', 'dependentSchemas', '$defs', 'definitions'];
/** Keywords whose value is a list of subschemas. */
const LISTED = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];
/** Keywords whose value is one subschema (`items` may also be a list: a tuple, in older drafts). */
const SINGLE = [
  'items',
  'additionalItems',
  'additionalProperties',
  'propertyNames',
  'contains',
  'not',
  'if',
  'then',
  'else',
  'unevaluatedProperties',
  'unevaluatedItems',
];

/** Every subschema directly under a schema, with where it sits; booleans (`true`, `false`) included. */
export function subschemas(schema: JsonSchema): [SchemaStep, unknown][] {
  const found: [SchemaStep, unknown][] = [];
  for (const [keyword, value] of Object.entries(schema)) {
    if (KEYED.includes(keyword) && isRecord(value)) {
      for (const [key, child] of Object.entries(value)) found.push([{ keyword, key }, child]);
    } else if ((LISTED.includes(keyword) || keyword === 'items') && Array.isArray(value)) {
      value.forEach((child, index) => found.push([{ keyword, index }, child]));
    } else if (SINGLE.includes(keyword) && value !== undefined) {
      found.push([{ keyword }, value]);
    }
  }
  return found;
}

/**
 * The most `$ref`s one walk inlines. Definitions that use each other twice over
 * grow twofold with each level (40 levels: a trillion copies), and a schema can
 * come from anyone (an MCP server mounted as a plugin): past this, a `$ref` is
 * handed to the rewriter as `limit` instead of inlined, so every walk stays small.
 */
export const MAX_INLINED_REFS = 1000;

/** Why a `$ref` was not inlined. */
export type RefRefusal = 'unresolved' | 'recursive' | 'limit';

/** What a visitor is handed for one subschema. */
export interface SchemaVisit<R> {
  /** The subschema; a `$ref` already replaced by its target, with the `$ref`'s siblings laid over it. */
  schema: JsonSchema;
  /** How the walk reached it from the root (a `$ref` counts where it is written, not where it points). */
  path: readonly SchemaStep[];
  /**
   * Rewrite a subschema of this one the same way; `step` says where it sits.
   * Without a step, the value stands in for this schema itself (e.g. a merged `allOf`).
   */
  walk(child: unknown, step?: SchemaStep): R;
}

/**
 * A rewrite of a schema, top down. The walker resolves `$ref`s and keeps the
 * path; the rewriter decides what each schema becomes and which of its
 * subschemas to walk.
 */
export interface SchemaRewriter<R> {
  /** A subschema that is an object. */
  schema(visit: SchemaVisit<R>): R;
  /** A subschema that is not an object: `true`, `false`, or anything else found where a schema belongs. */
  other(value: unknown, path: readonly SchemaStep[]): R;
  /**
   * A `$ref` that is not inlined: `unresolved` when it does not point to a
   * schema inside this one, `recursive` when it points back to a schema the
   * walk is inside (inlining it would never end), `limit` when the walk has
   * inlined `MAX_INLINED_REFS` already.
   */
  ref(ref: string, why: RefRefusal, siblings: JsonSchema, path: readonly SchemaStep[]): R;
}

function escapeToken(token: string): string {
  return token.replaceAll('~', '~0').replaceAll('/', '~1');
}

function stepPointer(pointer: string, step: SchemaStep): string {
  const tail = 'key' in step ? `/${escapeToken(step.key)}` : 'index' in step ? `/${step.index}` : '';
  return `${pointer}/${escapeToken(step.keyword)}${tail}`;
}

/** The schema a local `$ref` (`#`, `#/$defs/Name`, any JSON Pointer into the root) points to, and its pointer. */
export function resolveRef(root: JsonSchema, ref: string): { target: JsonSchema; pointer: string } | undefined {
  if (!ref.startsWith('#')) return undefined;
  let pointer: string;
  try {
    pointer = decodeURIComponent(ref.slice(1));
  } catch {
    return undefined;
  }
  if (pointer !== '' && !pointer.startsWith('/')) return undefined;
  const tokens =
    pointer === ''
      ? []
      : pointer
          .slice(1)
          .split('/')
          .map((token) => token.replaceAll('~1', '/').replaceAll('~0', '~'));
  let node: unknown = root;
  for (const key of tokens) {
    if (Array.isArray(node) && /^(0|[1-9]\d*)$/.test(key)) node = node[Number(key)];
    else if (isRecord(node) && Object.hasOwn(node, key)) node = node[key];
    else return undefined;
  }
  if (!isRecord(node)) return undefined;
  // Written the one way, so that `#/$defs/a` and `#/%24defs/a` are the same place.
  return { target: node, pointer: tokens.map((token) => `/${escapeToken(token)}`).join('') };
}

/**
 * Rewrite a JSON Schema with one rewriter, visiting subschemas as the rewriter
 * asks. Every `$ref` into the schema is inlined where it is used (its siblings
 * laid over the target); one that points back into a schema the walk is inside
 * is handed to `rewriter.ref` as recursive instead, so every walk ends.
 * The schema is never changed.
 */
export function rewriteSchema<R>(root: JsonSchema, rewriter: SchemaRewriter<R>): R {
  // Pointers of the schemas the walk is inside, to tell a recursive $ref.
  const inside: string[] = [];
  let inlined = 0;

  function walk(value: unknown, path: readonly SchemaStep[], pointer: string): R {
    if (!isRecord(value)) return rewriter.other(value, path);
    if (typeof value.$ref === 'string') {
      const { $ref: ref, ...siblings } = value;
      const found = resolveRef(root, ref);
      if (!found) return rewriter.ref(ref, 'unresolved', siblings, path);
      if (found.pointer === pointer || inside.includes(found.pointer)) return rewriter.ref(ref, 'recursive', siblings, path);
      if (inlined >= MAX_INLINED_REFS) return rewriter.ref(ref, 'limit', siblings, path);
      inlined += 1;
      return visit({ ...found.target, ...siblings }, path, found.pointer);
    }
    return visit(value, path, pointer);
  }

  function visit(schema: JsonSchema, path: readonly SchemaStep[], pointer: string): R {
    inside.push(pointer);
    try {
      return rewriter.schema({
        schema,
        path,
        walk: (child, step) => (step === undefined ? walk(child, path, pointer) : walk(child, [...path, step], stepPointer(pointer, step))),
      });
    } finally {
      inside.pop();
    }
  }

  return walk(root, [], '');
}

/** What `walkSchema` calls for each place it reaches. */
export interface SchemaWalker {
  /** A subschema that is an object (the root included), `$ref`s inlined. */
  schema?(schema: JsonSchema, path: readonly SchemaStep[]): void;
  /** A `$ref` that was not followed, and why. */
  ref?(ref: string, why: RefRefusal, path: readonly SchemaStep[]): void;
}

/**
 * Visit every subschema of a schema, top down: `properties`, `items`,
 * `anyOf` / `oneOf` / `allOf`, `additionalProperties`, `$defs` and every other
 * keyword that holds a schema, following each `$ref` into its target (once per
 * chain: a recursive `$ref` is reported, not followed; so is every `$ref`
 * after the first `MAX_INLINED_REFS`).
 */
export function walkSchema(root: JsonSchema, walker: SchemaWalker): void {
  rewriteSchema<void>(root, {
    schema(visit) {
      walker.schema?.(visit.schema, visit.path);
      for (const [step, child] of subschemas(visit.schema)) visit.walk(child, step);
    },
    other() {},
    ref(ref, why, _siblings, path) {
      walker.ref?.(ref, why, path);
    },
  });
}
