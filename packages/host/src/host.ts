import type { AnyPlugin, PluginInstance, ToolRegistry } from '@toolshed/core';
import { checkCodeAgainstManifest, describeThrown, isContractError, PluginError } from '@toolshed/core/contract';
import { HostError, pluginLabel } from './errors.js';
import { loadSource } from './plan/load-source.js';
import { plan, snapshot, type Plan } from './plan/plan.js';
import { leaveOutTaken } from './plan/renames.js';
import { fail, reportOf, type PluginRecord } from './plan/record.js';
import { isLive, toolOf, type LiveState } from './plan/state.js';
import { closeMounts, plannedState } from './plan/mcp.js';
import type { CheckedEntries, Host, HostOptions, Inspection, PluginEntry } from './types.js';

/**
 * HostOptions whose `plugins` are checked one by one: `[plugin, options]` must give options its
 * schema accepts, and no option it does not know.
 */
export type CreateHostOptions<TPlugins extends readonly PluginEntry<AnyPlugin | string>[]> = HostOptions & {
  plugins?: CheckedEntries<TPlugins>;
};

type Live = PluginRecord & { state: LiveState };

function liveRecords(result: Plan): Live[] {
  return result.records.filter((record): record is Live => isLive(record.state));
}

function anyFailed(result: Plan): boolean {
  return snapshot(result.records).some((report) => report.status === 'failed');
}

/**
 * What the host knows without running plugin code: the report and every tool's
 * definition, from the static manifests. Imports neither plugins nor @toolshed/core's
 * main entry when every plugin has a manifest, so listings stay cheap.
 */
export async function inspectPlugins(options: HostOptions = {}): Promise<Inspection> {
  const result = await plan(options);
  const plugins = snapshot(result.records);
  // A server started here only to list its tools (it had no cache) is not kept running.
  await closeMounts(result.records);
  // Only what can be known without running plugin code: a named plugin's options are checked by createHost.
  if (anyFailed(result)) throw new HostError(plugins);
  const inspection: Inspection = {
    cwd: result.cwd,
    plugins,
    tools: liveRecords(result).flatMap((record) => record.state.tools.map((tool) => tool.definition)),
    warnings: result.warnings,
  };
  if (result.configFile) inspection.configFile = result.configFile;
  if (result.exposure) inspection.exposure = result.exposure;
  return inspection;
}

/** The instance a plugin's code built, if it has been or is being built. */
async function instanceOf(record: PluginRecord): Promise<PluginInstance | undefined> {
  const { state } = record;
  switch (state.status) {
    case 'loaded':
    case 'failed':
      return state.instance;
    case 'loading':
      return state.instance.catch(() => undefined);
    case 'planned':
      return undefined;
  }
}

/** Close every plugin instance built so far; one failing to close must not keep the others open. */
async function closeTools(result: Plan): Promise<void> {
  await Promise.allSettled([closeMounts(result.records), ...result.records.map(async (record) => (await instanceOf(record))?.close())]);
}

/** The error a call to a failed plugin's tool gets: the registry words it for the model, callers read its fields. */
function loadFailure(record: PluginRecord): PluginError {
  const { error } = reportOf(record);
  const { phase = 'import', message = 'it failed', tool, field } = error ?? {};
  return new PluginError(
    { phase, plugin: record.about.name, tool, field },
    `plugin ${pluginLabel(record.about)} could not be loaded (${phase}): ${message}`,
  );
}

/** Run a manifest plugin's code on the first call of one of its tools, checked against its manifest. */
function loadDeferred(record: PluginRecord, cwd: string): Promise<PluginInstance> {
  const { state } = record;
  switch (state.status) {
    case 'loaded':
      return Promise.resolve(state.instance);
    case 'loading':
      return state.instance;
    case 'failed':
      return Promise.reject(loadFailure(record));
    case 'planned':
      break;
  }
  const { source, manifest, tools } = state;
  const instance = (async () => {
    try {
      const built = await loadSource(source, record.options, cwd, () => (record.about.imported = true), manifest);
      try {
        checkCodeAgainstManifest(manifest, built);
      } catch (error) {
        await built.close();
        throw error;
      }
      record.state = { status: 'loaded', source, tools, instance: built };
      return built;
    } catch (error) {
      fail(record, error, 'load');
      throw loadFailure(record);
    }
  })();
  record.state = { status: 'loading', source, manifest, tools, instance };
  return instance;
}

