import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { exposureProblems, isRecord } from '@toolshed/core/contract';
import { ConfigError } from './errors.js';
import { mcpServersProblems } from './mcp/entries.js';
import { prototypeKeyPaths, prototypeKeyProblem } from './prototype-keys.js';
import type { HostConfig } from './types.js';

export const CONFIG_FILE = 'toolshed.config.json';

export interface LoadedConfig {
  config: HostConfig;
  /** Absolute path of the file, when the config came from one. */
  file?: string;
  /** How errors name the config: the file name, or "the host options". */
  label: string;
  /** Relative plugin paths are resolved from here. */
  baseDir: string;
}

/** Read and check the config: the named file (which must exist), the project's toolshed.config.json if present, or the object given. */
export function loadConfig(cwd: string, given: string | HostConfig | false | undefined): LoadedConfig | undefined {
  if (given === false) return undefined;
  if (typeof given === 'object' && given !== null) {
    checkConfig(given, 'the host options', 'config');
    return { config: given, label: 'the host options', baseDir: cwd };
  }
  const file = resolve(cwd, given ?? CONFIG_FILE);
  if (given === undefined && !existsSync(file)) return undefined;
  const text = readText(file);
  let config: unknown;
  try {
    config = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ConfigError(file, `${file} is not valid JSON (${reason}). Fix the file, or pass another with --config.`);
  }
  checkConfig(config, file, file);
  return { config, file, label: basename(file), baseDir: dirname(file) };
}

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === 'ENOENT' ? 'it does not exist' : code === 'EISDIR' ? 'it is a directory' : String((error as Error).message);
    throw new ConfigError(file, `Cannot read config file ${file}: ${reason}.`);
  }
}

function checkRename(rename: unknown, at: string, problems: string[]): void {
  if (!isRecord(rename)) {
    problems.push(`${at} must be an object mapping tool names to new names, e.g. {"read_file": "fs_read"}`);
    return;
  }
  for (const [from, to] of Object.entries(rename)) {
    if (typeof to !== 'string') problems.push(`${at}[${JSON.stringify(from)}] must be the new tool name (a string)`);
  }
}

function checkEntry(entry: unknown, at: string, problems: string[]): void {
  if (typeof entry === 'string') {
    if (entry.trim() === '') problems.push(`${at} is empty; write a package name or a relative path`);
    return;
  }
  if (Array.isArray(entry)) {
    if (entry.length < 1 || entry.length > 2 || typeof entry[0] !== 'string') {
      problems.push(`${at} must be ["package-or-path", {options}]`);
    } else if (entry.length === 2 && !isRecord(entry[1])) {
      problems.push(`${at}[1] (the options of ${entry[0]}) must be an object`);
    }
    return;
  }
  if (isRecord(entry)) {
    if (typeof entry.plugin !== 'string') problems.push(`${at}.plugin must be a package name or a relative path`);
    if (entry.options !== undefined && !isRecord(entry.options)) problems.push(`${at}.options must be an object`);
    if (entry.rename !== undefined) checkRename(entry.rename, `${at}.rename`, problems);
    for (const key of Object.keys(entry)) {
      if (!['plugin', 'options', 'rename'].includes(key)) problems.push(`${at} has unknown key "${key}"; use plugin, options, rename`);
    }
    return;
  }
  problems.push(
    `${at} must be a package name, a relative path, ["name", {options}] or {"plugin": "name", "options": {...}, "rename": {...}}`,
  );
}

type KeyPath = (string | number)[];

/** The maps keyed by tool names: `rename` (top level, a plugin's, a server's) and a server's `annotations`. */
function namesTools(path: KeyPath): boolean {
  if (path.length === 1) return path[0] === 'rename';
  if (path.length !== 3 || typeof path[1] !== 'number') return false;
  return (
    (path[0] === 'plugins' && path[2] === 'rename') || (path[0] === 'mcpServers' && (path[2] === 'rename' || path[2] === 'annotations'))
  );
}

/** A refused key, and for one inside a plugin's options, which plugin's. */
function prototypeKeyAt(config: Record<string, unknown>, path: KeyPath): string {
  const problem = prototypeKeyProblem(path);
  if (path[0] !== 'plugins' || !Array.isArray(config.plugins)) return problem;
  const entry: unknown = config.plugins[path[1] as number];
  const spec = Array.isArray(entry) ? entry[0] : isRecord(entry) ? entry.plugin : undefined;
  return typeof spec === 'string' ? problem.replace(':', ` (in the entry of ${JSON.stringify(spec)}):`) : problem;
}

/** Collect every problem at once so one edit fixes the file. */
function checkConfig(config: unknown, label: string, file: string): asserts config is HostConfig {
  const problems: string[] = [];
  if (!isRecord(config)) {
    problems.push('the config must be a JSON object like {"plugins": ["@toolshed/tool-echo"]}');
  } else {
    for (const key of Object.keys(config)) {
      if (!['plugins', 'mcpServers', 'servers', 'inputs', 'rename', 'discover', 'exposure', '$schema'].includes(key)) {
        problems.push(`unknown key "${key}"; use plugins, mcpServers, rename, discover, exposure`);
      }
    }
    if (config.plugins !== undefined) {
      if (!Array.isArray(config.plugins)) problems.push('"plugins" must be an array');
      else config.plugins.forEach((entry, index) => checkEntry(entry, `plugins[${index}]`, problems));
    }
    if (config.mcpServers !== undefined) problems.push(...mcpServersProblems(config.mcpServers));
    // VS Code's .vscode/mcp.json, pasted: its "servers" are mcpServers, and its "inputs" are never read.
    if (config.servers !== undefined && config.mcpServers !== undefined) {
      problems.push('"servers" (VS Code\'s name) and "mcpServers" are both given; keep one, so each server is written once');
    } else if (config.servers !== undefined) problems.push(...mcpServersProblems(config.servers, 'servers'));
    if (config.inputs !== undefined && !Array.isArray(config.inputs))
      problems.push('"inputs" (VS Code\'s prompted inputs) must be an array');
    if (config.rename !== undefined) checkRename(config.rename, 'rename', problems);
    if (config.discover !== undefined && typeof config.discover !== 'boolean') problems.push('"discover" must be true or false');
    if (config.exposure !== undefined) problems.push(...exposureProblems(config.exposure));
    for (const path of prototypeKeyPaths(config, namesTools)) problems.push(prototypeKeyAt(config, path));
  }
  if (problems.length > 0) {
    throw new ConfigError(file, `${label} is not a valid Toolshed config:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
  }
}
