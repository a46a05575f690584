import * as v from 'valibot';
import { optionIssues } from './issues.js';
import { PluginError } from './plugin-error.js';
import type { AnyPlugin, Plugin } from './plugin.js';

/** The options as the schema gave them back, or the PluginError that names every option at fault. */
function checked(plugin: AnyPlugin, result: v.SafeParseResult<v.GenericSchema>, prefix = ''): unknown {
  if (result.success) return result.output;
  const issues = optionIssues(result.issues);
  throw new PluginError(
    { phase: 'options', plugin: plugin.name, ...(issues.length === 1 ? { field: issues[0]!.field } : {}), issues },
    `${prefix}invalid options: ${issues.map((issue) => issue.message).join('; ')}.`,
  );
}

/** The no-options rule and the options schema: a plugin's options are parsed here, once. */
export async function parseOptions(plugin: AnyPlugin, options: unknown): Promise<unknown> {
  if (plugin.options === undefined) {
    const given = typeof options === 'object' && options !== null ? Object.keys(options) : [];
    if (given.length > 0) {
      throw new PluginError(
        { phase: 'options', plugin: plugin.name, ...(given.length === 1 ? { field: given[0]! } : {}) },
        `it takes no options, but was given ${given.join(', ')}. Remove them.`,
      );
    }
    return undefined;
  }
  return checked(plugin, await v.safeParseAsync(plugin.options, options ?? {}));
}

/**
 * A plugin's options checked by its own schema, for its tools made in code without a host
 * (`createReadFileTool(options)`): the host's check and words, the message led by the plugin's name.
 */
export function pluginOptions<TSchema extends v.GenericSchema>(
  plugin: Plugin<TSchema>,
  options: v.InferInput<TSchema>,
): v.InferOutput<TSchema> {
  return checked(plugin, v.safeParse(plugin.options as TSchema, options ?? {}), `${plugin.name}: `) as v.InferOutput<TSchema>;
}
