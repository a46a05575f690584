import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ToolDefinition } from '@toolshed/core';
import { fnv1a64 } from './fnv1a.js';

/**
 * What a mount made of a server's cached tools for one config entry: the definitions a listing
 * shows and the notices it gives (tools left out, and why). The mount keeps it beside the server's
 * cache file, naming the write of the tools it was made from, so `@toolshed/mcp/listing` can give it to a
 * listing without this runtime: a cached `toolshed list` then loads neither the mount (and
 * @toolshed/core/contract with it) nor runs its checks of the config and every tool.
 */
export interface McpListing {
  definitions: ToolDefinition[];
  notices: string[];
}

/** Raised when what a listing holds is made differently; a new version of the package does that too (see listingKey). */
const LISTING_FORMAT = 1;

let version: string | null | undefined;

/**
 * This copy's version, from the package.json two folders above its module (src/mount, and in
 * dist/mount and dist/listing every build that holds this code), or null when it is not there,
 * as in a bundle that copied the code: then no listing is kept or read. Read by path, not by
 * URL: a first pathToFileURL alone cost a cold listing ~0.35 ms.
 */
function packageVersion(): string | null {
  if (version !== undefined) return version;
  version = null;
  try {
    const pkg = JSON.parse(readFileSync(join(import.meta.dirname, '../../package.json'), 'utf8')) as { name?: unknown; version?: unknown };
    if (pkg.name === '@toolshed/mcp' && typeof pkg.version === 'string') version = pkg.version;
  } catch {
    // Missing or unreadable: no version, so no listing.
  }
  return version;
}

/** The value with every object's keys in order, so an entry written in another key order keys the same. */
function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sorted((value as Record<string, unknown>)[key])]),
  );
}

/**
 * The key of a server's listing: its config entry as written, whole (so any change to it, a
 * field the check would refuse included, misses), with `{"env": NAME}` references as such and
 * never the values they stand for; the project folder; and this package's version, since a new
 * version may check and mount the same entry differently. Undefined without a version.
 */
export function listingKey(written: Readonly<Record<string, unknown>>, cwd: string): string | undefined {
  const own = packageVersion();
  if (own === null) return undefined;
  return fnv1a64(Buffer.from(JSON.stringify([LISTING_FORMAT, own, cwd, sorted(written)]), 'utf8'));
}
