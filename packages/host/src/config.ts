import { exposureProblems, isRecord } from '@toolshed/core/contract';
import { ConfigError } from './errors.js';
import { mcpServersProblems, namesServerTools } from './mcp/entries.js';
import type { LoadedConfig } from './loaded-config.js';
import { decodeEntry, renameProblems, type PlanEntry } from './plan/entry.js';
import { type KeyPath, prototypeKeyPaths, prototypeKeyProblem } from './prototype-keys.js';
import type { HostConfig } from './types.js';
const { existsSync, readFileSync } = process.getBuiltinModule('node:fs');
const { basename, dirname, resolve } = process.getBuiltinModule('node:path');

export const CONFIG_FILE = 'toolshed.config.json';

/** Read and check the config: the named file (which must exist), the project's toolshed.config.json if present, or the object given. */
export function loadConfig(cwd: string, given: string | HostConfig | false | undefined): LoadedConfig | undefined {
  if (given === false) return undefined;
  if (typeof given === 'object' && given !== null) {
    const entries = checkConfig(given, 'the host options', 'config');
    return { config: given, label: 'the host options', baseDir: cwd, entries };
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
  const entries = checkConfig(config, file, file);
  return { config: config as HostConfig, file, label: basename(file), baseDir: dirname(file), entries };
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

/** The maps keyed by tool names: `rename` (top level, a plugin's, a server's) and a server's `annotations`. */
function namesTools(path: KeyPath): boolean {
  if (path.length === 1) return path[0] === 'rename';
  if (path[0] === 'mcpServers' || path[0] === 'servers') return namesServerTools(path.slice(1));
  return path.length === 3 && path[0] === 'plugins' && typeof path[1] === 'number' && path[2] === 'rename';
}

/** A refused key, and for one inside a plugin's options, which plugin's. */
function prototypeKeyAt(entries: (PlanEntry | string[])[], path: KeyPath): string {
  const problem = prototypeKeyProblem(path);
  const entry = path[0] === 'plugins' ? entries[path[1] as number] : undefined;
  return entry && !Array.isArray(entry) ? problem.replace(':', ` (in the entry of ${JSON.stringify(entry.label)}):`) : problem;
}

/** Collect every problem at once so one edit fixes the file. */
function checkConfig(config: unknown, label: string, file: string): PlanEntry[] {
  const problems: string[] = [];
  let entries: (PlanEntry | string[])[] = [];
  if (!isRecord(config)) {
    problems.push('the config must be a JSON object like {"plugins": ["@toolshed/tool-echo"]}');
  } else {
    for (const key of Object.keys(config)) {
      if (!['plugins', 'mcpServers', 'servers', 'inputs', 'rename', 'discover', 'exposure', 'isolate', '$schema'].includes(key)) {
        problems.push(`unknown key "${key}"; use plugins, mcpServers, rename, discover, exposure, isolate`);
      }
    }
    if (config.plugins !== undefined) {
      if (!Array.isArray(config.plugins)) problems.push('"plugins" must be an array');
      else {
        entries = config.plugins.map((entry: unknown, index) => decodeEntry(entry, `plugins[${index}]`, 'config'));
        for (const entry of entries) if (Array.isArray(entry)) problems.push(...entry);
      }
    }
    if (config.mcpServers !== undefined) problems.push(...mcpServersProblems(config.mcpServers));
    // VS Code's .vscode/mcp.json, pasted: its "servers" are mcpServers, and its "inputs" are never read.
    if (config.servers !== undefined && config.mcpServers !== undefined) {
      problems.push('"servers" (VS Code\'s name) and "mcpServers" are both given; keep one, so each server is written once');
    } else if (config.servers !== undefined) problems.push(...mcpServersProblems(config.servers, 'servers'));
    if (config.inputs !== undefined && !Array.isArray(config.inputs))
      problems.push('"inputs" (VS Code\'s prompted inputs) must be an array');
    if (config.rename !== undefined) problems.push(...renameProblems(config.rename, 'rename'));
    if (config.discover !== undefined && typeof config.discover !== 'boolean') problems.push('"discover" must be true or false');
    if (config.isolate !== undefined && typeof config.isolate !== 'boolean') problems.push('"isolate" must be true or false');
    if (config.exposure !== undefined) problems.push(...exposureProblems(config.exposure));
    for (const path of prototypeKeyPaths(config, namesTools)) problems.push(prototypeKeyAt(entries, path));
  }
  if (problems.length > 0) {
    throw new ConfigError(file, `${label} is not a valid Toolshed config:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
  }
  return entries as PlanEntry[];
}
