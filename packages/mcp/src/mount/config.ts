import { hasBrand, isRecord } from '@toolshed/core/contract';
import type { McpServerConfig, ToolMarks } from './api.js';
import { SERVER_NAME } from './server-name.js';

const COMMON_KEYS = ['name', 'include', 'exclude', 'rename', 'readOnlyTools', 'annotations', 'timeoutMs', 'startTimeoutMs', 'transport'];
const STDIO_KEYS = ['command', 'args', 'env', 'cwd'];
const HTTP_KEYS = ['url', 'headers'];
const MARK_KEYS = ['title', 'readOnly', 'destructive', 'idempotent', 'openWorld'];

const MCP_CONFIG_ERROR = Symbol.for('toolshed.McpConfigError');

/** A server entry that cannot be used, as fields: where it was written, which field, why. */
export class McpConfigError extends TypeError {
  readonly where: string;
  readonly field: string | undefined;
  readonly reason: string;
  constructor(where: string, field: string | undefined, reason: string) {
    super(`${where}${field === undefined ? '' : `: "${field}"`} ${reason}`);
    this.name = 'McpConfigError';
    this.where = where;
    this.field = field;
    this.reason = reason;
  }
}
Object.defineProperty(McpConfigError.prototype, MCP_CONFIG_ERROR, { value: true });

/** True for an `McpConfigError` from any copy of this package. */
export function isMcpConfigError(value: unknown): value is McpConfigError {
  return hasBrand(value, MCP_CONFIG_ERROR);
}

function stringList(where: string, field: string, value: unknown): string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string' || item === '')) {
    throw new McpConfigError(where, field, `must be an array of non-empty strings, got ${JSON.stringify(value)}.`);
  }
  return [...value];
}

function stringRecord(where: string, field: string, value: unknown, what: string): Record<string, string> | undefined {
  if (value === undefined) return undefined;
  if (!isRecord(value)) throw new McpConfigError(where, field, `must be an object of ${what}, got ${JSON.stringify(value)}.`);
  const out: Record<string, string> = {};
  for (const [key, item] of Object.entries(value)) {
    if (typeof item !== 'string') {
      throw new McpConfigError(
        where,
        `${field}.${key}`,
        `must be a string${field === 'env' || field === 'headers' ? ' (resolve {"env": NAME} references before checking)' : ''}, got ${typeof item}.`,
      );
    }
    out[key] = item;
  }
  return out;
}

function marks(where: string, value: unknown): Record<string, ToolMarks> | undefined {
  if (value === undefined) return undefined;
  if (!isRecord(value))
    throw new McpConfigError(where, 'annotations', 'must be an object keyed by tool name (or "*"), e.g. {"*": {"readOnly": true}}.');
  const out: Record<string, ToolMarks> = {};
  for (const [tool, given] of Object.entries(value)) {
    if (!isRecord(given)) throw new McpConfigError(where, `annotations.${tool}`, 'must be an object such as {"readOnly": true}.');
    const mark: ToolMarks = {};
    for (const [key, item] of Object.entries(given)) {
      if (!MARK_KEYS.includes(key)) {
        throw new McpConfigError(where, `annotations.${tool}.${key}`, `is not a mark; use ${MARK_KEYS.join(', ')}.`);
      }
      if (key === 'title' ? typeof item !== 'string' : typeof item !== 'boolean') {
        throw new McpConfigError(where, `annotations.${tool}.${key}`, `must be a ${key === 'title' ? 'string' : 'boolean'}.`);
      }
      (mark as Record<string, unknown>)[key] = item;
    }
    out[tool] = mark;
  }
  return out;
}

/**
 * Check one MCP server entry (from toolshed.config.json or createHost) and return a
 * typed copy. Throws an `McpConfigError` naming `where` and the field.
 */
