import type { Exposure } from '@toolshed/core';
import { PluginError } from '@toolshed/core/contract';
import { loadConfig } from '../config.js';
import { ConfigError } from '../errors.js';
import { declaredButMissing, type DeclaredDependency } from '../missing.js';
import { findPackage, isPackageName, type PackageJson } from '../package.js';
import { findProjectRoot } from '../root.js';
import type { HostOptions, PluginReport } from '../types.js';
import { codeEntries, dependencyEntry, type PlanEntry } from './entry.js';
import { prepare, type PrepareContext } from './prepare.js';
import { fail, failedState, newAbout, reportOf, type PluginRecord } from './record.js';
import { applyRenames } from './renames.js';
import { resolveSpec } from './resolve.js';
import type { Source } from './source.js';
import { isLive } from './state.js';
import { mcpLog, serverEntries } from '../mcp/entries.js';
import { loadMountRuntime } from '../mcp/runtime.js';
import { locateServer } from './mcp.js';
const { readFileSync } = process.getBuiltinModule('node:fs');
const { join, resolve } = process.getBuiltinModule('node:path');

export interface Plan {
  cwd: string;
  configFile?: string;
  /** The config file's exposure setting, checked. */
  exposure?: Exposure;
  records: PluginRecord[];
  warnings: string[];
}

/** Plan one plugin: find it, then prepare it; a failure becomes its state, never a throw. */
async function planRecord(
  entry: PlanEntry,
  locate: () => Source | Promise<Source>,
  context: PrepareContext,
  isolateAll = false,
): Promise<PluginRecord> {
  const about = newAbout(entry);
  try {
    const isolate = entry.named !== 'mcp' && (entry.isolate ?? isolateAll);
    const where =
      entry.named === 'dependency'
        ? `${context.configName} "plugins" (an entry of its own: {"plugin": ${JSON.stringify(entry.label)}, "grant": {...}})`
        : `"${entry.at}.grant" of ${context.configName}`;
    const isolation = isolate ? { isolation: { grant: entry.grant ?? {}, where } } : {};
    const { state, options } = await prepare(await locate(), entry.options, about, { ...context, ...isolation });
    return { entry, about, state, ...(options ? { options } : {}) };
  } catch (error) {
    return { entry, about, state: failedState(about, error, undefined, 'startup') };
  }
}

function declaredDependencies(cwd: string): DeclaredDependency[] {
  const file = join(cwd, 'package.json');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return []; // No package.json: nothing is declared, so nothing is discovered.
  }
  let pkg: PackageJson;
  try {
    pkg = JSON.parse(text) as PackageJson;
  } catch (error) {
    throw new ConfigError(
      file,
      `The project's ${file} is not valid JSON (${(error as Error).message}); fix it so its dependencies can be read.`,
    );
  }
  if (typeof pkg !== 'object' || pkg === null || Array.isArray(pkg)) {
    throw new ConfigError(file, `The project's ${file} is not a JSON object; fix it so its dependencies can be read.`);
  }
  const declared = new Map<string, DeclaredDependency>();
  for (const field of ['dependencies', 'devDependencies'] as const) {
    const names = pkg[field];
    if (typeof names !== 'object' || names === null) continue;
    for (const name of Object.keys(names)) if (!declared.has(name)) declared.set(name, { name, field });
  }
  return [...declared.values()];
}

