import { isRecord } from '@toolshed/core/contract';
import { ConfigError } from '../errors.js';
import type { PluginOptionsInput, PluginSource } from '../types.js';

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

/** What is wrong with a `rename` map, written at `at`; none when it maps names to names. */
export function renameProblems(rename: unknown, at: string): string[] {
  if (!isRecord(rename)) return [`${at} must be an object mapping tool names to new names, e.g. {"read_file": "fs_read"}`];
  return Object.entries(rename)
    .filter(([, to]) => typeof to !== 'string')
    .map(([from]) => `${at}[${JSON.stringify(from)}] must be the new tool name (a string)`);
}

function labelOf(spec: unknown): string {
  return typeof spec === 'string' ? spec : String((spec as { name?: unknown } | null)?.name ?? '(unnamed plugin)');
}

/** In code a plugin object stands for itself; `{plugin, ...}` without `apiVersion` is the object form of an entry. */
const isObjectForm = (entry: Record<string, unknown>, named: PluginSource) =>
  named !== 'code' || ('plugin' in entry && !('apiVersion' in entry));

/**
 * Decode one entry of `plugins` (`spec`, `[spec, options]` or `{plugin, options, rename}`), from
 * the config file or from code, where `spec` may also be a plugin object: the entry, or every
 * problem with it in the words of where it is written (`at`).
 */
export function decodeEntry(entry: unknown, at: string, named: PluginSource): PlanEntry | string[] {
  const specProblem = (spec: unknown, where: string) =>
    named !== 'code' && typeof spec !== 'string' ? [`${where} must be a package name or a relative path`] : [];
  const decoded = (spec: unknown, options: unknown, rename: unknown = {}): PlanEntry => ({
    named,
    spec,
    label: labelOf(spec),
    explicit: named !== 'dependency',
    ...(options !== undefined ? { options: options as PluginOptionsInput } : {}),
    rename: rename as Record<string, string>,
  });
  if (typeof entry === 'string') {
    return entry.trim() === '' ? [`${at} is empty; write a package name or a relative path`] : decoded(entry, undefined);
  }
  if (Array.isArray(entry)) {
    if (entry.length < 1 || entry.length > 2 || specProblem(entry[0], at).length > 0 || entry[0] === undefined) {
      return [`${at} must be ["package-or-path", {options}]`];
    }
    if (entry[1] !== undefined && !isRecord(entry[1])) return [`${at}[1] (the options of ${labelOf(entry[0])}) must be an object`];
    return decoded(entry[0], entry[1]);
  }
  if (isRecord(entry) && isObjectForm(entry, named)) {
    const problems = [
      ...specProblem(entry.plugin, `${at}.plugin`),
      ...(entry.options !== undefined && !isRecord(entry.options) ? [`${at}.options must be an object`] : []),
      ...(entry.rename !== undefined ? renameProblems(entry.rename, `${at}.rename`) : []),
      ...Object.keys(entry)
        .filter((key) => !['plugin', 'options', 'rename'].includes(key))
        .map((key) => `${at} has unknown key "${key}"; use plugin, options, rename`),
    ];
    return problems.length > 0 ? problems : decoded(entry.plugin, entry.options, entry.rename);
  }
  if (named === 'code' && typeof entry === 'object' && entry !== null) return decoded(entry, undefined);
  return [`${at} must be a package name, a relative path, ["name", {options}] or {"plugin": "name", "options": {...}, "rename": {...}}`];
}

/** A package found among the project's dependencies. */
export function dependencyEntry(name: string): PlanEntry {
  return decodeEntry(name, name, 'dependency') as PlanEntry;
}

/** Decode `createHost({plugins})`, refusing it with every problem at once, as a config file is. */
export function codeEntries(entries: readonly unknown[] | undefined): PlanEntry[] {
  const problems: string[] = [];
  const decoded: PlanEntry[] = [];
  (entries ?? []).forEach((entry, index) => {
    const result = decodeEntry(entry, `plugins[${index}]`, 'code');
    if (Array.isArray(result)) problems.push(...result);
    else decoded.push(result);
  });
  if (problems.length > 0) {
    throw new ConfigError('createHost', `the createHost options are not valid:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
  }
  return decoded;
}
