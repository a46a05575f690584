import type * as v from 'valibot';
import { API_VERSION } from './api-version.js';
import type { AnySchema, AnyTool } from './tool.js';

/** What a plugin's tool factory learns about the host it is loaded into. */
export interface PluginHostInfo {
  /** The project root the host was started in. */
  cwd: string;
}

export type PluginTools<TOptions> =
  | readonly AnyTool[]
  | ((options: TOptions, host: PluginHostInfo) => readonly AnyTool[] | Promise<readonly AnyTool[]>);

export interface Plugin<TOptionsSchema extends AnySchema | undefined = AnySchema | undefined> {
  readonly name: string;
  readonly apiVersion: number;
  /** Host-side configuration (paths, credentials, limits); never shown to a model. */
  readonly options?: TOptionsSchema;
  readonly tools: PluginTools<TOptionsSchema extends AnySchema ? v.InferOutput<TOptionsSchema> : undefined>;
}

// biome-ignore lint/suspicious/noExplicitAny: a host holds plugins of every options type
export type AnyPlugin = Plugin<any>;

/** Define a plugin: the default export of a tool plugin package. */
export function definePlugin<TOptionsSchema extends AnySchema | undefined = undefined>(
  plugin: Plugin<TOptionsSchema>,
): Plugin<TOptionsSchema> {
  if (typeof plugin?.name !== 'string' || plugin.name.length === 0) {
    throw new TypeError('definePlugin: "name" must be a non-empty string (use the package name).');
  }
  if (!Number.isInteger(plugin.apiVersion)) {
    throw new TypeError(`definePlugin(${plugin.name}): "apiVersion" must be an integer; this core speaks ${API_VERSION}.`);
  }
  return plugin;
}
