import { optionPath } from '@toolshed/core/contract';

/**
 * Keys that reach an object's prototype when a copy is made by assignment (`out[key] = value`):
 * JSON.parse makes `"__proto__"` an own key, and such a copy turns it into the prototype, so
 * `{"__proto__": {"root": "/"}}` would give options a `root` no check saw. Refused in the config
 * and in plugin options, wherever they are written.
 */
const PROTOTYPE_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

export type KeyPath = (string | number)[];

/**
 * The path of every refused key in a JSON-like value (objects and arrays, each visited once).
 * `namesTools(path)` says the keys of the object at `path` are tool names (a `rename` map): a tool
 * may be called "constructor", and those maps are read by own key only.
 */
export function prototypeKeyPaths(value: unknown, namesTools: (path: KeyPath) => boolean = () => false): KeyPath[] {
  const found: KeyPath[] = [];
  const seen = new Set<object>();
  const walk = (node: unknown, path: KeyPath): void => {
    if (typeof node !== 'object' || node === null || seen.has(node)) return;
    seen.add(node);
    if (Array.isArray(node)) {
      node.forEach((item, index) => walk(item, [...path, index]));
      return;
    }
    const toolNames = namesTools(path);
    for (const key of Object.keys(node)) {
      if (!toolNames && PROTOTYPE_KEYS.has(key)) found.push([...path, key]);
      else walk((node as Record<string, unknown>)[key], [...path, key]);
    }
  };
  walk(value, []);
  return found;
}

/** What is wrong with a refused key at `path`, in the words of the field the user wrote. */
export function prototypeKeyProblem(path: KeyPath, prefix: KeyPath = []): string {
  const key = String(path[path.length - 1]);
  return (
    `${optionPath([...prefix, ...path])}: the key ${JSON.stringify(key)} is refused (JavaScript takes "__proto__", "constructor" ` +
    'and "prototype" for an object\'s prototype, so options could get values no check saw); remove it'
  );
}
