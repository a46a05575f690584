import { isRecord, PluginError } from '@toolshed/core/contract';
const { readFileSync, statSync } = process.getBuiltinModule('node:fs');
const { dirname, isAbsolute, join, resolve } = process.getBuiltinModule('node:path');

export interface PackageJson {
  name?: unknown;
  version?: unknown;
  toolshed?: unknown;
  peerDependencies?: unknown;
  dependencies?: unknown;
  devDependencies?: unknown;
  exports?: unknown;
  main?: unknown;
  [key: string]: unknown;
}

// Letters of both cases written out rather than by the `i` flag: the same names (without `u`,
// `\w` is [A-Za-z0-9_] either way), and V8 compiles it faster on every `toolshed list`, which
// checks each dependency's name.
const PACKAGE_NAME = /^(?:@[a-zA-Z0-9][\w.-]*\/)?[a-zA-Z0-9][\w.-]*$/;

export function isPackageName(name: string): boolean {
  return PACKAGE_NAME.test(name);
}

export function isPathSpec(spec: string): boolean {
  return spec.startsWith('./') || spec.startsWith('../') || spec === '.' || spec === '..' || isAbsolute(spec);
}

/**
 * Find an installed package the way Node resolves a bare name from the project
 * root: `node_modules/<name>` in the root, then in each parent. Only that one
 * package.json is read at each level; node_modules is never listed.
 */
export function findPackage(name: string, fromDir: string): { dir: string; pkg: PackageJson } | undefined {
  for (let dir = fromDir; ; ) {
    const candidate = join(dir, 'node_modules', name);
    const file = join(candidate, 'package.json');
    let text: string | undefined;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR')
        throw new PluginError({ phase: 'resolve' }, `cannot read ${file}: ${(error as Error).message}`);
    }
    if (text !== undefined) return { dir: candidate, pkg: parsePackageJson(file, text) };
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

function parsePackageJson(file: string, text: string): PackageJson {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new PluginError({ phase: 'resolve' }, `${file} is not valid JSON (${(error as Error).message}); reinstall the package.`);
  }
  if (!isRecord(value)) {
    throw new PluginError({ phase: 'resolve' }, `${file} is not a JSON object; reinstall the package.`);
  }
  return value as PackageJson;
}

/** Read a package.json; unreadable or malformed is a resolve-phase failure naming the file. */
export function readPackageJson(dir: string): PackageJson {
  const file = join(dir, 'package.json');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new PluginError({ phase: 'resolve' }, `cannot read ${file}: ${(error as Error).message}`);
  }
  return parsePackageJson(file, text);
}

export function isDirectory(file: string): boolean {
  try {
    return statSync(file).isDirectory();
  } catch {
    return false;
  }
}

/** The module Node would load for `import "<package>"`, following its exports map. */
export async function packageEntry(dir: string, pkg: PackageJson): Promise<string> {
  const { exports, legacy } = await import('resolve.exports');
  let target: string | undefined;
  try {
    target = exports(pkg, '.', { conditions: ['node', 'import'] })?.[0];
  } catch (error) {
    throw new PluginError({ phase: 'import' }, `its package.json "exports" has no entry for import: ${(error as Error).message}`);
  }
  target ??= (legacy(pkg, { fields: ['module', 'main'] }) as string | undefined) ?? 'index.js';
  return resolve(dir, target);
}
