import { lstat, readlink, realpath } from 'node:fs/promises';
import path from 'node:path';
import { ToolError } from '@toolshed/core';
import { denied as deny, OUTSIDE } from './errors.js';
import type { PathPolicy } from './path-policy.js';

/** Where a model's path leads, found without touching anything outside the root. */
export type Resolved =
  | { kind: 'found'; display: string; real: string; realRoot: string; directory: boolean }
  /**
   * `dir` is the real folder (inside the root) that lacks `name`, `dirDisplay` the same
   * relative to the root; `rest` says whether more path followed the missing part.
   */
  | { kind: 'missing'; display: string; dir: string; dirDisplay: string; name: string; rest: boolean; realRoot: string };

// Links a path may pass through before we call it a loop, as Linux does (ELOOP).
const MAX_LINKS = 40;

// Percent-encoded characters that would change a path's meaning if something
// decoded it: `.`, `/`, `\`, `%` itself, control bytes and non-ASCII (which
// covers overlong encodings like %c0%ae). We never decode, but refuse rather
// than look up a literal name the model almost certainly did not mean.
const ENCODED_TRICK = /%(2e|2f|5c|25|[01][0-9a-f]|7f|[89a-f][0-9a-f])/i;

export function inside(root: string, target: string): boolean {
  const rel = path.relative(root, target);
  return rel === '' || (!rel.startsWith(`..${path.sep}`) && rel !== '..' && !path.isAbsolute(rel));
}

export function toPosix(rel: string): string {
  return path.sep === '/' ? rel : rel.split(path.sep).join('/');
}

/** Checks only the text of the path: nothing on disk is looked at. */
function checkShape(input: string): void {
  if (input.includes('\0')) throw deny(input, 'it contains a NUL byte, which no file name can hold');
  if (ENCODED_TRICK.test(input)) {
    throw deny(input, 'it contains percent-encoded characters; paths are taken literally, so write them unencoded');
  }
  if (input.startsWith('~')) throw deny(input, 'read_file does not expand "~"; paths are relative to the project root');
  if (/^([a-z]:([\\/]|$)|[a-z][a-z0-9+.-]*:\/\/|file:)/i.test(input)) {
    throw deny(input, 'it names a drive or a URL; give a path relative to the project root instead');
  }
}

/** The root folder as configured (absolute), and its real path. */
export interface Root {
  path: string;
  real(): Promise<string>;
}

/**
 * The root of one tool instance. Its real path is found on the first call that
 * finds it and kept: the root is fixed by the options, so neither every call nor
 * every link in a listing pays for a realpath of it. A root that is missing is
 * looked for again on the next call (the user may create it without restarting).
 * A root given as a link that is later pointed elsewhere keeps its first target
 * until the host restarts: what the model may read was settled when it first read.
 */
export function fixedRoot(root: string): Root {
  let known: string | undefined;
  return {
    path: root,
    async real() {
      if (known !== undefined) return known;
      try {
        known = await realpath(root);
      } catch {
        throw new ToolError(
          'execution_failed',
          `read_file's root folder is missing or unreadable; ask the user to check the plugin's "root" option.`,
        );
      }
      return known;
    },
  };
}

/**
 * Turn a model's path into a file under the root, or refuse it. Backslashes
 * count as separators (a model may write Windows paths), absolute paths are
 * accepted only inside the root, and symbolic links are followed one part at
 * a time so that a link leading out is refused before anything outside is
 * touched: the answer never depends on what exists outside.
 */
export async function resolveInRoot(input: string, fixed: Root, policy: PathPolicy): Promise<Resolved> {
  checkShape(input);
  const root = fixed.path;
  const wanted = path.resolve(root, input.replaceAll('\\', '/'));
  const realRoot = await fixed.real();
  // The root as configured and its real path are both "inside" (e.g. /tmp vs /private/tmp).
  const base = inside(root, wanted) ? root : inside(realRoot, wanted) ? realRoot : undefined;
  if (base === undefined) throw deny(input, OUTSIDE);
  const display = toPosix(path.relative(base, wanted));
  const refused = policy(display);
  if (refused) throw deny(input, refused);

  const pending = display === '' ? [] : display.split('/');
  let current = realRoot;
  let directory = true;
  let links = 0;
  while (pending.length > 0) {
    const part = pending.shift()!;
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (current === realRoot) throw deny(input, OUTSIDE);
      current = path.dirname(current);
      directory = true;
      continue;
    }
    const next = path.join(current, part);
    const stats = await lstat(next).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return undefined;
      throw error;
    });
    if (stats === undefined) {
      const where = toPosix(path.relative(realRoot, next));
      // Refused whether it would be a file or a folder, so the answer does not tell if a denied folder exists.
      const refusedHere = policy(where) ?? policy(where, true);
      if (refusedHere) throw deny(input, refusedHere);
      const dirDisplay = toPosix(path.relative(realRoot, current));
      return { kind: 'missing', display, dir: current, dirDisplay, name: part, rest: pending.length > 0, realRoot };
    }
    if (!stats.isSymbolicLink()) {
      current = next;
      directory = stats.isDirectory();
      continue;
    }
    if (++links > MAX_LINKS) {
      throw new ToolError('execution_failed', `read_file cannot read ${JSON.stringify(display)}: its symbolic links form a loop.`);
    }
    const target = (await readlink(next)).replaceAll('\\', '/');
    if (path.isAbsolute(target)) {
      const from = inside(realRoot, target) ? realRoot : inside(root, target) ? root : undefined;
      if (from === undefined) throw deny(input, OUTSIDE);
      current = realRoot;
      directory = true;
      pending.unshift(...toPosix(path.relative(from, target)).split('/'));
    } else {
      pending.unshift(...target.split('/'));
    }
  }
  // Only now is it known whether the path is a folder, which `.git/`-style patterns need.
  const refusedReal = policy(toPosix(path.relative(realRoot, current)), directory) ?? policy(display, directory);
  if (refusedReal) throw deny(input, refusedReal);
  return { kind: 'found', display, real: current, realRoot, directory };
}
