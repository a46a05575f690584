export interface NonJsonValue {
  path: (string | number)[];
  expected: string;
  received: string;
}

// The objects on the current path, to tell a cycle from a value seen twice.
// The walk is synchronous, so one stack serves every call without allocating.
const ancestors: object[] = [];

/**
 * Find the first part of a call's input that JSON cannot carry (Infinity,
 * NaN, bigint, functions, symbols, cycles). Models only send JSON, and such a
 * value would be silently changed by any transcript or transport, so it is
 * refused rather than passed to a handler. Undefined when the value is clean.
 */
export function findNonJsonValue(value: unknown): NonJsonValue | undefined {
  const depth = ancestors.length;
  try {
    return walk(value);
  } catch (error) {
    // A model can send JSON nested deeper than the stack (JSON.parse takes it): refused, not thrown out of dispatch.
    if (error instanceof RangeError) return { path: [], expected: 'a JSON value', received: 'a value nested too deeply to check' };
    // A harness's object with a getter or proxy trap that throws: no model sent that.
    return { path: [], expected: 'a JSON value', received: 'a value that threw when read' };
  } finally {
    // Only after a failure or a throwing getter: setting length costs more than the whole walk.
    if (ancestors.length !== depth) ancestors.length = depth;
  }
}

function walk(value: unknown): NonJsonValue | undefined {
  // Strings first: most of what a model sends is text.
  if (typeof value === 'string') return undefined;
  if (typeof value !== 'object') return checkLeaf(value);
  if (value === null) return undefined;
  const object = value as Record<string, unknown>;
  if (ancestors.includes(object)) return { path: [], expected: 'a JSON value', received: 'a circular reference' };
  ancestors.push(object);
  // Paths are built only on the way out of a failure: clean input allocates nothing per key.
  if (Array.isArray(object)) {
    for (let i = 0; i < object.length; i++) {
      const found = walk(object[i]);
      if (found) return (found.path.unshift(i), found);
    }
  } else {
    // Object.keys (own enumerable keys) with an indexed loop: for...in plus a hasOwn
    // check per key made a dispatch of echo measurably slower.
    const keys = Object.keys(object);
    for (let i = 0; i < keys.length; i++) {
      const found = walk(object[keys[i]!]);
      if (found) return (found.path.unshift(keys[i]!), found);
    }
  }
  ancestors.pop();
  return undefined;
}

function checkLeaf(value: unknown): NonJsonValue | undefined {
  switch (typeof value) {
    case 'boolean':
    case 'undefined':
      return undefined;
    case 'number':
      return Number.isFinite(value) ? undefined : { path: [], expected: 'a finite number', received: String(value) };
    case 'bigint':
      return { path: [], expected: 'a JSON number', received: 'a bigint' };
    default:
      return { path: [], expected: 'a JSON value', received: `a ${typeof value}` };
  }
}