/** Register every live record's tools; `failed` hears each record whose tools could not all be registered. */
function register(
  registry: ToolRegistry,
  records: readonly PluginRecord[],
  cwd: string,
  failed: (record: PluginRecord, error: PluginError) => void,
): void {
  for (const record of records) {
    if (!isLive(record.state)) continue;
    const origin = pluginLabel(record.about);
    const state = record.state;
    try {
      state.tools.forEach((planned, index) => {
        if (state.status === 'loaded') {
          registry.register(toolOf(state.instance, state.tools, index), { origin });
        } else {
          registry.registerDeferred(
            {
              definition: planned.definition,
              ...(planned.timeoutMs !== undefined ? { timeoutMs: planned.timeoutMs } : {}),
              load: async () => toolOf(await loadDeferred(record, cwd), state.tools, index),
            },
            { origin },
          );
        }
      });
    } catch (error) {
      const fields = isContractError(error) && error.tool ? { tool: error.tool, ...(error.field ? { field: error.field } : {}) } : {};
      failed(record, new PluginError({ phase: 'register', plugin: record.about.name, ...fields }, describeThrown(error)));
    }
  }
}

/**
 * A mounted server that changes its tools while connected: its mount adopts the new list, and
 * `changed` gets a new sealed registry of every plugin with that list. The records of the first
 * registry are left as they were (they serve it), so each server's new state is a record of its own.
 */
function followServerChanges(
  result: Plan,
  build: (records: readonly PluginRecord[]) => ToolRegistry,
  changed: (registry: ToolRegistry) => void,
  warn: (line: string) => void,
): void {
  const current = [...result.records];
  current.forEach((record, index) => {
    const { state } = record;
    if (!isLive(state) || state.source.kind !== 'mcp') return;
    const { source } = state;
    const { mount } = source;
    // The names the config-wide renames gave its tools, kept for the new list (the entry's own
    // `rename` is the mount's, applied to what it lists).
    const renamedAs = new Map(state.tools.map((tool) => [tool.original, tool.definition.name]));
    mount.onToolsChanged(() => {
      // refresh() lists once more and makes tool() serve the new list; a failure is the mount's to log.
      void mount.refresh().then(
        (definitions) => {
          const about = { ...record.about };
          const next = plannedState(definitions, source, about);
          const renamed = next.tools.map((tool) => {
            const name = renamedAs.get(tool.original) ?? tool.original;
            return name === tool.definition.name ? tool : { ...tool, definition: { ...tool.definition, name } };
          });
          // A name another tool holds stays its own: the newcomer is left out, and said so.
          const taken = new Map<string, PluginRecord>();
          current.forEach((other, at) => {
            if (at !== index && isLive(other.state)) for (const tool of other.state.tools) taken.set(tool.definition.name, other);
          });
          // Its own tools too: a new tool may take the name another of its tools was renamed to.
          leaveOutTaken(record, next, renamed, taken, warn);
          current[index] = { ...record, about, state: next };
          changed(build(current));
        },
        () => undefined,
      );
    });
  });
}

/**
 * Find, check and register every plugin into a sealed registry. Plugins named in
 * code or config that fail reject this with a HostError listing them all; plugins
 * found only among the dependencies are skipped with a warning in the report.
 */
export async function createHost<const TPlugins extends readonly PluginEntry<AnyPlugin | string>[] = []>(
  options: CreateHostOptions<TPlugins> = {},
): Promise<Host> {
  const result = await plan(options);
  const { ToolRegistry } = await import('@toolshed/core');
  // The config file's exposure applies unless the harness sets its own in code.
  const registryOptions = { ...(result.exposure ? { exposure: result.exposure } : {}), ...options.registry };
  const registry: ToolRegistry = new ToolRegistry(registryOptions);
  register(registry, result.records, result.cwd, (record, error) => fail(record, error));
  registry.seal();
  // Options the user wrote must fail startup, not the first call, and only a plugin's code can
  // check them: a plugin given options runs now. Every other plugin with a manifest, named
  // (by package name or path) or discovered, runs on the first call of one of its tools.
  const named = liveRecords(result).filter((record) => record.options !== undefined && record.state.status === 'planned');
  await Promise.allSettled(named.map((record) => loadDeferred(record, result.cwd)));
  if (anyFailed(result)) {
    // The harness never gets these tools, so nothing else would release what they hold.
    await closeTools(result);
    throw new HostError(snapshot(result.records));
  }
  const registryListeners = new Set<(registry: ToolRegistry) => void>();
  const warnings = [...result.warnings];
  followServerChanges(
    result,
    (records) => {
      const next = new ToolRegistry(registryOptions);
      register(next, records, result.cwd, (record, error) => warnings.push(`${pluginLabel(record.about)}: ${error.message}`));
      return next.seal();
    },
    (next) => {
      for (const listener of registryListeners) listener(next);
    },
    (line) => warnings.push(line),
  );
  return {
    cwd: result.cwd,
    registry,
    onRegistryChanged(listener) {
      registryListeners.add(listener);
      return () => void registryListeners.delete(listener);
    },
    get plugins() {
      return snapshot(result.records);
    },
    warnings,
    close: () => closeTools(result),
    async loadAll() {
      const waiting = liveRecords(result).filter((record) => record.state.status !== 'loaded');
      await Promise.allSettled(waiting.map((record) => loadDeferred(record, result.cwd)));
      return snapshot(result.records);
    },
  };
}
