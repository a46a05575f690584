import { PluginError } from '@toolshed/core/contract';
const { readFileSync } = process.getBuiltinModule('node:fs');
const { join } = process.getBuiltinModule('node:path');

/** A dependency named in the project's package.json, and the field that names it. */
export interface DeclaredDependency {
  name: string;
  field: 'dependencies' | 'devDependencies';
}

// The names the plugin scaffolder suggests: @acme/tool-weather, toolshed-plugin-weather, tool-weather.
const PLUGIN_NAME = /^(?:@[^/]+\/)?(?:toolshed-|tool-)/;

/**
 * The npm lockfile records each package's peer dependencies, so it tells a plugin (a peer of
 * @toolshed/core) from any other package even when the package itself is not installed.
 */
function lockedPlugins(root: string): Set<string> {
  const plugins = new Set<string>();
  for (const file of ['npm-shrinkwrap.json', 'package-lock.json']) {
    let lock: { packages?: Record<string, { peerDependencies?: Record<string, unknown> }> };
    try {
      lock = JSON.parse(readFileSync(join(root, file), 'utf8')) as typeof lock;
    } catch {
      continue; // Absent or unreadable: fall back to the names alone.
    }
    for (const [key, entry] of Object.entries(lock.packages ?? {})) {
      if (key.startsWith('node_modules/') && entry?.peerDependencies?.['@toolshed/core'] !== undefined) {
        plugins.add(key.slice('node_modules/'.length));
      }
    }
    return plugins;
  }
  return plugins;
}

/**
 * Of the declared dependencies that are not installed, those that are Toolshed plugins (by
 * their name, or by the npm lockfile), each with the failure to report: their tools would
 * otherwise vanish without a word, e.g. a devDependency after `npm ci --omit=dev`.
 */
export function declaredButMissing(root: string, missing: DeclaredDependency[]): Map<string, PluginError> {
  const found = new Map<string, PluginError>();
  if (missing.length === 0) return found;
  const unnamed = missing.filter((dependency) => !PLUGIN_NAME.test(dependency.name));
  const locked = unnamed.length > 0 ? lockedPlugins(root) : new Set<string>();
  for (const { name, field } of missing) {
    if (!PLUGIN_NAME.test(name) && !locked.has(name)) continue;
    const why =
      field === 'devDependencies'
        ? ' (npm ci --omit=dev, npm install --production and NODE_ENV=production leave devDependencies out: install them, or move it to "dependencies")'
        : '';
    found.set(
      name,
      new PluginError(
        { phase: 'resolve' },
        `it is declared in package.json "${field}" but is not installed, so its tools are missing. Run npm install${why}.`,
      ),
    );
  }
  return found;
}
