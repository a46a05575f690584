import { createHash, randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { FromEnv, McpServerConfig } from './api.js';
import { isServerTool, type ServerTool } from './definitions.js';

const CACHE_VERSION = 1;

/**
 * The key of a server's cache: a hash of what identifies the server (command, args, env, cwd;
 * or url and headers). An env or header value the host read from `{"env": NAME}` enters as
 * that name (and one written `"Bearer ${TOKEN}"`, an arg or a url naming a variable, as written),
 * never as its value (see MountContext.fromEnv), so a new token keeps the cache and
 * the cache holds nothing derived from a secret; a value written out in the config enters
 * hashed. include, exclude, rename and marks are applied when the cache is read, so they are
 * not in it.
 */
export function configHash(config: McpServerConfig, cwd: string, fromEnv: FromEnv = {}): string {
  const identity =
    'command' in config
      ? {
          command: config.command,
          args: (config.args ?? []).map((arg, index) =>
            fromEnv.args && Object.hasOwn(fromEnv.args, index) ? { env: fromEnv.args[index]! } : arg,
          ),
          env: entries(config.env, fromEnv.env),
          cwd: resolve(cwd, config.cwd ?? '.'),
        }
      : {
          url: fromEnv.url === undefined ? config.url : { env: fromEnv.url },
          headers: entries(config.headers, fromEnv.headers),
          ...(config.transport === 'sse' ? { transport: 'sse' } : {}),
        };
  return createHash('sha256').update(JSON.stringify(identity)).digest('hex');
}

/** Sorted by key; a value read from a variable as `{"env": NAME}`, which no string value can equal. */
function entries(record: Record<string, string> | undefined, names: Record<string, string> = {}): [string, string | { env: string }][] {
  return Object.entries(record ?? {})
    .map(([key, value]): [string, string | { env: string }] => [key, Object.hasOwn(names, key) ? { env: names[key]! } : value])
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

export function cacheFile(cacheDir: string, name: string): string {
  return join(cacheDir, `${name}.json`);
}

/** The server's tools, or undefined when its cache is missing, torn, of another version or another config. */
export function readCache(file: string, hash: string): ServerTool[] | undefined {
  let parsed: { version?: unknown; hash?: unknown; tools?: unknown } | null;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8')) as typeof parsed;
  } catch {
    return undefined;
  }
  const tools = parsed?.tools;
  if (parsed?.version !== CACHE_VERSION || parsed.hash !== hash || !Array.isArray(tools)) return undefined;
  return tools.every(isServerTool) ? tools : undefined;
}

/** Written to a temporary file and renamed over the old one, so a reader never sees half a file. */
export function writeCache(file: string, hash: string, server: string, tools: ServerTool[]): void {
  mkdirSync(dirname(file), { recursive: true });
  // Unique to this writer: two processes, or two threads of one, never share a temporary file.
  const temporary = `${file}.${randomUUID()}.tmp`;
  try {
    writeFileSync(temporary, `${JSON.stringify({ version: CACHE_VERSION, server, hash, tools }, null, 2)}\n`);
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}
