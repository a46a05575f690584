import type { PluginPhase, PluginReport } from './types.js';

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

export function pluginLabel(plugin: Pick<PluginReport, 'name' | 'version'>): string {
  return plugin.version ? `${plugin.name}@${plugin.version}` : plugin.name;
}

export function describeFailure(plugin: PluginReport): string {
  const where = plugin.spec !== plugin.name ? ` (${plugin.spec})` : '';
  return plugin.error
    ? `${pluginLabel(plugin)}${where} [${plugin.error.phase}]: ${plugin.error.message}`
    : `${pluginLabel(plugin)}${where}`;
}

/** A failure inside one plugin's pipeline, carrying the phase it happened in. */
export class PhaseError extends Error {
  constructor(
    readonly phase: PluginPhase,
    message: string,
  ) {
    super(message);
  }
}

export function describeThrown(error: unknown): string {
  if (error instanceof Error) {
    const name = error.name && error.name !== 'Error' ? `${error.name}: ` : '';
    return `${name}${error.message}`;
  }
  return String(error);
}
