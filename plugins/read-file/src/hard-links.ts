import type { BigIntStats } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import { isDenyListReason, type PathPolicy } from './path-policy.js';

/**
 * What read_file does with a regular file that has more than one name (a hard
 * link count above 1), where no path can show what the other names are:
 * - `deny-secrets`: refuse it when one of its other names is a file on the deny
 *   list anywhere under the root outside node_modules ({@link createTwinSearch});
 * - `deny-all`: refuse every such file (pnpm's node_modules is made of them).
 */
export type HardLinkPolicy = 'deny-secrets' | 'deny-all';

/** Whether a linked file is another name for a denied file: `unknown` when the project is too big to search. */
export type TwinVerdict = 'denied' | 'clear' | 'unknown' | 'changing';

// The walk lists at most this many entries (files and folders outside node_modules); past it, it stops.
export const MAX_WALK_ENTRIES = 200_000;
// A file's ctime this close to the start of the walk may be a change the walk missed: file systems
// stamp with a coarse clock (a tick late, or whole seconds, two on FAT).
const CLOCK_SLACK_MS = 2000;
// A file whose names keep changing while the walk runs is searched this many times, then refused.
const ATTEMPTS = 3;
// Folders listed at once during the walk.
const PARALLEL = 16;

interface Index {
  /** Date.now() when the walk started, to compare with file ctimes. */
  startedAt: number;
  /** process.hrtime when it started, to order it against a lookup in this process. */
  startedHr: bigint;
  /** dev:ino of the denied files that had more than one name. */
  inodes: Set<string>;
  complete: boolean;
}

const key = (stats: { dev: bigint; ino: bigint }) => `${stats.dev}:${stats.ino}`;

/**
 * The search for a linked file's other names, for one tool (one root and
 * policy). A walk of the root outside node_modules records the inodes of the
 * denied files that have several names; it is made on the first read of a
 * linked file and kept. Every change to an inode's names (a link made, removed
 * or renamed) sets its ctime, so a walk that started after the file's ctime
 * knows all its names: a file changed since is searched by a new walk, and its
 * stats are compared after it, so names made during that walk are not missed.
 */
export function createTwinSearch(policy: PathPolicy, maxEntries = MAX_WALK_ENTRIES) {
  let current: { root: string; startedHr: bigint; done: Promise<Index> } | undefined;

  const walkFrom = (root: string, askedHr: bigint) => {
    if (current && current.root === root && current.startedHr > askedHr) return current.done;
    const startedHr = process.hrtime.bigint();
    const done = walk(root, policy, startedHr, maxEntries);
    const mine = { root, startedHr, done };
    current = mine;
    done.catch(() => {
      if (current === mine) current = undefined;
    });
    return done;
  };

  return async (realRoot: string, stats: BigIntStats, restat: () => Promise<BigIntStats>): Promise<TwinVerdict> => {
    let seen = stats;
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const askedHr = process.hrtime.bigint();
      let index = current?.root === realRoot ? await current.done.catch(() => undefined) : undefined;
      if (index === undefined || Number(seen.ctimeMs) >= index.startedAt - CLOCK_SLACK_MS) {
        index = await walkFrom(realRoot, askedHr);
        const after = await restat();
        if (after.ctimeNs !== seen.ctimeNs || after.nlink !== seen.nlink) {
          seen = after;
          continue;
        }
      }
      if (index.inodes.has(key(seen))) return 'denied';
      return index.complete ? 'clear' : 'unknown';
    }
    return 'changing';
  };
}

/**
 * Every folder under the root but node_modules (installed packages, not the
 * project's secrets, and most of a tree's files), and symbolic links are not
 * followed (a file's real names are what count). Only files the policy denies
 * are looked at (an lstat each), so the walk costs a listing per folder.
 */
async function walk(root: string, policy: PathPolicy, startedHr: bigint, maxEntries: number): Promise<Index> {
  const index: Index = { startedAt: Date.now(), startedHr, inodes: new Set(), complete: true };
  let entries = 0;
  const pending = [{ dir: root, rel: '' }];
  while (pending.length > 0 && index.complete) {
    await Promise.all(
      pending.splice(0, PARALLEL).map(async ({ dir, rel }) => {
        const listed = await readdir(dir, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
          // Removed meanwhile, or not listable: no name in it can be searched (the README says so).
          if (error.code === 'ENOENT' || error.code === 'ENOTDIR' || error.code === 'EACCES') return [];
          throw error;
        });
        entries += listed.length;
        if (entries > maxEntries) index.complete = false;
        if (!index.complete) return;
        const denied: string[] = [];
        for (const entry of listed) {
          const at = rel === '' ? entry.name : `${rel}/${entry.name}`;
          if (entry.isDirectory()) {
            if (entry.name !== 'node_modules') pending.push({ dir: path.join(dir, entry.name), rel: at });
          } else if (entry.isFile() && isDenyListReason(policy(at))) {
            denied.push(path.join(dir, entry.name));
          }
        }
        for (const file of denied) {
          const stats = await lstat(file, { bigint: true }).catch(() => undefined);
          if (stats?.isFile() && stats.nlink > 1n) index.inodes.add(key(stats));
        }
      }),
    );
  }
  return index;
}
