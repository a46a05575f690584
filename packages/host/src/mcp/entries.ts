import { isRecord, SERVER_NAME_PATTERN as SERVER_NAME } from '@toolshed/core/contract';
import type { LoadedConfig } from '../loaded-config.js';
import { ConfigError } from '../errors.js';
import { grantProblems } from '../isolate/grant.js';
import { prototypeKeyPaths, prototypeKeyProblem } from '../prototype-keys.js';
import type { HostOptions } from '../types.js';

/** One `mcpServers` entry as given, with where it was written (for errors). */
export interface ServerEntry {
  entry: Record<string, unknown> & { name: string };
  /** Where the entry is: `toolshed.config.json mcpServers[1] "files"`. */
  where: string;
  /** What the user edits to change it: the config file's name, or "the createHost options". */
  configName: string;
}

/** One server of an `mcpServers` value: the entry with its name, and where it is written (`mcpServers[1]`, `mcpServers "github"`). */
interface Listed {
  entry: Record<string, unknown> & { name: string };
  at: string;
}

/**
 * The servers of `mcpServers` (or VS Code's `servers`): a list of entries with `name`, or an
 * object keyed by name as Claude Desktop, Cursor, Claude Code and VS Code write it, whose key is
 * the entry's name. What can be said without @toolshed/mcp: objects, each with a valid name of
 * its own. Each entry's fields are checked by the runtime's `checkServerConfig` when the server
 * is mounted, so the two never disagree about what a field may hold.
 */
function listServers(value: unknown, key: string): { servers: Listed[]; problems: string[] } {
  const servers: Listed[] = [];
  const problems: string[] = [];
  const seen = new Map<string, string>();
  const add = (entry: Record<string, unknown>, name: unknown, at: string) => {
    if (typeof name !== 'string' || !SERVER_NAME.test(name)) {
      problems.push(
        `${at}${Array.isArray(value) ? '.name' : ''} must be 1-64 letters, digits, _ or - (it names the server in reports and errors); got ${JSON.stringify(name) ?? 'nothing'}`,
      );
      return;
    }
    if (entry.isolate !== undefined && typeof entry.isolate !== 'boolean') problems.push(`${at}.isolate must be true or false`);
    if (entry.grant !== undefined) problems.push(...grantProblems(entry.grant, `${at}.grant`));
    const earlier = seen.get(name);
    if (earlier !== undefined) problems.push(`${at}.name "${name}" is also the name of ${earlier}; give each server its own name`);
    else seen.set(name, at);
    servers.push({ entry: { ...entry, name }, at });
  };
  if (Array.isArray(value)) {
    value.forEach((entry, index) => {
      const at = `${key}[${index}]`;
      if (!isRecord(entry)) problems.push(`${at} must be an object with "name" and either "command" (stdio) or "url" (Streamable HTTP)`);
      else add(entry, entry.name, at);
    });
  } else if (isRecord(value)) {
    for (const [name, entry] of Object.entries(value)) {
      const at = `${key} ${JSON.stringify(name)}`;
      if (!isRecord(entry)) problems.push(`${at} must be an object with "command" (stdio) or "url" (Streamable HTTP)`);
      else if (entry.name !== undefined && entry.name !== name)
        problems.push(`${at} has "name" ${JSON.stringify(entry.name)}; in the object form the key is the name: leave "name" out`);
      else add(entry, name, at);
    }
  } else {
    problems.push(
      `"${key}" must be an object of servers by name, e.g. {"files": {"command": "npx", "args": ["@modelcontextprotocol/server-filesystem", "."]}}, or a list of them each with "name"`,
    );
  }
  return { servers, problems };
}

/**
 * Whether the keys at `path` (within an `mcpServers` value, list or object form) are a server's
 * tool names, which may be "constructor" or "__proto__": its `rename` and `annotations`.
 */
export function namesServerTools(path: readonly (string | number)[]): boolean {
  return path.length === 2 && (path[1] === 'rename' || path[1] === 'annotations');
}

/** Every problem of a config's `mcpServers` (or `servers`, VS Code's name for it). */
export function mcpServersProblems(value: unknown, key = 'mcpServers'): string[] {
  return listServers(value, key).problems;
}

/** Where an entry is, naming the server: `toolshed.config.json mcpServers[1] "files"`, `... mcpServers "files"`. */
function placed(where: string, at: string, name: string): string {
  return at.includes('"') ? `${where} ${at}` : `${where} ${at} "${name}"`;
}

/** The MCP servers named in code (first) and in the config file, each with where it was written. */
export function serverEntries(options: HostOptions, loaded: LoadedConfig | undefined): ServerEntry[] {
  const entries: ServerEntry[] = [];
  if (options.mcpServers !== undefined) {
    const { servers, problems } = listServers(options.mcpServers, 'mcpServers');
    // The config file's are refused by its own check (config.ts), these here.
    for (const path of prototypeKeyPaths(options.mcpServers, namesServerTools)) problems.push(prototypeKeyProblem(path, ['mcpServers']));
    if (problems.length > 0) {
      throw new ConfigError(
        '(createHost options)',
        `the createHost options are not valid:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`,
      );
    }
    for (const { entry, at } of servers) {
      entries.push({ entry, where: placed('createHost options', at, entry.name), configName: 'the createHost options' });
    }
  }
  const config = loaded?.config;
  const key = config?.mcpServers === undefined && config?.servers !== undefined ? 'servers' : 'mcpServers';
  const given = config?.[key];
  if (given !== undefined) {
    for (const { entry, at } of listServers(given, key).servers) {
      entries.push({ entry, where: placed(loaded!.label, at, entry.name), configName: loaded!.label });
    }
  }
  return entries;
}

/** A server's stderr and the runtime's notices go to the harness's logger, when it gave one. */
export function mcpLog(options: HostOptions): { log?: (line: string) => void } {
  const logger = options.registry?.logger;
  return logger ? { log: (line) => logger.debug(line) } : {};
}
