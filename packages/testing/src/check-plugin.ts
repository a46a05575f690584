import { instantiatePlugin, isPluginError, type AnyPlugin, type PluginInstance } from '@toolshed/core';
import { checkTool, kindOfField, type CheckToolOptions } from './check-tool.js';
import type { Problem } from './problem.js';

export interface CheckPluginOptions extends Omit<CheckToolOptions, 'samples'> {
  /** Valid inputs per tool name, e.g. `{ echo: [{ text: 'hi' }] }`. */
  samples?: Readonly<Record<string, readonly unknown[]>>;
  /** The plugin options to check with, as a user would put them in toolshed.config.json (`{"env": "NAME"}` included). */
  options?: unknown;
  /** Where `{"env": "NAME"}` references in `options` are looked up (default: process.env), as the host does. */
  env?: Readonly<Record<string, string | undefined>>;
  /** The folder the tools factory is told it runs in (default: process.cwd()). */
  cwd?: string;
}

/**
 * Check a plugin the way the host loads it: through core's `instantiatePlugin`, so the kit and
 * the host agree on the apiVersion, the options (env references, the no-options rule, redacted
 * issues) and each tool's definition. Then every tool it offers with checkTool. Resolves to
 * every problem found; never throws for a broken plugin.
 */
export async function checkPlugin(plugin: AnyPlugin, options: CheckPluginOptions = {}): Promise<Problem[]> {
  const problems: Problem[] = [];
  const name = typeof plugin?.name === 'string' && plugin.name !== '' ? plugin.name : undefined;
  const label = `Plugin ${name ? JSON.stringify(name) : '(unnamed)'}`;
  const add = (message: string, field?: string) =>
    problems.push({ kind: 'plugin', message: `${label}: ${message}`, ...(field ? { field } : {}) });

  let instance: PluginInstance;
  try {
    instance = await instantiatePlugin(plugin, {
      options: options.options,
      env: options.env ?? process.env,
      configName: 'the options given to checkPlugin',
      cwd: options.cwd ?? process.cwd(),
      what: 'the plugin handed to checkPlugin',
    });
  } catch (error) {
    if (!isPluginError(error)) throw error;
    if (error.tool !== undefined) {
      // A tool the host would refuse: said as checkTool says it, with the same kind.
      problems.push({
        kind: kindOfField(error.field),
        tool: error.tool,
        message: error.message,
        ...(error.field ? { field: error.field } : {}),
      });
    } else {
      add(error.message, error.field);
    }
    return problems;
  }

  try {
    const { tools, definitions } = instance;
    if (tools.length === 0) add('offers no tools; a plugin exists to offer at least one.');
    const seen = new Map<string, number>();
    for (const [index, definition] of definitions.entries()) {
      const first = seen.get(definition.name);
      if (first === undefined) {
        seen.set(definition.name, index);
      } else {
        problems.push({
          kind: 'duplicate_name',
          tool: definition.name,
          message: `${label}: tools ${first + 1} and ${index + 1} are both named "${definition.name}"; a host registers one name once, so rename one.`,
        });
      }
    }
    const samples = options.samples ?? {};
    for (const key of Object.keys(samples)) {
      if (!seen.has(key))
        add(`samples were given for "${key}", but it offers no tool of that name (it offers ${[...seen.keys()].join(', ') || 'none'}).`);
    }
    const { samples: _samples, options: _options, env: _env, cwd: _cwd, ...toolOptions } = options;
    for (const tool of tools) {
      const toolSamples = Object.hasOwn(samples, tool.name) ? samples[tool.name] : undefined;
      problems.push(...(await checkTool(tool, toolSamples ? { ...toolOptions, samples: toolSamples } : toolOptions)));
    }
  } finally {
    // Tools built for the check may hold connections or files: release them, as host.close() does.
    await instance.close();
  }
  return problems;
}
