import { isRecord } from '@toolshed/core/contract';
import { ConfigError } from '../errors.js';
import { type Grant, grantProblems } from '../isolate/grant.js';
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
  /** Its entry's `isolate`: run it in a sandboxed process (true), or in the host's (false) whatever the project's setting. */
  isolate?: boolean;
  /** Its entry's `grant`: what it may have when isolated. */
  grant?: Grant;
  /** Where the entry is written (`plugins[1]`), for messages that say what to edit. */
  at: string;
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

/**
 * Decode one entry of `plugins` (`spec`, `[spec, options]` or `{plugin, options, rename}`), from
 * the config file or from code, where `spec` may also be a plugin object (one with `apiVersion`
 * stands for itself): the entry, or every problem with it in the words of where it is written.
 */
export function decodeEntry(entry: unknown, at: string, named: PluginSource): PlanEntry | string[] {
  let [spec, options, rename, isolate, grant]: unknown[] = [entry];
  const problems: string[] = [];
  const notObject = (value: unknown) => value !== undefined && !isRecord(value);
  if (Array.isArray(entry)) {
    [spec, options] = entry;
    if (entry.length > 2 || spec === undefined || (named !== 'code' && typeof spec !== 'string')) {
      return [`${at} must be ["package-or-path", {options}]`];
    }
    if (notObject(options)) problems.push(`${at}[1] (the options of ${labelOf(spec)}) must be an object`);
  } else if (isRecord(entry) && (named !== 'code' || ('plugin' in entry && !('apiVersion' in entry)))) {
    ({ plugin: spec, options, rename, isolate, grant } = entry);
    if (named !== 'code' && typeof spec !== 'string') problems.push(`${at}.plugin must be a package name or a relative path`);
    if (notObject(options)) problems.push(`${at}.options must be an object`);
    if (rename !== undefined) problems.push(...renameProblems(rename, `${at}.rename`));
    if (isolate !== undefined && typeof isolate !== 'boolean') problems.push(`${at}.isolate must be true or false`);
    if (grant !== undefined) problems.push(...grantProblems(grant, `${at}.grant`));
    for (const key of Object.keys(entry)) {
      if (!['plugin', 'options', 'rename', 'isolate', 'grant'].includes(key))
        problems.push(`${at} has unknown key "${key}"; use plugin, options, rename, isolate, grant`);
    }
  } else if (typeof entry === 'string') {
    if (entry.trim() === '') return [`${at} is empty; write a package name or a relative path`];
  } else if (named !== 'code' || typeof entry !== 'object' || entry === null) {
    return [
      `${at} must be a package name, a relative path, ["name", {options}] or {"plugin": "name", "options": {...}, "rename": {...}, "isolate": true, "grant": {...}}`,
    ];
  }
  if (problems.length > 0) return problems;
  return {
    named,
    spec,
    label: labelOf(spec),
    explicit: named !== 'dependency',
    ...(options !== undefined ? { options: options as PluginOptionsInput } : {}),
    rename: (rename ?? {}) as Record<string, string>,
    ...(isolate !== undefined ? { isolate: isolate as boolean } : {}),
    ...(grant !== undefined ? { grant: grant as Grant } : {}),
    at,
  };
}

/** A package found among the project's dependencies. */
export function dependencyEntry(name: string): PlanEntry {
  return decodeEntry(name, name, 'dependency') as PlanEntry;
}

/** Decode `createHost({plugins})`, refusing it with every problem at once, as a config file is. */
export function codeEntries(entries: readonly unknown[] = []): PlanEntry[] {
  const decoded = entries.map((entry, index) => decodeEntry(entry, `plugins[${index}]`, 'code'));
  const problems = decoded.flatMap((entry) => (Array.isArray(entry) ? entry.map((problem) => `  - ${problem}`) : []));
  if (problems.length > 0) throw new ConfigError('createHost', `the createHost options are not valid:\n${problems.join('\n')}`);
  return decoded as PlanEntry[];
}
