import type { Dirent } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import { ON_DENY_LIST, type PathPolicy } from './path-policy.js';
import { inside, toPosix } from './resolve-path.js';

/**
 * What read_file does with a regular file that has more than one name (a hard
 * link count above 1), where no path can show what the other names are:
 * - `deny-secrets`: refuse it when one of its other names is a file on the deny
 *   list, looked for in the places {@link findDeniedTwin} searches;
 * - `deny-all`: refuse every such file (pnpm's node_modules is made of them).
 */
export type HardLinkPolicy = 'deny-secrets' | 'deny-all';

interface Identity {
  dev: bigint;
  ino: bigint;
}

/**
 * Whether a file on the deny list is the same file (device and inode) as
 * `identity`, whose real path is `file`. A whole-tree search would cost a walk
 * of the project (node_modules included) on every read of a linked file, so
 * this looks only where a secret's second name is cheap to find: the entries
 * of each folder from the file's own up to the root, and one level into the
 * denied folders among them (`.ssh/`, `.git/`, `.aws/`...). A secret elsewhere
 * (say `config/.env.production` linked as `src/notes.txt`) is not found.
 */
export async function findDeniedTwin(file: string, realRoot: string, identity: Identity, policy: PathPolicy): Promise<boolean> {
  const same = async (at: string) => {
    const stats = await lstat(at, { bigint: true }).catch(() => undefined);
    return stats?.isFile() && stats.ino === identity.ino && stats.dev === identity.dev;
  };
  for (let dir = path.dirname(file); inside(realRoot, dir); dir = path.dirname(dir)) {
    // The folder's relative path once, not per entry: folders such as node_modules/.pnpm hold hundreds.
    const relDir = toPosix(path.relative(realRoot, dir));
    for (const entry of await entriesOf(dir)) {
      const rel = relDir === '' ? entry.name : `${relDir}/${entry.name}`;
      const directory = entry.isDirectory();
      if (!directory && !entry.isFile()) continue;
      if (policy(rel, directory) !== ON_DENY_LIST) continue;
      const at = path.join(dir, entry.name);
      if (!directory) {
        if (await same(at)) return true;
        continue;
      }
      for (const inner of await entriesOf(at)) {
        if (inner.isFile() && (await same(path.join(at, inner.name)))) return true;
      }
    }
    if (dir === realRoot) break;
  }
  return false;
}

async function entriesOf(dir: string): Promise<Dirent[]> {
  try {
    // One readdir call, not opendir's entry-by-entry iteration: these folders are read whole anyway.
    return await readdir(dir, { withFileTypes: true });
  } catch (error) {
    // A folder removed meanwhile holds no twin; any other failure refuses the read rather than guess.
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    return [];
  }
}
