import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { AnyPlugin, AnyTool, Exposure, PluginInstance, ToolDefinition } from '@toolshed/core';
import { describeThrown, isPluginError, isToolName, PluginError, resolveEnvReferences, TOOL_NAME_RULE } from '@toolshed/core/contract';
import { coreMismatch, describeCoreMismatch } from './compat.js';
import { loadConfig } from './config.js';
import { ConfigError, pluginLabel } from './errors.js';
import { importAndInstantiate, instantiate } from './load.js';
import { readManifestField, readManifestFile, type ManifestTool } from './manifest.js';
import { findPackage, isDirectory, isPackageName, isPathSpec, packageEntry, readPackageJson, type PackageJson } from './package.js';
import { declaredButMissing, type DeclaredDependency } from './missing.js';
import { findProjectRoot } from './root.js';
import type { HostOptions, PluginEntry, PluginOptionsInput, PluginReport, PluginSource } from './types.js';

/** One tool of a plugin: its name in the plugin's code and what the model sees (renamed). */
export interface PlannedTool {
  original: string;
  definition: ToolDefinition;
  timeoutMs?: number;
}

/** Everything the host knows about one plugin. */
export interface PluginRecord {
  report: PluginReport;
  explicit: boolean;
  rename: Record<string, string>;
  options?: Record<string, unknown>;
  /** A plugin object handed over in code. */
  plugin?: AnyPlugin;
  /** Where its code is: a package (dir + package.json) or a module file. */
  packageDir?: string;
  pkg?: PackageJson;
  moduleFile?: string;
  /** Set when its tools come from the static manifest, so its code waits for the first call. */
  manifestTools?: ManifestTool[];
  /** Set when its code was run at startup. */
  instance?: PluginInstance;
  tools: PlannedTool[];
  loading?: Promise<Loaded>;
}

/** A manifest plugin whose code has loaded: the instance, and its tools by their name in its code (renamed). */
export interface Loaded {
  instance: PluginInstance;
  byName: Map<string, AnyTool>;
}

export interface Plan {
  cwd: string;
  configFile?: string;
  /** The config file's exposure setting, checked. */
  exposure?: Exposure;
  records: PluginRecord[];
  warnings: string[];
}

interface NormalizedEntry<TSpec> {
  spec: TSpec;
  options?: PluginOptionsInput;
  rename: Record<string, string>;
}

function normalizeEntry<TSpec>(entry: PluginEntry<TSpec>): NormalizedEntry<TSpec> {
  if (Array.isArray(entry)) {
    const [spec, options] = entry as readonly [TSpec, PluginOptionsInput?];
    return { spec, ...(options ? { options } : {}), rename: {} };
  }
  if (typeof entry === 'object' && entry !== null && 'plugin' in entry && !('apiVersion' in entry)) {
    const { plugin, options, rename } = entry as { plugin: TSpec; options?: PluginOptionsInput; rename?: Record<string, string> };
    return { spec: plugin, ...(options ? { options } : {}), rename: rename ?? {} };
  }
  return { spec: entry as TSpec, rename: {} };
}

function newRecord(source: PluginSource, spec: string, explicit: boolean, rename: Record<string, string>): PluginRecord {
  return {
    report: { name: spec, source, spec, tools: [], status: 'loaded', imported: false, warnings: [] },
    explicit,
    rename,
    tools: [],
  };
}

export function fail(record: PluginRecord, error: unknown): void {
  record.report.error = isPluginError(error)
    ? { phase: error.phase, message: error.message, ...(error.tool ? { tool: error.tool } : {}), ...(error.field ? { field: error.field } : {}) }
    : { phase: 'import', message: describeThrown(error) };
  record.report.status = record.explicit ? 'failed' : 'skipped';
}

function failed(record: PluginRecord): boolean {
  return record.report.error !== undefined;
}

/** Keep what a plugin's code built (for plugins without a static manifest). */
function useInstance(record: PluginRecord, instance: PluginInstance): void {
  record.instance = instance;
  record.tools = record.instance.definitions.map((definition, index) => {
    const timeoutMs = record.instance!.tools[index]!.timeoutMs;
    return { original: definition.name, definition, ...(timeoutMs !== undefined ? { timeoutMs } : {}) };
  });
}

