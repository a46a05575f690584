import { pathToFileURL } from 'node:url';
import type { AnyPlugin, AnyTool, IssueProblem, ToolDefinition } from '@toolshed/core';
import { apiVersionProblem } from './compat.js';
import { optionPath } from './env.js';
import { describeThrown, PhaseError } from './errors.js';

/** Import a plugin module. A throw or a syntax error is an import-phase failure. */
export async function importPluginModule(file: string): Promise<unknown> {
  try {
    return await import(pathToFileURL(file).href);
  } catch (error) {
    throw new PhaseError('import', `importing ${file} failed: ${describeThrown(error)}`);
  }
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return `an object with keys [${Object.keys(value).join(', ')}]`;
  return typeof value;
}

/** Check that a value is a plugin made by definePlugin, with a supported apiVersion. */
export function checkPlugin(value: unknown, what: string): AnyPlugin {
  const fix = 'Export definePlugin({name, apiVersion, tools}) from @toolshed/core as the default export.';
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new PhaseError('validate', `${what} must be a plugin object, but it is ${describeValue(value)}. ${fix}`);
  }
  const plugin = value as Record<string, unknown>;
  const missing = ['name', 'apiVersion', 'tools'].filter((key) => plugin[key] === undefined);
  if (missing.length > 0) {
    throw new PhaseError('validate', `${what} is not a plugin: it lacks ${missing.join(', ')} (it is ${describeValue(value)}). ${fix}`);
  }
  if (typeof plugin.name !== 'string' || plugin.name === '') throw new PhaseError('validate', `${what}: "name" must be a non-empty string.`);
  if (!Array.isArray(plugin.tools) && typeof plugin.tools !== 'function') {
    throw new PhaseError('validate', `${what}: "tools" must be a list of tools or a function (options, host) => tools.`);
  }
  if (plugin.options !== undefined && (plugin.options as { kind?: unknown })?.kind !== 'schema') {
    throw new PhaseError('validate', `${what}: "options" must be a valibot schema when given.`);
  }
  const problem = apiVersionProblem(plugin.apiVersion);
  if (problem) throw new PhaseError('validate', problem);
  return value as AnyPlugin;
}

/** The plugin object in a module: its default export. */
export function pluginFromModule(namespace: unknown): AnyPlugin {
  const exported = (namespace as { default?: unknown }).default;
  if (exported === undefined) {
    throw new PhaseError('validate', 'the module has no default export. Export definePlugin({name, apiVersion, tools}) as the default export.');
  }
  return checkPlugin(exported, 'its default export');
}

// Options may hold secrets (resolved from env references): describe kinds, never values.
function describeIssue(problem: IssueProblem, keys: (string | number)[]): string {
  const at = optionPath(keys);
  switch (problem.kind) {
    case 'missing':
      return `option ${at} is required`;
    case 'unknown':
      return `unknown option ${JSON.stringify(at)}`;
    case 'type':
      return `option ${at}: expected ${problem.expected}, received ${problem.received}`;
    case 'check': {
      const leaks = typeof problem.input === 'string' && problem.input !== '' && problem.message.includes(problem.input);
      return leaks ? `option ${at}: failed the ${problem.type} check` : `option ${at}: ${problem.message}`;
    }
  }
}

/** Validate options against the plugin's schema (valibot is loaded only here). */
export async function validateOptions(plugin: AnyPlugin, options: Record<string, unknown> | undefined): Promise<unknown> {
  if (plugin.options === undefined) {
    const given = Object.keys(options ?? {});
    if (given.length > 0) throw new PhaseError('options', `it takes no options, but was given ${given.join(', ')}. Remove them.`);
    return undefined;
  }
  const [v, { classifyIssue }] = await Promise.all([import('valibot'), import('@toolshed/core')]);
  const result = await v.safeParseAsync(plugin.options, options ?? {});
  if (!result.success) {
    const issues = result.issues.map((issue) => describeIssue(classifyIssue(issue), (issue.path ?? []).map((item: { key: unknown }) => item.key as string | number)));
    throw new PhaseError('options', `invalid options: ${issues.join('; ')}.`);
  }
  return result.output;
}

export interface Instance {
  tools: AnyTool[];
  definitions: ToolDefinition[];
}

/** Validate options, build the tools and describe them as a model will see them. */
export async function instantiate(plugin: AnyPlugin, options: Record<string, unknown> | undefined, cwd: string): Promise<Instance> {
  const parsed = await validateOptions(plugin, options);
  let tools: unknown;
  try {
    tools = typeof plugin.tools === 'function' ? await plugin.tools(parsed, { cwd }) : plugin.tools;
  } catch (error) {
    throw new PhaseError('options', `its tools could not be created with these options: ${describeThrown(error)}`);
  }
  if (!Array.isArray(tools)) {
    throw new PhaseError('validate', `its tools function returned ${describeValue(tools)} instead of a list of tools.`);
  }
  const { describeTool } = await import('@toolshed/core');
  const definitions = tools.map((tool: AnyTool) => {
    try {
      return describeTool(tool, plugin.name);
    } catch (error) {
      throw new PhaseError('validate', describeThrown(error));
    }
  });
  return { tools: tools as AnyTool[], definitions };
}
