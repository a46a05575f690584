import { constants, type BigIntStats } from 'node:fs';
import { lstat, open, readlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { ToolError } from '@toolshed/core';
import { denied, OUTSIDE } from './errors.js';
import { MAX_WALK_ENTRIES, type HardLinkPolicy, type TwinVerdict } from './hard-links.js';
import type { PathPolicy } from './path-policy.js';
import { inside, toPosix, type Resolved } from './resolve-path.js';

/** An open file or folder, checked to be the one the policy allows. Close `handle` when done. */
export type Opened =
  | { kind: 'file'; handle: FileHandle; size: number }
  /** `listPath` lists the folder that was opened, not whatever its name leads to now; `realRel` is its real path under the root. */
  | { kind: 'directory'; handle: FileHandle; listPath: string; realRel: string };

// Linux names an open descriptor's file by its real path here; elsewhere there is no such check (see the README).
const FD_PATHS = process.platform === 'linux';

export function changedWhileOpening(shown: string): ToolError {
  return new ToolError('execution_failed', `read_file could not read ${shown}: it changed while being opened. Try again.`);
}

/**
 * Open what the walk in resolveInRoot found, then check the file that was
 * actually opened, not the path: a folder on the path may have been swapped
 * for a link between the walk and the open, and the open would follow it.
 * On Linux the descriptor's real path must be inside the root and allowed;
 * everywhere, it must be the file the walk saw.
 */
export async function openChecked(
  input: string,
  resolved: Extract<Resolved, { kind: 'found' }>,
  policy: PathPolicy,
  hardLinks: HardLinks,
): Promise<Opened> {
  const shown = JSON.stringify(resolved.display || '.');
  const seen = await lstat(resolved.real, { bigint: true });
  // Devices, pipes and sockets are refused before an open could block on them or trigger a device's side effects.
  if (!seen.isFile() && !seen.isDirectory() && !seen.isSymbolicLink()) throw notRegular(shown);
  // O_NOFOLLOW: the last part was checked to be no link; refuse if one was swapped in since.
  const handle = await open(resolved.real, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    const stats = await handle.stat({ bigint: true });
    const real = FD_PATHS ? await descriptorPath(handle, shown) : resolved.real;
    if (FD_PATHS) {
      if (!inside(resolved.realRoot, real)) throw denied(input, OUTSIDE);
      const refused = policy(toPosix(path.relative(resolved.realRoot, real)), stats.isDirectory());
      if (refused) throw denied(input, refused);
    }
    if (stats.ino !== seen.ino || stats.dev !== seen.dev) throw changedWhileOpening(shown);
    if (stats.isDirectory()) {
      const listPath = FD_PATHS ? `/proc/self/fd/${handle.fd}` : resolved.real;
      return { kind: 'directory', handle, listPath, realRel: toPosix(path.relative(resolved.realRoot, real)) };
    }
    if (!stats.isFile()) throw notRegular(shown);
    if (stats.nlink > 1n) await checkHardLinks(input, handle, resolved.realRoot, stats, hardLinks);
    return { kind: 'file', handle, size: Number(stats.size) };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** The real path of an open descriptor, as the kernel knows it. */
async function descriptorPath(handle: FileHandle, shown: string): Promise<string> {
  let real: string;
  try {
    real = await readlink(`/proc/self/fd/${handle.fd}`);
  } catch {
    // Without /proc the opened file cannot be checked: refuse rather than read unchecked.
    throw new ToolError(
      'execution_failed',
      `read_file cannot check which file ${shown} is, because /proc is not mounted; ask the user to run the host where /proc is available.`,
    );
  }
  // Removed (or renamed away) since the open: the name no longer says where the file is.
  if (real.endsWith(' (deleted)') || !path.isAbsolute(real)) throw changedWhileOpening(shown);
  return real;
}

/** The hardLinks option, and the search for a linked file's other names that `deny-secrets` uses. */
export interface HardLinks {
  policy: HardLinkPolicy;
  search: (realRoot: string, stats: BigIntStats, restat: () => Promise<BigIntStats>) => Promise<TwinVerdict>;
}

async function checkHardLinks(
  input: string,
  handle: FileHandle,
  realRoot: string,
  stats: BigIntStats,
  hardLinks: HardLinks,
): Promise<void> {
  if (hardLinks.policy === 'deny-all') {
    throw denied(input, `it has ${stats.nlink} names (hard links), and this project reads only files with a single name`);
  }
  const verdict = await hardLinks.search(realRoot, stats, () => handle.stat({ bigint: true }));
  if (verdict === 'denied') {
    throw denied(input, 'it is another name (a hard link) for a file on the deny list of secret and private files');
  }
  if (verdict === 'unknown') {
    throw denied(
      input,
      `it has ${stats.nlink} names (hard links), and its other names cannot be searched: the project holds more than ${MAX_WALK_ENTRIES} files and folders outside node_modules`,
    );
  }
  if (verdict === 'changing') {
    throw new ToolError(
      'execution_failed',
      `read_file could not read ${JSON.stringify(input)}: its names (hard links) kept changing while read_file searched them. Try again.`,
    );
  }
}

export function notRegular(shown: string): ToolError {
  return new ToolError(
    'execution_failed',
    `read_file cannot read ${shown}: it is not a regular file (a device, socket or pipe), and only regular files can be read.`,
  );
}
