export interface NonJsonValue {
  path: (string | number)[];
  expected: string;
  received: string;
}

/**
 * Find the first part of a call's input that JSON cannot carry (Infinity,
 * NaN, bigint, functions, symbols, cycles). Models only send JSON, and such a
 * value would be silently changed by any transcript or transport, so it is
 * refused rather than passed to a handler. Undefined when the value is clean.
 */
export function findNonJsonValue(value: unknown, seen?: Set<object>): NonJsonValue | undefined {
  switch (typeof value) {
    case 'string':
    case 'boolean':
    case 'undefined':
      return undefined;
    case 'number':
      return Number.isFinite(value) ? undefined : { path: [], expected: 'a finite number', received: String(value) };
    case 'bigint':
      return { path: [], expected: 'a JSON number', received: 'a bigint' };
    case 'function':
    case 'symbol':
      return { path: [], expected: 'a JSON value', received: `a ${typeof value}` };
  }
  if (value === null) return undefined;
  const object = value as Record<string, unknown>;
  seen ??= new Set();
  if (seen.has(object)) return { path: [], expected: 'a JSON value', received: 'a circular reference' };
  seen.add(object);
  // Paths are built only on the way out of a failure: clean input allocates nothing per key.
  if (Array.isArray(object)) {
    for (let i = 0; i < object.length; i++) {
      const found = findNonJsonValue(object[i], seen);
      if (found) return found.path.unshift(i), found;
    }
  } else {
    for (const key in object) {
      if (!Object.hasOwn(object, key)) continue;
      const found = findNonJsonValue(object[key], seen);
      if (found) return found.path.unshift(key), found;
    }
  }
  seen.delete(object);
  return undefined;
}