/** Find and check every plugin; run the code only of those without a static manifest. */
export async function plan(options: HostOptions): Promise<Plan> {
  // A cwd given in so many words is the root; otherwise the root is found upward, as npm finds its prefix.
  const cwd = options.cwd !== undefined ? resolve(options.cwd) : findProjectRoot(process.cwd());
  const env = options.env ?? process.env;
  const inCode = options.plugins !== undefined || options.mcpServers !== undefined;
  const loaded = loadConfig(cwd, options.config ?? (inCode ? false : undefined));
  const config = loaded?.config ?? {};
  const discover = options.discover ?? (inCode ? false : (config.discover ?? true));
  const isolateAll = options.isolate ?? config.isolate ?? false;
  const logged = mcpLog(options);
  const records: PluginRecord[] = [];
  const warnings: string[] = [];

  for (const entry of codeEntries(options.plugins)) {
    const { spec } = entry;
    const locate = (): Source => (typeof spec === 'string' ? resolveSpec(spec, cwd, cwd) : { kind: 'object', plugin: spec });
    records.push(await planRecord(entry, locate, { cwd, env, configName: 'the createHost options', ...logged }, isolateAll));
  }
  for (const entry of loaded?.entries ?? []) {
    records.push(
      await planRecord(
        entry,
        () => resolveSpec(entry.spec as string, loaded!.baseDir, cwd),
        { cwd, env, configName: loaded!.label, ...logged },
        isolateAll,
      ),
    );
  }

  // A plugin named twice is one mistake to fix; discovery quietly defers to the explicit entry.
  const seen = new Map<string, PluginRecord>();
  for (const record of records) {
    const earlier = seen.get(record.about.name);
    if (earlier && isLive(record.state)) {
      fail(
        record,
        new PluginError(
          { phase: 'register' },
          `it is named twice (as ${JSON.stringify(earlier.entry.label)} and ${JSON.stringify(record.entry.label)}); keep one entry.`,
        ),
      );
    } else if (!earlier) seen.set(record.about.name, record);
  }

  // After the check for plugins named twice (a server's name is not a package's). Where a tool name
  // is offered twice, applyRenames settles plugins first whatever this order: a server's tool loses.
  const servers = serverEntries(options, loaded);
  if (servers.length > 0) {
    const context = {
      cwd,
      env,
      runtime: loadMountRuntime(cwd),
      isolateAll,
      ...logged,
      ...(options.progress ? { progress: options.progress } : {}),
    };
    // Servers start at once, not one after another: a cold start is one server's wait, not the sum.
    const planned = servers.map((server) => {
      const entry: PlanEntry = { named: 'mcp', spec: server.entry, label: server.entry.name, explicit: true, rename: {}, at: server.where };
      const prepareContext = { cwd, env, configName: server.configName, refreshServers: options.refreshServers === true };
      return planRecord(entry, () => locateServer(server, context), prepareContext);
    });
    records.push(...(await Promise.all(planned)));
  }

  if (discover) {
    const named = new Set(records.filter((record) => record.entry.named !== 'mcp').map((record) => record.entry.label));
    const missing: DeclaredDependency[] = [];
    const context = { cwd, env, configName: loaded?.label ?? 'toolshed.config.json', ...logged };
    for (const dependency of declaredDependencies(cwd)) {
      const { name } = dependency;
      if (seen.has(name) || named.has(name) || !isPackageName(name)) continue;
      const entry = dependencyEntry(name);
      let found: ReturnType<typeof findPackage>;
      try {
        found = findPackage(name, cwd);
      } catch (error) {
        records.push({ entry, about: newAbout(entry), state: failedState(newAbout(entry), error, undefined, 'startup') });
        continue;
      }
      if (!found) {
        missing.push(dependency);
        continue;
      }
      // Only packages that say they are plugins are taken from the dependencies.
      if (found.pkg.toolshed === undefined) continue;
      const source: Source = { kind: 'package', dir: found.dir, pkg: found.pkg };
      records.push(await planRecord(entry, () => source, context, isolateAll));
    }
    for (const [name, error] of declaredButMissing(cwd, missing)) {
      const entry = dependencyEntry(name);
      const about = newAbout(entry);
      records.push({ entry, about, state: failedState(about, error, undefined, 'startup') });
    }
  }

  applyRenames(records, { ...config.rename, ...options.rename }, warnings);
  const result: Plan = { cwd, records, warnings };
  if (loaded?.file) result.configFile = loaded.file;
  if (config.exposure !== undefined) result.exposure = config.exposure;
  // Failures are not thrown here: createHost first loads the other plugins you named, so that
  // one missing plugin does not hide another's invalid options.
  return result;
}

export function snapshot(records: PluginRecord[]): PluginReport[] {
  return records.map(reportOf);
}
