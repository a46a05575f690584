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
 * that name, never as its value (see MountContext.fromEnv), so a new token keeps the cache and
 * the cache holds nothing derived from a secret; a value written out in the config enters
 * hashed. include, exclude, rename and marks are applied when the cache is read, so they are
 * not in it.
 */
export function configHash(config: McpServerConfig, cwd: string, fromEnv: FromEnv = {}): string {
  const identity =
    'command' in config
      ? {
          command: config.command,
          args: config.args ?? [],
          env: entries(config.env, fromEnv.env),
          cwd: resolve(cwd, config.cwd ?? '.'),
        }
      : { url: config.url, headers: entries(config.headers, fromEnv.headers) };
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

/** A server's cache file as read: its tools, and the listing kept beside them, if any. */
export interface CacheEntry {
  tools: ServerTool[];
  listing?: McpListing & { key: string };
}

function parseCache(file: string): Record<string, unknown> | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || (parsed as { version?: unknown }).version !== CACHE_VERSION) return undefined;
  return parsed as Record<string, unknown>;
}

function isListing(value: unknown): value is McpListing & { key: string } {
  if (typeof value !== 'object' || value === null) return false;
  const { key, definitions, notices } = value as Record<string, unknown>;
  return (
    typeof key === 'string' &&
    Array.isArray(definitions) &&
    definitions.every((definition) => typeof definition === 'object' && definition !== null && typeof definition.name === 'string') &&
    Array.isArray(notices) &&
    notices.every((notice) => typeof notice === 'string')
  );
}

/** The server's cache, or undefined when missing, torn, of another version or another config. */
export function readCache(file: string, hash: string): CacheEntry | undefined {
  const parsed = parseCache(file);
  if (!parsed) return undefined;
  const { hash: written, tools, listing } = parsed;
  if (written !== hash || !Array.isArray(tools)) return undefined;
  if (!tools.every((tool) => typeof tool === 'object' && tool !== null && typeof (tool as { name?: unknown }).name === 'string'))
    return undefined;
  return { tools: tools as ServerTool[], ...(isListing(listing) ? { listing } : {}) };
}

/** The listing kept in the server's cache file under `key` (see listingKey), or undefined. */
export function readListing(file: string, key: string): McpListing | undefined {
  const listing = parseCache(file)?.listing;
  if (!isListing(listing) || listing.key !== key) return undefined;
  return { definitions: listing.definitions, notices: listing.notices };
}

/** Written to a temporary file and renamed over the old one, so a reader never sees half a file. */
export function writeCache(file: string, hash: string, server: string, tools: ServerTool[], listing?: McpListing & { key: string }): void {
  mkdirSync(dirname(file), { recursive: true });
  // Unique to this writer: the process, then a random part for two writers in one process. It
  // names a file, it guards nothing, so Math.random does (node:crypto, or node:module to load
  // it lazily, would be one more module on every listing's start).
  const temporary = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    writeFileSync(
      temporary,
      `${JSON.stringify({ version: CACHE_VERSION, server, hash, tools, ...(listing ? { listing } : {}) }, null, 2)}\n`,
    );
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}
