import { PluginError } from '@toolshed/core/contract';
import { findPackage, isDirectory, isPackageName, isPathSpec, readPackageJson } from '../package.js';
import type { Source } from './source.js';
const { readFileSync } = process.getBuiltinModule('node:fs');
const { resolve } = process.getBuiltinModule('node:path');

/** Find a plugin named by a package name or a path: a module file or a package. */
export function resolveSpec(spec: string, baseDir: string, cwd: string): Source {
  if (isPathSpec(spec)) {
    const target = resolve(baseDir, spec);
    if (isDirectory(target)) return { kind: 'package', dir: target, pkg: readPackageJson(target) };
    try {
      readFileSync(target);
    } catch {
      throw new PluginError(
        { phase: 'resolve' },
        `${target} does not exist; fix the path (relative paths start from the config file's folder).`,
      );
    }
    return { kind: 'module', file: target };
  }
  if (!isPackageName(spec))
    throw new PluginError({ phase: 'resolve' }, `"${spec}" is neither a package name nor a relative path (start paths with ./).`);
  const found = findPackage(spec, cwd);
  if (!found) {
    throw new PluginError(
      { phase: 'resolve' },
      `package "${spec}" is not installed in ${cwd}; install it (npm install ${spec}) or fix the name.`,
    );
  }
  return { kind: 'package', dir: found.dir, pkg: found.pkg };
}
