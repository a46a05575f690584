import { describeThrown, isPluginError, PluginError, type ResolvedPermissions } from '@toolshed/core/contract';
import type { McpMount } from '@toolshed/mcp/mount';
import type { CoreMismatch, McpServerReport, PluginReport } from '../types.js';
import type { PlanEntry } from './entry.js';
import { isLive, type PluginState } from './state.js';

/** What the host learns about a plugin while resolving it, kept whatever becomes of it. */
export interface About {
  /** The plugin's name: its package name, its plugin object's name, or how it was named until either is known. */
  name: string;
  version?: string;
  /** The package directory or module file, when it came from disk. */
  path?: string;
  /** Whether its module has been imported. */
  imported: boolean;
  /** The tools its package.json manifest field lists, before its code or manifest file is read. */
  offered: string[];
  warnings: string[];
  coreMismatch?: CoreMismatch;
  /** Its declared permissions, once read. */
  permissions?: ResolvedPermissions;
  /** Whether it is to run isolated. */
  isolated: boolean;
  /** An MCP server: how it is reached, whether its tools came from the cache, and its mount once made (for its live state). */
  server?: Omit<McpServerReport, 'state'> & { mount?: McpMount };
}

/** Everything the host knows about one plugin: how it was named, what it learned, and its state. */
export interface PluginRecord {
  readonly entry: PlanEntry;
  readonly about: About;
  /** Its options with `{"env"}` references resolved (read once, when the plugin was planned). */
  readonly options?: Record<string, unknown>;
  state: PluginState;
}

export function newAbout(entry: PlanEntry): About {
  const about: About = { name: entry.label, imported: false, offered: [], warnings: [], isolated: false };
  if (entry.named === 'mcp') about.server = { transport: 'url' in (entry.spec as object) ? 'http' : 'stdio', cached: false };
  return about;
}

function asPluginError(error: unknown): PluginError {
  return isPluginError(error) ? error : new PluginError({ phase: 'import' }, describeThrown(error), { cause: error });
}

/** The tool names a plugin offers in a state: as the model sees them, or as it offered them before it failed. */
function toolNames(about: About, state: PluginState | undefined): string[] {
  if (state === undefined) return [...about.offered];
  return isLive(state) ? state.tools.map((tool) => tool.definition.name) : state.tools;
}

/** The failed state for an error, from whatever state (if any) the plugin was in. */
export function failedState(
  about: About,
  error: unknown,
  previous: PluginState | undefined,
  when: 'startup' | 'load' | 'connect',
): PluginState {
  const instance = previous?.status === 'loaded' || previous?.status === 'failed' ? previous.instance : undefined;
  return { status: 'failed', error: asPluginError(error), tools: toolNames(about, previous), when, ...(instance ? { instance } : {}) };
}

export function fail(record: PluginRecord, error: unknown, when: 'startup' | 'load' = 'startup'): void {
  record.state = failedState(record.about, error, record.state, when);
}

/** The report of one plugin: plain data, made fresh from the record. */
export function reportOf(record: PluginRecord): PluginReport {
  const { entry, about, state } = record;
  const report: PluginReport = {
    name: about.name,
    source: entry.named,
    spec: entry.label,
    tools: toolNames(about, state),
    status:
      state.status !== 'failed' ? 'loaded' : (entry.explicit && state.when !== 'connect') || state.when === 'load' ? 'failed' : 'skipped',
    imported: about.imported,
    warnings: [...about.warnings],
    isolated: about.isolated,
  };
  if (about.permissions) report.permissions = structuredClone(about.permissions);
  if (about.version !== undefined) report.version = about.version;
  if (about.path !== undefined) report.path = about.path;
  if (about.coreMismatch) report.coreMismatch = { ...about.coreMismatch };
  if (about.server) {
    const { transport, cached, mount } = about.server;
    report.server = { transport, cached, state: mount ? structuredClone(mount.state()) : { status: 'idle' } };
  }
  if (state.status === 'failed') {
    const { phase, message, tool, field } = state.error;
    report.error = { phase, message, ...(tool !== undefined ? { tool } : {}), ...(field !== undefined ? { field } : {}) };
  }
  return report;
}
