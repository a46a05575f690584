import * as v from 'valibot';
import { isContractError } from './contract-error.js';
import { describeTool } from './definition.js';
import type { ToolDefinition } from './tool-definition.js';
import { resolveEnvReferences } from './env-references.js';
import { optionIssues } from './issues.js';
import { PluginError } from './plugin-error.js';
import { checkPluginShape, describeValue } from './plugin-shape.js';
import type { AnyPlugin, Plugin } from './plugin.js';
import { describeThrown } from './thrown.js';
import type { AnyTool } from './tool.js';

/** A plugin turned into tools: what the host registers, manifest generation writes and the kit checks. */
export interface PluginInstance {
  readonly plugin: AnyPlugin;
  /** The tools as the plugin built them, in its order. */
  readonly tools: readonly AnyTool[];
  /** What a model sees of each tool, in the same order. */
  readonly definitions: readonly ToolDefinition[];
  /** Call every tool's `close()` once; one that throws does not keep the others open. */
  close(): Promise<void>;
}

export interface InstantiateOptions {
  /** The plugin's options. With `env`, as a user writes them: `{"env": "NAME"}` stands for a variable. */
  options?: unknown;
  /** Resolve `{"env": "NAME"}` references from here. Left out, options are taken as they are (already resolved). */
  env?: Readonly<Record<string, string | undefined>>;
  /** Where the user wrote the options, named when a variable is unset. Default `toolshed.config.json`. */
  configName?: string;
  /** The project root the tools factory is told it runs in. */
  cwd: string;
  /** How messages name the value when it is not a plugin. Default `the plugin`. */
  what?: string;
}

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
async function parseOptions(plugin: AnyPlugin, options: unknown): Promise<unknown> {
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

function closer(tools: readonly AnyTool[]): () => Promise<void> {
  let closing: Promise<void> | undefined;
  return () => {
    closing ??= Promise.allSettled(tools.map(async (tool) => tool?.close?.())).then(() => undefined);
    return closing;
  };
}

/**
 * Turn a plugin into tools, by the rules every caller shares: its shape and apiVersion, its
 * options (`{"env"}` references, the no-options rule, the schema, with redacted issues), its
 * tools factory, and each tool's definition. Throws a PluginError with the phase, the plugin,
 * and the tool and field at fault; tools built before a failure are closed.
 */
export async function instantiatePlugin(value: unknown, options: InstantiateOptions): Promise<PluginInstance> {
  const plugin = checkPluginShape(value, options.what ?? 'the plugin');
  const given =
    options.env === undefined
      ? options.options
      : resolveEnvReferences(options.options, options.env, options.configName ?? 'toolshed.config.json');
  const parsed = await parseOptions(plugin, given);
  let built: unknown;
  try {
    built = typeof plugin.tools === 'function' ? await plugin.tools(parsed, { cwd: options.cwd }) : plugin.tools;
  } catch (error) {
    throw new PluginError(
      { phase: 'options', plugin: plugin.name },
      `its tools could not be created with these options: ${describeThrown(error)}`,
      { cause: error },
    );
  }
  if (!Array.isArray(built)) {
    throw new PluginError(
      { phase: 'validate', plugin: plugin.name, field: 'tools' },
      `its tools function returned ${describeValue(built)} instead of a list of tools.`,
    );
  }
  const tools = [...(built as AnyTool[])];
  const close = closer(tools);
  try {
    const definitions = tools.map((tool) => {
      try {
        return describeTool(tool, plugin.name);
      } catch (error) {
        if (!isContractError(error)) throw error;
        const { tool, field } = error;
        throw new PluginError({ phase: 'validate', plugin: plugin.name, tool, field }, error.message, { cause: error });
      }
    });
    return { plugin, tools, definitions, close };
  } catch (error) {
    await close();
    throw error;
  }
}
