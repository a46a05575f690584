import type { ApprovalSetting, Exposure, ToolDefinition, ToolRegistry } from '@toolshed/core';
import {
  createHost,
  inspectPlugins,
  isConfigError,
  isHostError,
  pluginLabel,
  type Host,
  type HostOptions,
  type PluginReport,
} from '@toolshed/host';
import { printError } from './print.js';
import { UsageError } from './usage-error.js';
const { statSync } = process.getBuiltinModule('node:fs');
const { resolve } = process.getBuiltinModule('node:path');

/** The global --cwd and --config options, set before any command runs. */
let project: { cwd?: string; config?: string } = {};

export function setProjectOptions(options: { cwd?: string; config?: string }): void {
  project = options;
}

/** A server's slow start is said on stderr while the command waits (a first `npx -y` start installs). */
const progress = (line: string) => printError(`toolshed: ${line}\n`);

function hostOptions(): HostOptions {
  // --config is relative to where the command was typed, like any file argument.
  const options: HostOptions = { progress, ...(project.config !== undefined ? { config: resolve(project.config) } : {}) };
  // Without --cwd the host finds the project root upward from here, as npm does.
  if (project.cwd === undefined) return options;
  const cwd = resolve(project.cwd);
  if (!statSync(cwd, { throwIfNoEntry: false })?.isDirectory()) throw new UsageError(`--cwd ${project.cwd}: there is no such directory.`);
  return { ...options, cwd };
}

/** A config file that cannot be used is a usage error (exit 2), named by the host's message. */
async function usingHost<T>(run: (options: HostOptions) => Promise<T>): Promise<T> {
  const options = hostOptions();
  try {
    return await run(options);
  } catch (error) {
    if (isConfigError(error)) throw new UsageError(error.message);
    throw error;
  }
}

/**
 * Skipped plugins, plugins built for another core and host-wide problems go to stderr, so a
 * listing is never silently short and a tool that may misbehave says so where it is used.
 */
function warn(plugins: PluginReport[], warnings: string[]): void {
  for (const warning of warnings) printError(`toolshed: warning: ${warning}\n`);
  for (const plugin of plugins) {
    if (plugin.status === 'skipped' && plugin.error) {
      printError(
        `toolshed: warning: skipped plugin ${pluginLabel(plugin)} (${plugin.error.phase}): ${plugin.error.message} (see toolshed plugins)\n`,
      );
    } else if (plugin.status === 'loaded' && plugin.coreMismatch) {
      const { range, running } = plugin.coreMismatch;
      printError(
        `toolshed: warning: plugin ${pluginLabel(plugin)} asks for @toolshed/core ${JSON.stringify(range)} but runs with ${running}; its tools may misbehave. Install a version of the plugin made for @toolshed/core ${running}.\n`,
      );
    }
  }
}

/**
 * No tool left while MCP servers the config names were skipped (they could not start, or did
 * not answer in time): the command fails naming each and why, rather than succeed with nothing.
 */
function failIfOnlySkippedServers(plugins: PluginReport[], tools: number): void {
  if (tools > 0) return;
  const skipped = plugins.filter((plugin) => plugin.source === 'mcp' && plugin.status !== 'loaded' && plugin.error);
  if (skipped.length === 0) return;
  const lines = skipped.map((plugin) => `  - ${pluginLabel(plugin)}: ${plugin.error!.message}`);
  throw new Error(
    `no tools: ${skipped.length === 1 ? 'the MCP server' : `${skipped.length} MCP servers`} of the config could not be used:
${lines.join('\n')}\n` + 'Fix the server, or raise its "startTimeoutMs" if it is only slow; `toolshed plugins` shows each one.',
  );
}

export interface ToolOrigins {
  /** The plugin (name and version) a tool came from. */
  pluginOf(tool: string): { name: string; version?: string; source?: PluginReport['source'] } | undefined;
}

function origins(plugins: PluginReport[]): ToolOrigins['pluginOf'] {
  const byTool = new Map<string, { name: string; version?: string; source?: PluginReport['source'] }>();
  for (const plugin of plugins) {
    // A skipped or failed plugin still names the tools it offers, but serves none of them:
    // a name it lost in a conflict belongs to the plugin that was loaded.
    if (plugin.status !== 'loaded') continue;
    const { name, version, source } = plugin;
    for (const tool of plugin.tools) byTool.set(tool, { name, ...(version ? { version } : {}), ...(source === 'mcp' ? { source } : {}) });
  }
  return (tool) => byTool.get(tool);
}

/** The tools as a model sees them, from the plugins' static manifests: no plugin code is imported. */
export async function inspectTools(): Promise<{ tools: ToolDefinition[]; exposure?: Exposure } & ToolOrigins> {
  const inspection = await usingHost((options) => inspectPlugins(options));
  failIfOnlySkippedServers(inspection.plugins, inspection.tools.length);
  warn(inspection.plugins, inspection.warnings);
  return {
    tools: inspection.tools,
    pluginOf: origins(inspection.plugins),
    ...(inspection.exposure ? { exposure: inspection.exposure } : {}),
  };
}

/**
 * Hosts a command made, until the process ends: a command that fails after making one (a
 * transcript it cannot open, a port in use) closes them in reportError, so no MCP server the
 * host started keeps the process from exiting with its error.
 */
const made = new Set<Host>();

/** Close every host a command made (closing is idempotent: a command may have closed its own). */
export async function closeMadeHosts(): Promise<void> {
  const hosts = [...made];
  made.clear();
  await Promise.allSettled(hosts.map((host) => host.close()));
}

/** A sealed registry with every plugin's tools; plugin code loads on a tool's first call. */
export async function loadTools(
  options: { approve?: ApprovalSetting } = {},
): Promise<{ registry: ToolRegistry; host: Host } & ToolOrigins> {
  const host = await usingHost((hostOptions) =>
    createHost({ ...hostOptions, ...(options.approve ? { registry: { approve: options.approve } } : {}) }),
  );
  made.add(host);
  failIfOnlySkippedServers(host.plugins, host.registry.list().length);
  warn(host.plugins, host.warnings);
  return { registry: host.registry, host, pluginOf: origins(host.plugins) };
}

/**
 * Every plugin's report, with each one's code imported so that its faults show. MCP servers
 * are started only with `refresh` (each once, rewriting its cached manifest).
 */
export async function pluginReport(
  options: { refresh?: boolean } = {},
): Promise<{ plugins: PluginReport[]; warnings: string[]; failed: boolean }> {
  try {
    const host = await usingHost((hostOptions) => createHost({ ...hostOptions, ...(options.refresh ? { refreshServers: true } : {}) }));
    const plugins = await host.loadAll();
    // A server's child process would otherwise keep the command from exiting.
    await host.close();
    return { plugins, warnings: host.warnings, failed: plugins.some((plugin) => plugin.status === 'failed') };
  } catch (error) {
    // The report is the point of this command: show it even when startup fails.
    if (isHostError(error)) return { plugins: error.plugins, warnings: [], failed: true };
    throw error;
  }
}
