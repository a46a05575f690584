import { isRecord } from '@toolshed/core/contract';
import type { LoadedConfig } from '../config.js';
import { ConfigError } from '../errors.js';
import type { HostOptions } from '../types.js';
import type { ServerEntry } from './source.js';

const SERVER_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * What can be said of `mcpServers` without @toolshed/mcp: a list of objects, each with its
 * own valid `name`. Each entry's fields are checked by the runtime's `checkServerConfig`
 * when the server is mounted, so the two never disagree about what a field may hold.
 */
export function mcpServersProblems(value: unknown): string[] {
  if (!Array.isArray(value)) {
    return [
      '"mcpServers" must be an array of servers, e.g. [{"name": "files", "command": "npx", "args": ["@modelcontextprotocol/server-filesystem", "."]}]',
    ];
  }
  const problems: string[] = [];
  const seen = new Map<string, number>();
  value.forEach((entry, index) => {
    const at = `mcpServers[${index}]`;
    if (!isRecord(entry)) {
      problems.push(`${at} must be an object with "name" and either "command" (stdio) or "url" (Streamable HTTP)`);
      return;
    }
    if (typeof entry.name !== 'string' || !SERVER_NAME.test(entry.name)) {
      problems.push(
        `${at}.name must be 1-64 letters, digits, _ or - (it names the server in reports and errors); got ${JSON.stringify(entry.name) ?? 'nothing'}`,
      );
      return;
    }
    const earlier = seen.get(entry.name);
    if (earlier !== undefined)
      problems.push(`${at}.name "${entry.name}" is also the name of mcpServers[${earlier}]; give each server its own name`);
    else seen.set(entry.name, index);
  });
  return problems;
}

/** The MCP servers named in code (first) and in the config file, each with where it was written. */
export function serverEntries(options: HostOptions, loaded: LoadedConfig | undefined): ServerEntry[] {
  const entries: ServerEntry[] = [];
  if (options.mcpServers !== undefined) {
    const problems = mcpServersProblems(options.mcpServers);
    if (problems.length > 0) {
      throw new ConfigError(
        '(createHost options)',
        `the createHost options are not valid:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`,
      );
    }
    options.mcpServers.forEach((entry, index) => {
      entries.push({
        entry: { ...entry },
        where: `createHost options mcpServers[${index}] "${entry.name}"`,
        configName: 'the createHost options',
      });
    });
  }
  (loaded?.config.mcpServers ?? []).forEach((entry, index) => {
    entries.push({ entry: { ...entry }, where: `${loaded!.label} mcpServers[${index}] "${entry.name}"`, configName: loaded!.label });
  });
  return entries;
}

/** A server's stderr and the runtime's notices go to the harness's logger, when it gave one. */
export function mcpLog(options: HostOptions): { log?: (line: string) => void } {
  const logger = options.registry?.logger;
  return logger ? { log: (line) => logger.debug(line) } : {};
}
