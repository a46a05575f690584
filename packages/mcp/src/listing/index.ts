// @toolshed/mcp/listing: what a server's mount kept for a listing, read without the mount. It
// needs no MCP SDK at run time, so a host lists cached servers
// (`toolshed list`, `schema`, `context`) without loading @toolshed/mcp/mount at all.
import { SERVER_NAME_PATTERN as SERVER_NAME } from '@toolshed/core/contract';
import { readListing as readKept } from '../mount/cache.js';
import { listingKey, type McpListing } from '../mount/listing.js';

export type { McpListing } from '../mount/listing.js';

export interface ListingContext {
  /** The project directory, as the mount was given it. */
  cwd: string;
  /** The directory of the servers' cache files, as the mount was given it. */
  cacheDir: string;
}

/**
 * The definitions and notices a mount kept for this server entry (`written`: as the config
 * wrote it, `{"env": NAME}` references as such; see MountContext.written), or undefined when it
 * kept none for it: the entry, the project or this package's version changed, the server's
 * tools were written again since (by any process), or a file is missing or torn. Then mount
 * the server.
 * Nothing is checked but the key: what is read was made by the mount from an entry it checked.
 */
export function readListing(written: Readonly<Record<string, unknown>>, ctx: ListingContext): McpListing | undefined {
  const { name } = written;
  if (typeof name !== 'string' || !SERVER_NAME.test(name)) return undefined;
  const key = listingKey(written, ctx.cwd);
  return key === undefined ? undefined : readKept(ctx.cacheDir, name, key);
}
