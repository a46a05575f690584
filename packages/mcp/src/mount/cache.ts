import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { FromEnv, McpServerConfig } from './api.js';
import type { ServerTool } from './definitions.js';
import { fnv1a64 } from './fnv1a.js';
import type { McpListing } from './listing.js';

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
  return fnv1a64(Buffer.from(JSON.stringify(identity), 'utf8'));
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

/** Where a server's listing is kept: a file of its own, so keeping one never rewrites the tools (see readListing). */
export function listingFile(cacheDir: string, name: string): string {
  return join(cacheDir, `${name}.listing.json`);
}

/** A server's cache file as read: its tools, and the generation of that write. */
export interface CacheEntry {
  tools: ServerTool[];
  generation: string;
}

/** A listing as kept: its key, the generation of the tools it was made from, and what it holds. */
export interface KeptListing extends McpListing {
  key: string;
  generation: string;
}

/** A file this module wrote, of this version, or undefined when missing, torn or of another version. */
function readJson(file: string): Record<string, unknown> | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || (parsed as { version?: unknown }).version !== CACHE_VERSION) return undefined;
  return parsed as Record<string, unknown>;
}

/** Written to a temporary file and renamed over the old one, so a reader never sees half a file. */
function writeJson(file: string, value: Record<string, unknown>): void {
  mkdirSync(dirname(file), { recursive: true });
  // Unique to this writer: the process, then a random part for two writers in one process. It
  // names a file, it guards nothing, so Math.random does (node:crypto, or node:module to load
  // it lazily, would be one more module on every listing's start).
  const temporary = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    writeFileSync(temporary, `${JSON.stringify({ version: CACHE_VERSION, ...value }, null, 2)}\n`);
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

/** The server's cache, or undefined when missing, torn, of another version or another config. */
export function readCache(file: string, hash: string): CacheEntry | undefined {
  const parsed = readJson(file);
  if (!parsed) return undefined;
  const { hash: written, generation, tools } = parsed;
  if (written !== hash || typeof generation !== 'string' || !Array.isArray(tools)) return undefined;
  if (!tools.every((tool) => typeof tool === 'object' && tool !== null && typeof (tool as { name?: unknown }).name === 'string'))
    return undefined;
  return { tools: tools as ServerTool[], generation };
}

/**
 * Writes the server's tools and returns the write's generation: a token new to every write, by
 * which a listing names the tools it was made from. A listing of older tools then never passes
 * for one of these, whoever wrote either and in whatever order.
 */
export function writeCache(file: string, hash: string, server: string, tools: ServerTool[]): string {
  const generation = `${Date.now().toString(36)}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  writeJson(file, { generation, server, hash, tools });
  return generation;
}

/** The listing kept in `file`, whatever its key, or undefined when missing, torn or not a listing. */
export function readKeptListing(file: string): KeptListing | undefined {
  const parsed = readJson(file);
  if (!parsed) return undefined;
  const { key, generation, definitions, notices } = parsed;
  if (typeof key !== 'string' || typeof generation !== 'string' || !Array.isArray(definitions) || !Array.isArray(notices)) return undefined;
  if (!definitions.every((definition) => typeof definition === 'object' && definition !== null && typeof definition.name === 'string'))
    return undefined;
  if (!notices.every((notice) => typeof notice === 'string')) return undefined;
  return { key, generation, definitions, notices };
}

export function writeListing(file: string, listing: KeptListing): void {
  writeJson(file, { ...listing });
}

/**
 * The listing kept for `key` (see listingKey), if it was made from the tools the server's cache
 * holds now: a refresh since, by any process, leaves it unread until a mount keeps it again.
 */
export function readListing(cacheDir: string, name: string, key: string): McpListing | undefined {
  const kept = readKeptListing(listingFile(cacheDir, name));
  if (!kept || kept.key !== key || readJson(cacheFile(cacheDir, name))?.generation !== kept.generation) return undefined;
  return { definitions: kept.definitions, notices: kept.notices };
}