async function importNow(record: PluginRecord, file: string, cwd: string): Promise<void> {
  const instance = await importAndInstantiate(file, record.options, cwd, () => (record.report.imported = true));
  if (record.report.name === record.report.spec && !record.pkg) record.report.name = instance.plugin.name;
  useInstance(record, instance);
}

/** A peer range that misses the running core shows wherever the plugin is listed, not only once its code loads. */
async function checkCoreRange(record: PluginRecord): Promise<void> {
  const mismatch = await coreMismatch(record.pkg!.peerDependencies);
  if (!mismatch) return;
  record.report.coreMismatch = mismatch;
  record.report.warnings.push(describeCoreMismatch(mismatch));
}

/** Resolve, read the manifest and (when there is none) run a plugin named by package or path. */
async function prepareSpec(record: PluginRecord, spec: string, baseDir: string, cwd: string, resolveOptions: () => void): Promise<void> {
  if (isPathSpec(spec)) {
    const target = path.resolve(baseDir, spec);
    record.report.path = target;
    if (!isDirectory(target)) {
      try {
        readFileSync(target);
      } catch {
        throw new PluginError({ phase: 'resolve' }, `${target} does not exist; fix the path (relative paths start from the config file's folder).`);
      }
      record.moduleFile = target;
    } else {
      record.packageDir = target;
    }
  } else if (!record.packageDir) {
    if (!isPackageName(spec)) throw new PluginError({ phase: 'resolve' }, `"${spec}" is neither a package name nor a relative path (start paths with ./).`);
    const found = findPackage(spec, cwd);
    if (!found) {
      throw new PluginError({ phase: 'resolve' }, `package "${spec}" is not installed in ${cwd}; install it (npm install ${spec}) or fix the name.`);
    }
    record.packageDir = found.dir;
    record.report.path = found.dir;
    record.pkg = found.pkg;
  }
  if (record.packageDir) {
    const pkg = record.pkg ?? readPackageJson(record.packageDir);
    record.pkg = pkg;
    if (typeof pkg.name === 'string') record.report.name = pkg.name;
    if (typeof pkg.version === 'string') record.report.version = pkg.version;
    await checkCoreRange(record);
    resolveOptions();
    if (pkg.toolshed !== undefined) {
      const field = readManifestField(pkg.toolshed);
      record.report.tools = [...field.tools];
      if (field.manifest) {
        record.manifestTools = readManifestFile(record.packageDir, { ...field, manifest: field.manifest }).tools;
        record.tools = record.manifestTools.map((tool) => ({
          original: tool.definition.name,
          definition: tool.definition,
          ...(tool.timeoutMs !== undefined ? { timeoutMs: tool.timeoutMs } : {}),
        }));
        return;
      }
      record.report.warnings.push('its package.json "toolshed" field names no generated manifest, so its code is imported at startup.');
    } else {
      record.report.warnings.push('its package.json has no "toolshed" manifest, so its code is imported at startup.');
    }
    await importNow(record, await packageEntry(record.packageDir, pkg), cwd);
    return;
  }
  resolveOptions();
  await importNow(record, record.moduleFile!, cwd);
}

function applyRenames(records: PluginRecord[], globalRename: Record<string, string>, warnings: string[]): void {
  const taken = new Map<string, PluginRecord>();
  const usedGlobal = new Set<string>();
  for (const record of records) {
    if (failed(record)) continue;
    try {
      const originals = new Set(record.tools.map((tool) => tool.original));
      const unknown = Object.keys(record.rename).filter((name) => !originals.has(name));
      if (unknown.length > 0) {
        throw new PluginError({ phase: 'register' }, `rename names ${unknown.join(', ')}, which it does not offer; its tools are ${[...originals].join(', ')}.`);
      }
      const renamed = record.tools.map((tool) => {
        const fromGlobal = globalRename[tool.original];
        if (fromGlobal !== undefined) usedGlobal.add(tool.original);
        const name = record.rename[tool.original] ?? fromGlobal ?? tool.original;
        if (!isToolName(name)) {
          throw new PluginError({ phase: 'register' }, `cannot rename ${tool.original} to ${JSON.stringify(name)}: a tool name is ${TOOL_NAME_RULE}.`);
        }
        return { ...tool, definition: { ...tool.definition, name } };
      });
      for (const tool of renamed) {
        const owner = taken.get(tool.definition.name);
        if (owner) {
          throw new PluginError({ phase: 'register' }, `tool "${tool.definition.name}" is offered by both ${pluginLabel(owner.report)} and ${pluginLabel(record.report)}. ` +
              `Rename one in toolshed.config.json, e.g. {"plugin": "${record.report.spec}", "rename": {"${tool.original}": "<new name>"}}.`,
          );
        }
      }
      for (const tool of renamed) taken.set(tool.definition.name, record);
      record.tools = renamed;
      record.report.tools = renamed.map((tool) => tool.definition.name);
    } catch (error) {
      fail(record, error);
    }
  }
  for (const name of Object.keys(globalRename)) {
    if (!usedGlobal.has(name)) warnings.push(`rename: no loaded plugin offers a tool named "${name}"; the rename does nothing.`);
  }
}