export function checkServerConfig(value: unknown, where: string): McpServerConfig {
  if (!isRecord(value))
    throw new McpConfigError(where, undefined, `must be an object with "name" and "command" or "url", got ${JSON.stringify(value)}.`);
  const hasCommand = value.command !== undefined;
  const hasUrl = value.url !== undefined;
  if (hasCommand === hasUrl) {
    throw new McpConfigError(
      where,
      undefined,
      hasCommand
        ? 'has both "command" and "url"; a stdio server has "command", an HTTP server "url".'
        : 'needs "command" (a stdio server) or "url" (a Streamable HTTP server).',
    );
  }
  const allowed = [...COMMON_KEYS, ...(hasCommand ? STDIO_KEYS : HTTP_KEYS)];
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) {
      throw new McpConfigError(
        where,
        key,
        `is not a field of ${hasCommand ? 'a stdio' : 'an HTTP'} server; use ${allowed.filter((k) => k !== 'transport').join(', ')}.`,
      );
    }
  }
  if (value.transport !== undefined && value.transport !== (hasCommand ? 'stdio' : 'http')) {
    throw new McpConfigError(
      where,
      'transport',
      `must be "${hasCommand ? 'stdio' : 'http'}" for a server with "${hasCommand ? 'command' : 'url'}", got ${JSON.stringify(value.transport)}.`,
    );
  }
  if (typeof value.name !== 'string' || !SERVER_NAME.test(value.name)) {
    throw new McpConfigError(where, 'name', `must be 1 to 64 letters, digits, "_" or "-", got ${JSON.stringify(value.name)}.`);
  }
  const common = {
    name: value.name,
    ...optional('include', stringList(where, 'include', value.include)),
    ...optional('exclude', stringList(where, 'exclude', value.exclude)),
    ...optional('rename', stringRecord(where, 'rename', value.rename, 'tool names')),
    ...optional('readOnlyTools', stringList(where, 'readOnlyTools', value.readOnlyTools)),
    ...optional('annotations', marks(where, value.annotations)),
    ...optional('timeoutMs', timeout(where, 'timeoutMs', value.timeoutMs)),
    ...optional('startTimeoutMs', timeout(where, 'startTimeoutMs', value.startTimeoutMs)),
  };
  if (hasCommand) {
    if (typeof value.command !== 'string' || value.command.trim() === '') {
      throw new McpConfigError(where, 'command', `must be a non-empty string (the program to run), got ${JSON.stringify(value.command)}.`);
    }
    if (value.cwd !== undefined && (typeof value.cwd !== 'string' || value.cwd === '')) {
      throw new McpConfigError(where, 'cwd', `must be a directory path, got ${JSON.stringify(value.cwd)}.`);
    }
    const args = value.args === undefined ? undefined : stringArgs(where, value.args);
    return {
      ...common,
      command: value.command,
      ...optional('args', args),
      ...optional('env', stringRecord(where, 'env', value.env, 'variable values')),
      ...optional('cwd', value.cwd as string | undefined),
    };
  }
  let url: URL;
  try {
    url = new URL(String(value.url));
  } catch {
    throw new McpConfigError(where, 'url', `must be an absolute http: or https: URL, got ${JSON.stringify(value.url)}.`);
  }
  if (typeof value.url !== 'string' || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new McpConfigError(where, 'url', `must be an absolute http: or https: URL, got ${JSON.stringify(value.url)}.`);
  }
  return { ...common, url: value.url, ...optional('headers', stringRecord(where, 'headers', value.headers, 'header values')) };
}

function stringArgs(where: string, value: unknown): string[] {
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) {
    throw new McpConfigError(where, 'args', `must be an array of strings, got ${JSON.stringify(value)}.`);
  }
  return [...value];
}

function timeout(where: string, field: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !(value > 0) || !Number.isFinite(value)) {
    throw new McpConfigError(where, field, `must be a positive number of milliseconds, got ${JSON.stringify(value)}.`);
  }
  return value;
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}
