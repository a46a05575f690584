import { brand, hasBrand, isRecord, SERVER_NAME_PATTERN as SERVER_NAME } from '@toolshed/core/contract';
import type { McpServerConfig, ToolMarks } from './api.js';

const COMMON_KEYS = [
  'name',
  'include',
  'exclude',
  'rename',
  'readOnlyTools',
  'annotations',
  'timeoutMs',
  'startTimeoutMs',
  'transport',
  'type',
];
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
brand(McpConfigError.prototype, MCP_CONFIG_ERROR);

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

// The copies of maps keyed by what the user wrote (tool names, variables, headers) are made by
// Object.fromEntries, which defines each key as its own: an assignment would take a tool named
// "__proto__" for the copy's prototype and drop its entry (or, for annotations, make it the
// prototype every other tool's lookup falls through to).
function stringRecord(where: string, field: string, value: unknown, what: string): Record<string, string> | undefined {
  if (value === undefined) return undefined;
  if (!isRecord(value)) {
    // An env object's values may be secrets: its kind is said, never its text.
    const got = field === 'env' ? (Array.isArray(value) ? 'an array' : typeof value) : JSON.stringify(value);
    throw new McpConfigError(where, field, `must be an object of ${what}, got ${got}.`);
  }
  const out: [string, string][] = [];
  for (const [key, item] of Object.entries(value)) {
    if (typeof item !== 'string') {
      throw new McpConfigError(
        where,
        `${field}.${key}`,
        `must be a string${field === 'env' ? ' (resolve {"env": NAME} references before checking)' : ''}, got ${typeof item}.`,
      );
    }
    out.push([key, item]);
  }
  return Object.fromEntries(out);
}

function marks(where: string, value: unknown): Record<string, ToolMarks> | undefined {
  if (value === undefined) return undefined;
  if (!isRecord(value))
    throw new McpConfigError(where, 'annotations', 'must be an object keyed by tool name (or "*"), e.g. {"*": {"readOnly": true}}.');
  const out: [string, ToolMarks][] = [];
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
    out.push([tool, mark]);
  }
  return Object.fromEntries(out);
}

/**
 * What a client's `type` (Claude Code, Cursor, VS Code) or Toolshed's `transport` may say, and
 * the transport it means: `stdio` for an entry with `command`; Streamable HTTP or SSE (the MCP
 * transport before 2025-03-26, still offered by older servers) for one with `url`.
 */
const TRANSPORTS: Record<string, 'stdio' | 'http' | 'sse'> = {
  stdio: 'stdio',
  http: 'http',
  'streamable-http': 'http',
  streamableHttp: 'http',
  sse: 'sse',
};

function transportOf(where: string, value: Record<string, unknown>, hasCommand: boolean): 'stdio' | 'http' | 'sse' {
  let chosen: 'stdio' | 'http' | 'sse' = hasCommand ? 'stdio' : 'http';
  for (const field of ['type', 'transport'] as const) {
    const given = value[field];
    if (given === undefined) continue;
    const transport = typeof given === 'string' && Object.hasOwn(TRANSPORTS, given) ? TRANSPORTS[given] : undefined;
    if (transport === undefined) {
      throw new McpConfigError(
        where,
        field,
        `must be "stdio" (with "command"), "http" or "sse" (with "url"), got ${JSON.stringify(given)}.`,
      );
    }
    if ((transport === 'stdio') !== hasCommand) {
      throw new McpConfigError(
        where,
        field,
        `is ${JSON.stringify(given)}, which needs ${hasCommand ? '"url"' : '"command"'}; this entry has ${hasCommand ? '"command" (a stdio server): write "stdio" or leave it out' : '"url": write "http" (Streamable HTTP) or "sse", or leave it out'}.`,
      );
    }
    if (field === 'transport' && value.type !== undefined && transport !== chosen) {
      throw new McpConfigError(where, field, `says ${JSON.stringify(given)} but "type" says ${JSON.stringify(value.type)}; keep one.`);
    }
    chosen = transport;
  }
  return chosen;
}

/** The URL as a message may show it: its origin and path, never its credentials or query (they may hold a token). */
export function safeUrl(url: string): string {
  const parsed = new URL(url);
  return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
}

/** The URL a refused entry gives, as a message may show it; nothing of it when it cannot be parsed. */
function shownUrl(value: unknown): string {
  if (typeof value !== 'string') return `got ${typeof value}`;
  return URL.canParse(value)
    ? `got ${JSON.stringify(safeUrl(value))}`
    : 'got a value that is not a URL (not shown: it may hold credentials)';
}

/**
 * The user and password written in a server's URL (`https://user:pass@host/mcp`), decoded, or
 * undefined when it has none. Sent as `Authorization: Basic`, and kept out of every message.
 * Throws a URIError for a part that is not valid percent-encoding (checkServerConfig refuses it).
 */