function declaredDependencies(cwd: string): DeclaredDependency[] {
  const file = path.join(cwd, 'package.json');
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
    throw new ConfigError(file, `The project's ${file} is not valid JSON (${(error as Error).message}); fix it so its dependencies can be read.`);
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
  const cwd = options.cwd !== undefined ? path.resolve(options.cwd) : findProjectRoot(process.cwd());
  const env = options.env ?? process.env;
  const inCode = options.plugins !== undefined;
  const loaded = loadConfig(cwd, options.config ?? (inCode ? false : undefined));
  const config = loaded?.config ?? {};
  const discover = options.discover ?? (inCode ? false : (config.discover ?? true));
  const records: PluginRecord[] = [];
  const warnings: string[] = [];

  const prepare = async (record: PluginRecord, entry: NormalizedEntry<unknown>, configName: string, baseDir: string) => {
    try {
      // After the package is found, so that an error names it with its version.
      const resolveOptions = () => {
        if (entry.options !== undefined) record.options = resolveEnvReferences(entry.options, env, configName) as Record<string, unknown>;
      };
      if (typeof entry.spec === 'string') {
        await prepareSpec(record, entry.spec, baseDir, cwd, resolveOptions);
      } else {
        resolveOptions();
        record.report.imported = true;
        const instance = await instantiate(entry.spec, record.options, cwd, 'the plugin handed to createHost');
        record.plugin = instance.plugin;
        useInstance(record, instance);
      }
    } catch (error) {
      fail(record, error);
    }
    records.push(record);
  };

  for (const raw of options.plugins ?? []) {
    const entry = normalizeEntry<unknown>(raw);
    const spec = typeof entry.spec === 'string' ? entry.spec : String((entry.spec as { name?: unknown })?.name ?? '(unnamed plugin)');
    await prepare(newRecord('code', spec, true, entry.rename), entry, 'the createHost options', cwd);
  }
  for (const raw of config.plugins ?? []) {
    const entry = normalizeEntry<string>(raw);
    await prepare(newRecord('config', entry.spec, true, entry.rename), entry, loaded!.label, loaded!.baseDir);
  }

  // A plugin named twice is one mistake to fix; discovery quietly defers to the explicit entry.
  const seen = new Map<string, PluginRecord>();
  for (const record of records) {
    const earlier = seen.get(record.report.name);
    if (earlier && !failed(record)) {
      fail(record, new PluginError({ phase: 'register' }, `it is named twice (as ${JSON.stringify(earlier.report.spec)} and ${JSON.stringify(record.report.spec)}); keep one entry.`));
    } else if (!earlier) seen.set(record.report.name, record);
  }

  if (discover) {
    const named = new Set(records.map((record) => record.report.spec));
    const missing: DeclaredDependency[] = [];
    for (const dependency of declaredDependencies(cwd)) {
      const { name } = dependency;
      if (seen.has(name) || named.has(name) || !isPackageName(name)) continue;
      const record = newRecord('dependency', name, false, {});
      try {
        const found = findPackage(name, cwd);
        if (!found) {
          missing.push(dependency);
          continue;
        }
        record.pkg = found.pkg;
        record.packageDir = found.dir;
        record.report.path = found.dir;
      } catch (error) {
        fail(record, error);
        records.push(record);
        continue;
      }
      if (record.pkg.toolshed === undefined) continue;
      await prepare(record, { spec: name, rename: {} }, loaded?.label ?? 'toolshed.config.json', cwd);
    }
    for (const [name, error] of declaredButMissing(cwd, missing)) {
      const record = newRecord('dependency', name, false, {});
      fail(record, error);
      records.push(record);
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
  return records.map((record) => structuredClone(record.report));
}
