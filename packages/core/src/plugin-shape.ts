import { apiVersionProblem } from './api-version.js';
import { PluginError } from './plugin-error.js';
import type { AnyPlugin } from './plugin.js';
import { isRecord, isSchema } from './record.js';

export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return `an object with keys [${Object.keys(value).join(', ')}]`;
  return typeof value;
}

const FIX = 'Export definePlugin({name, apiVersion, tools}) from @toolshed/core as the default export.';

/**
 * Check that a value is a plugin made by definePlugin, with a supported apiVersion; `what`
 * names it in the message (`its default export`). Throws a validate-phase PluginError.
 */
export function checkPluginShape(value: unknown, what: string): AnyPlugin {
  const fail = (message: string, field?: string, plugin?: string) => new PluginError({ phase: 'validate', field, plugin }, message);
  if (!isRecord(value)) {
    throw fail(`${what} must be a plugin object, but it is ${describeValue(value)}. ${FIX}`);
  }
  const plugin = value;
  const missing = ['name', 'apiVersion', 'tools'].filter((key) => plugin[key] === undefined);
  if (missing.length > 0) {
    throw fail(`${what} is not a plugin: it lacks ${missing.join(', ')} (it is ${describeValue(value)}). ${FIX}`, missing[0]);
  }
  if (typeof plugin.name !== 'string' || plugin.name === '') throw fail(`${what}: "name" must be a non-empty string.`, 'name');
  const name = plugin.name;
  if (!Array.isArray(plugin.tools) && typeof plugin.tools !== 'function') {
    throw fail(`${what}: "tools" must be a list of tools or a function (options, host) => tools.`, 'tools', name);
  }
  if (plugin.options !== undefined && !isSchema(plugin.options)) {
    throw fail(`${what}: "options" must be a valibot schema when given.`, 'options', name);
  }
  const problem = apiVersionProblem(plugin.apiVersion);
  if (problem) throw fail(problem, 'apiVersion', name);
  return value as unknown as AnyPlugin;
}

/** The plugin object in a module namespace: its default export, checked. */
export function pluginFromModule(namespace: unknown): AnyPlugin {
  const exported = (namespace as { default?: unknown } | null | undefined)?.default;
  if (exported === undefined) {
    throw new PluginError(
      { phase: 'validate' },
      'the module has no default export. Export definePlugin({name, apiVersion, tools}) as the default export.',
    );
  }
  return checkPluginShape(exported, 'its default export');
}
