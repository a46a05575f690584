import { brand, hasBrand } from '@toolshed/core/contract';
import type { PluginReport } from './types.js';

// Errors are told apart by a process-wide brand, not instanceof: a global CLI or a
// nested install can load two copies of host, and each sees the other's errors.
const CONFIG_ERROR = Symbol.for('toolshed.ConfigError');
const HOST_ERROR = Symbol.for('toolshed.HostError');

/** The config file (or the project's package.json) cannot be used as it is: a usage error, not a plugin fault. */
export class ConfigError extends Error {
  override name = 'ConfigError';
  constructor(
    readonly file: string,
    message: string,
  ) {
    super(message);
  }
}

/** Plugins the user named failed; every failure is listed, and `plugins` holds the whole report. */
export class HostError extends Error {
  override name = 'HostError';
  constructor(readonly plugins: PluginReport[]) {
    const failed = plugins.filter((plugin) => plugin.status === 'failed');
    const lines = failed.map((plugin) => `  - ${describeFailure(plugin)}`);
    super(
      `${failed.length} plugin${failed.length === 1 ? '' : 's'} you named could not be loaded:\n${lines.join('\n')}\n` +
        `Fix or remove ${failed.length === 1 ? 'it' : 'them'} in your config (or in code) and start again.`,
    );
  }
}

brand(ConfigError.prototype, CONFIG_ERROR);
brand(HostError.prototype, HOST_ERROR);

/** True for a `ConfigError` from any copy of `@toolshed/host` loaded in this process. */
export function isConfigError(value: unknown): value is ConfigError {
  return hasBrand(value, CONFIG_ERROR);
}

/** True for a `HostError` from any copy of `@toolshed/host` loaded in this process. */
export function isHostError(value: unknown): value is HostError {
  return hasBrand(value, HOST_ERROR);
}

/** How messages name a plugin: `name@version`, or `mcp server "name"` for a mounted MCP server. */
export function pluginLabel(
  plugin: Pick<PluginReport, 'name' | 'version'> & { source?: PluginReport['source']; server?: unknown },
): string {
  if (plugin.source === 'mcp' || plugin.server !== undefined) return `mcp server "${plugin.name}"`;
  return plugin.version ? `${plugin.name}@${plugin.version}` : plugin.name;
}

export function describeFailure(plugin: PluginReport): string {
  const where = plugin.spec !== plugin.name ? ` (${plugin.spec})` : '';
  return plugin.error
    ? `${pluginLabel(plugin)}${where} [${plugin.error.phase}]: ${plugin.error.message}`
    : `${pluginLabel(plugin)}${where}`;
}
