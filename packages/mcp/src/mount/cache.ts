import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
// SHA-256 in plain JavaScript: `toolshed list` hashes every mounted server's config to find
// its cache, and node:crypto costs about 4 ms to load (all of crypto and the streams stack),
// a tenth of a cold list. The digest is the same as node:crypto's (cache.test.ts checks).
import { createHash } from 'sha256-uint8array';
import type { McpServerConfig } from './api.js';
import type { ServerTool } from './definitions.js';

const CACHE_VERSION = 1;

/**
 * The key of a server's cache: a hash of what identifies the server (command, args,
 * env names and values, cwd; or url and headers). Secrets enter only hashed. include,
 * exclude, rename and marks are applied when the cache is read, so they are not in it.
 */
export function configHash(config: McpServerConfig, cwd: string): string {
  const identity =
    'command' in config
      ? { command: config.command, args: config.args ?? [], env: sorted(config.env), cwd: path.resolve(cwd, config.cwd ?? '.') }
      : { url: config.url, headers: sorted(config.headers) };
  // Node's own UTF-8 encoder makes the bytes (the library's JavaScript one is slower on a cold
  // start): the bytes node:crypto hashes for the same text.
  return createHash('sha256')
    .update(Buffer.from(JSON.stringify(identity), 'utf8'))
    .digest('hex');
}

function sorted(record: Record<string, string> | undefined): [string, string][] {
  return Object.entries(record ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

export function cacheFile(cacheDir: string, name: string): string {
  return path.join(cacheDir, `${name}.json`);
}

/** The server's tools from its cache file, or undefined when missing, torn, of another version or another config. */
export function readCache(file: string, hash: string): ServerTool[] | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const { version, hash: written, tools } = parsed as { version?: unknown; hash?: unknown; tools?: unknown };
  if (version !== CACHE_VERSION || written !== hash || !Array.isArray(tools)) return undefined;
  if (!tools.every((tool) => typeof tool === 'object' && tool !== null && typeof (tool as { name?: unknown }).name === 'string'))
    return undefined;
  return tools as ServerTool[];
}

/** Written to a temporary file and renamed over the old one, so a reader never sees half a file. */
export function writeCache(file: string, hash: string, server: string, tools: ServerTool[]): void {
  mkdirSync(path.dirname(file), { recursive: true });
  // node:crypto only here: writing follows a server's start, which costs far more.
  const { randomBytes } = createRequire(import.meta.url)('node:crypto') as typeof import('node:crypto');
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    writeFileSync(temporary, `${JSON.stringify({ version: CACHE_VERSION, server, hash, tools }, null, 2)}\n`);
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}
