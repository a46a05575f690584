import type { AnyPlugin, AnyTool, ToolRegistry } from '@toolshed/core';
import { checkCodeAgainstManifest, describeThrown, isContractError, PluginError } from '@toolshed/core/contract';
import { HostError, pluginLabel } from './errors.js';
import { importAndInstantiate } from './load.js';
import { packageEntry } from './package.js';
import { fail, plan, snapshot, type Loaded, type Plan, type PluginRecord } from './plan.js';
import type { CheckedEntries, Host, HostOptions, Inspection, PluginEntry } from './types.js';

/**
 * HostOptions whose `plugins` are checked one by one: `[plugin, options]` must give options its
 * schema accepts, and no option it does not know.
 */
export type CreateHostOptions<TPlugins extends readonly PluginEntry<AnyPlugin | string>[]> = HostOptions & {
  plugins?: CheckedEntries<TPlugins>;
};

/**
 * What the host knows without running plugin code: the report and every tool's
 * definition, from the static manifests. Imports neither plugins nor @toolshed/core
 * when every plugin has a manifest, so listings stay cheap.
 */
export async function inspectPlugins(options: HostOptions = {}): Promise<Inspection> {
  const result = await plan(options);
  // Only what can be known without running plugin code: a named plugin's options are checked by createHost.
  if (anyFailed(result)) throw new HostError(snapshot(result.records));
  // The plan is thrown away here, so its objects can be handed out without copies.
  const inspection: Inspection = {
    cwd: result.cwd,
    plugins: result.records.map((record) => record.report),
    tools: loadedRecords(result).flatMap((record) => record.tools.map((tool) => tool.definition)),
    warnings: result.warnings,
  };
  if (result.configFile) inspection.configFile = result.configFile;
  if (result.exposure) inspection.exposure = result.exposure;
  return inspection;
}

function anyFailed(result: Plan): boolean {
  return result.records.some((record) => record.report.status === 'failed');
}

/** Close every plugin instance built so far; one failing to close must not keep the others open. */
async function closeTools(result: Plan): Promise<void> {
  await Promise.allSettled(
    result.records.map(async (record) => {
      if (record.instance) return record.instance.close();
      const loaded = record.loading ? await record.loading.catch(() => undefined) : undefined;
      return loaded?.instance.close();
    }),
  );
}

function loadedRecords(result: Plan): PluginRecord[] {
  return result.records.filter((record) => record.report.status === 'loaded');
}

function rename(tool: AnyTool, name: string): AnyTool {
  return tool.name === name ? tool : { ...tool, name };
}

/** Import a manifest plugin's code on the first call of one of its tools, and check it against the manifest. */
function loadDeferred(record: PluginRecord, cwd: string): Promise<Loaded> {
  record.loading ??= (async () => {
    try {
      const instance = await importAndInstantiate(await packageEntry(record.packageDir!, record.pkg!), record.options, cwd, () => (record.report.imported = true));
      try {
        checkCodeAgainstManifest(record.manifestTools!, instance);
      } catch (error) {
        await instance.close();
        throw error;
      }
      const byName = new Map<string, AnyTool>();
      record.tools.forEach((planned, index) => byName.set(planned.original, rename(instance.tools[index]!, planned.definition.name)));
      return { instance, byName };
    } catch (error) {
      fail(record, error);
      record.report.status = 'failed';
      const { phase, message } = record.report.error!;
      throw new Error(`plugin ${pluginLabel(record.report)} could not be loaded (${phase}): ${message}`);
    }
  })();
  return record.loading;
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
  const registry: ToolRegistry = new ToolRegistry({ ...(result.exposure ? { exposure: result.exposure } : {}), ...options.registry });
  for (const record of loadedRecords(result)) {
    const origin = pluginLabel(record.report);
    try {
      record.tools.forEach((planned, index) => {
        if (record.instance) {
          registry.register(rename(record.instance.tools[index]!, planned.definition.name), { origin });
        } else {
          registry.registerDeferred(
            {
              definition: planned.definition,
              ...(planned.timeoutMs !== undefined ? { timeoutMs: planned.timeoutMs } : {}),
              load: async () => (await loadDeferred(record, result.cwd)).byName.get(planned.original)!,
            },
            { origin },
          );
        }
      });
    } catch (error) {
      fail(record, new PluginError({ phase: 'register' }, describeThrown(error)));
    }
  }
  registry.seal();
  // Plugins the user named must fail startup, not their first call: their code
  // (options check included) runs now. Only discovered plugins wait for a call.
  const named = loadedRecords(result).filter((record) => record.explicit && record.manifestTools !== undefined);
  await Promise.allSettled(named.map((record) => loadDeferred(record, result.cwd)));
  if (anyFailed(result)) {
    // The harness never gets these tools, so nothing else would release what they hold.
    await closeTools(result);
    throw new HostError(snapshot(result.records));
  }
  return {
    cwd: result.cwd,
    registry,
    get plugins() {
      return snapshot(result.records);
    },
    warnings: [...result.warnings],
    close: () => closeTools(result),
    async loadAll() {
      const waiting = loadedRecords(result).filter((record) => record.manifestTools !== undefined);
      await Promise.allSettled(waiting.map((record) => loadDeferred(record, result.cwd)));
      return snapshot(result.records);
    },
  };
}