export function urlCredentials(url: URL): { user: string; password: string } | undefined {
  if (url.username === '' && url.password === '') return undefined;
  return { user: decodeURIComponent(url.username), password: decodeURIComponent(url.password) };
}

// RFC 9110 field names, and values without the control characters fetch refuses (CR, LF, NUL,
// and the rest but tab): fetch's own error quotes the whole value, a token with it.
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const HEADER_VALUE_BAD = /[\x00-\x08\x0a-\x1f\x7f]/;

/** An HTTP server's headers: each a field name and a one-line value; a bad value is named by its header, never quoted. */
function headers(where: string, value: unknown): Record<string, string> | undefined {
  if (value === undefined) return undefined;
  if (!isRecord(value))
    throw new McpConfigError(where, 'headers', 'must be an object of header values, e.g. {"Authorization": "Bearer ${TOKEN}"}.');
  const out: [string, string][] = [];
  for (const [name, item] of Object.entries(value)) {
    if (!HEADER_NAME.test(name)) {
      throw new McpConfigError(where, `headers.${name}`, "is not an HTTP header name (letters, digits and !#$%&'*+-.^_`|~ only).");
    }
    if (typeof item !== 'string') {
      throw new McpConfigError(
        where,
        `headers.${name}`,
        `must be a string (resolve {"env": NAME} references before checking), got ${typeof item}.`,
      );
    }
    if (HEADER_VALUE_BAD.test(item)) {
      const what = /[\r\n]/.test(item) ? 'a line break' : 'a control character';
      throw new McpConfigError(
        where,
        `headers.${name}`,
        `holds ${what}, which no HTTP header value may (the value is not shown). A token read from a file with $(cat file) keeps every line but the last line break: give the token alone, on one line.`,
      );
    }
    out.push([name, item]);
  }
  return Object.fromEntries(out);
}

/**
 * Check one MCP server entry (from toolshed.config.json or createHost) and return a
 * typed copy. Throws an `McpConfigError` naming `where` and the field. No message quotes a
 * value of `env`, `headers` or `args`, nor a URL's credentials or query: they may be secrets.
 */
export function checkServerConfig(value: unknown, where: string): McpServerConfig {
  if (!isRecord(value))
    throw new McpConfigError(
      where,
      undefined,
      `must be an object with "name" and "command" or "url", got ${typeof value === 'object' ? (value === null ? 'null' : 'an array') : typeof value}.`,
    );
  const hasCommand = value.command !== undefined;
  const hasUrl = value.url !== undefined;
  if (hasCommand === hasUrl) {
    throw new McpConfigError(
      where,
      undefined,
      hasCommand
        ? 'has both "command" and "url"; a stdio server has "command", an HTTP server "url".'
        : 'needs "command" (a stdio server) or "url" (a Streamable HTTP or SSE server).',
    );
  }
  const allowed = [...COMMON_KEYS, ...(hasCommand ? STDIO_KEYS : HTTP_KEYS)];
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) {
      throw new McpConfigError(where, key, unknownField(key, hasCommand, allowed));
    }
  }
  const transport = transportOf(where, value, hasCommand);
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
  const url = typeof value.url === 'string' && URL.canParse(value.url) ? new URL(value.url) : undefined;
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new McpConfigError(where, 'url', `must be an absolute http: or https: URL, ${shownUrl(value.url)}.`);
  }
  try {
    urlCredentials(url);
  } catch {
    throw new McpConfigError(
      where,
      'url',
      'has a user or password that is not valid percent-encoding (not shown: it may be a secret); write "%" in them as "%25".',
    );
  }
  return {
    ...common,
    url: value.url as string,
    ...(transport === 'sse' ? { transport: 'sse' as const } : {}),
    ...optional('headers', headers(where, value.headers)),
  };
}

/** A field this kind of server does not take: VS Code's and Cursor's own get a word on what to do instead. */
function unknownField(key: string, hasCommand: boolean, allowed: string[]): string {
  if (key === 'envFile') {
    return 'is not read by Toolshed (VS Code and Cursor read variables from that file); list them in "env" as "${NAME}" and set them in the environment Toolshed runs in.';
  }
  const fields = allowed.filter((k) => k !== 'transport' && k !== 'type').join(', ');
  return `is not a field of ${hasCommand ? 'a stdio' : 'an HTTP'} server; use ${fields}.`;
}

function stringArgs(where: string, value: unknown): string[] {
  if (!Array.isArray(value)) throw new McpConfigError(where, 'args', `must be an array of strings, got ${typeof value}.`);
  const bad = value.findIndex((item) => typeof item !== 'string');
  if (bad !== -1) throw new McpConfigError(where, 'args', `must be an array of strings; item ${bad} is ${typeof value[bad]}.`);
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
