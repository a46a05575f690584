import { isRecord } from '@toolshed/core/contract';
import type { NullPlan } from './strict-schema.js';

/** The branch of a rewritten `anyOf` that a value took: by its exact keys, else the only object branch. */
function pickBranch(value: unknown, branches: NullPlan[]): NullPlan | undefined {
  if (Array.isArray(value)) return branches.find((branch) => branch.items !== undefined);
  if (!isRecord(value)) return undefined;
  const keys = Object.keys(value).sort().join('\u0000');
  const exact = branches.find((branch) => branch.keys !== undefined && [...branch.keys].sort().join('\u0000') === keys);
  if (exact) return exact;
  const objects = branches.filter((branch) => branch.keys !== undefined);
  return objects.length === 1 ? objects[0] : undefined;
}

/**
 * Undo what the strict rewrite added: where a key was optional in the tool's
 * own schema and the model sent `null` for it, leave the key out, so that the
 * tool's schema (its defaults, its optional handling) decides. Returns a new
 * value; the argument is not changed.
 */
export function restoreOmittedKeys(value: unknown, plan: NullPlan): unknown {
  if (plan.anyOf) {
    const branch = pickBranch(value, plan.anyOf);
    return branch ? restoreOmittedKeys(value, branch) : value;
  }
  if (Array.isArray(value)) {
    const items = plan.items;
    return items ? value.map((item) => restoreOmittedKeys(item, items)) : value;
  }
  if (!isRecord(value) || (plan.omit === undefined && plan.properties === undefined)) return value;
  const out: Record<string, unknown> = {};
  const { omit, properties } = plan;
  for (const key of Object.keys(value)) {
    const item = value[key];
    if (item === null && omit !== undefined && omit.includes(key)) continue;
    const nested = properties !== undefined && item !== null && Object.hasOwn(properties, key) ? properties[key] : undefined;
    const restored = nested === undefined ? item : restoreOmittedKeys(item, nested);
    // A key named "__proto__" from JSON must stay a plain key, not set the prototype.
    if (key === '__proto__') {
      Object.defineProperty(out, key, { value: restored, enumerable: true, writable: true, configurable: true });
    } else {
      out[key] = restored;
    }
  }
  return out;
}
