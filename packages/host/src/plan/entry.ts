import type { PluginEntry, PluginOptionsInput, PluginSource } from '../types.js';

/** How the user named a plugin, read once from its config or code entry. */
export interface PlanEntry {
  /** Where it was named: in code, in the config file, or found among the dependencies. */
  named: PluginSource;
  /** A package name or path, or (in code) the plugin object. */
  spec: unknown;
  /** The spec as the report shows it: the string, or the plugin object's name. */
  label: string;
  /** Named in code or config: its failures fail startup. Found by discovery: skipped with a warning. */
  explicit: boolean;
  options?: PluginOptionsInput;
  rename: Record<string, string>;
}

function labelOf(spec: unknown): string {
  return typeof spec === 'string' ? spec : String((spec as { name?: unknown } | null)?.name ?? '(unnamed plugin)');
}

/** Read one entry of `plugins` (`spec`, `[spec, options]` or `{plugin, options, rename}`). */
export function readEntry(entry: PluginEntry<unknown>, named: PluginSource): PlanEntry {
  let spec: unknown = entry;
  let options: PluginOptionsInput | undefined;
  let rename: Record<string, string> = {};
  if (Array.isArray(entry)) {
    [spec, options] = entry as unknown as readonly [unknown, PluginOptionsInput?];
  } else if (typeof entry === 'object' && entry !== null && 'plugin' in entry && !('apiVersion' in entry)) {
    const object = entry as { plugin: unknown; options?: PluginOptionsInput; rename?: Record<string, string> };
    ({ plugin: spec, options } = object);
    rename = object.rename ?? {};
  }
  return { named, spec, label: labelOf(spec), explicit: named !== 'dependency', ...(options ? { options } : {}), rename };
}
