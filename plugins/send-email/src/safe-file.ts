import { constants, existsSync } from 'node:fs';
import { lstat, mkdir, open, readlink, realpath, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { brand, hasBrand } from '@toolshed/core/contract';

/**
 * Files the plugin writes (outbox, call ledger, `.toolshed/`) stay inside the
 * project root. The path below the root is walked one folder at a time, each
 * opened with O_DIRECTORY|O_NOFOLLOW (so a symbolic link anywhere is refused,
 * even one leading back inside), missing folders are made one level at a time,
 * and files are opened with O_NOFOLLOW (and O_EXCL when created). A cloned
 * repository whose `.toolshed` is a link to elsewhere is refused, not followed.
 *
 * Node has no openat(). How the walk goes is decided once (`walkMode()`):
 * - `descriptor` (Linux with /proc): each step names the next part through the
 *   folder already opened (`/proc/self/fd/N/part`), which is what openat does, so
 *   a folder swapped for a link meanwhile cannot redirect the walk; and an opened
 *   file whose real path (`/proc/self/fd/N`) has left the root is closed unused.
 * - `path` (other systems, or Linux without /proc mounted): each step names the
 *   next part by its full path. Links that are there are still refused, but a swap
 *   made during the walk is narrowed, not ruled out, and there is no real-path
 *   check of the opened file. The README lists this as a hope, not a promise.
 */

const BRAND = Symbol.for('toolshed.send-email.SafeFileError');

/** Why a path under the root was refused; `path` is always relative to the project root. */
export type SafeFileProblem =
  | { kind: 'outside'; path: string }
  | { kind: 'symlink'; path: string }
  | { kind: 'not_directory'; path: string }
  | { kind: 'not_file'; path: string }
  | { kind: 'exists'; path: string }
  | { kind: 'moved'; path: string }
  | { kind: 'hard_link'; path: string }
  | { kind: 'io'; path: string; errno: string };

export class SafeFileError extends Error {
  readonly problem: SafeFileProblem;

  constructor(problem: SafeFileProblem) {
    super(describe(problem));
    this.name = 'SafeFileError';
    this.problem = problem;
  }
}

brand(SafeFileError.prototype, BRAND);

export function isSafeFileError(value: unknown): value is SafeFileError {
  return hasBrand(value, BRAND);
}

function describe(problem: SafeFileProblem): string {
  const at = JSON.stringify(problem.path || '.');
  switch (problem.kind) {
    case 'outside':
      return `${at} is outside the project root`;
    case 'symlink':
      return `${at} is a symbolic link, and files are written only inside the project root without following links`;
    case 'not_directory':
      return `${at} is not a folder`;
    case 'not_file':
      return `${at} is not a regular file`;
    case 'exists':
      return `${at} already exists`;
    case 'moved':
      return `${at} was moved out of the project while it was being opened`;
    case 'hard_link':
      return `${at} has more than one name (a hard link), so it may be a file outside the project under an inside name`;
    case 'io':
      return `${at} could not be used (${problem.errno})`;
  }
}

/** `target` relative to `root`, with `/` separators: the form every message shows. */
export function displayPath(root: string, target: string): string {
  const rel = path.relative(root, path.resolve(root, target));
  return path.sep === '/' ? rel : rel.split(path.sep).join('/');
}

/** Whether `target` (absolute, or relative to `root`) names a place under `root`, by its text alone. */
export function insideRoot(root: string, target: string): boolean {
  return inside(path.resolve(root), path.resolve(root, target));
}

function inside(root: string, target: string): boolean {
  const rel = path.relative(root, target);
  return rel === '' || (!rel.startsWith(`..${path.sep}`) && rel !== '..' && !path.isAbsolute(rel));
}

export const errnoOf = (error: unknown) => (error as NodeJS.ErrnoException).code ?? 'unknown';

/** How folders are walked here: through open descriptors, or (the weaker fallback) by path. */
export type WalkMode = { kind: 'descriptor' } | { kind: 'path'; why: string };

let mode: WalkMode | undefined;
/** The walk this process uses, decided once from the platform and /proc. */
export function walkMode(): WalkMode {
  mode ??=
    process.platform !== 'linux'
      ? { kind: 'path', why: `${process.platform} has no /proc/self/fd to reach into an open folder` }
      : existsSync('/proc/self/fd')
        ? { kind: 'descriptor' }
        : { kind: 'path', why: '/proc is not mounted, so /proc/self/fd cannot reach into an open folder' };
  return mode;
}

/**
 * Where an open descriptor really points; undefined only in `path` mode, which has no way
 * to ask. In `descriptor` mode a descriptor that cannot be read back is refused, not skipped.
 */
async function openedPath(handle: FileHandle, shown: string): Promise<string | undefined> {
  if (walkMode().kind !== 'descriptor') return undefined;
  return readlink(`/proc/self/fd/${handle.fd}`).catch((error: unknown) => {
    throw new SafeFileError({ kind: 'io', path: shown, errno: errnoOf(error) });
  });
}

/** A folder inside the project, held open while files in it are made. */
export interface RootDir {
  /** The real path of the project root. */
  readonly realRoot: string;
  /** The folder relative to the project root (`''` for the root itself). */
  readonly display: string;
  /** A path naming `name` in this very folder, even if the folder was swapped meanwhile (on Linux). */
  at(name: string): string;
  /** `name` in this folder, relative to the project root, for messages. */
  show(name: string): string;
  close(): Promise<void>;
}

const DIR_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;

/**
 * Open the folder `dir` (absolute, or relative to `root`) inside the root, one
 * part at a time without following links; with `create`, make missing parts one
 * level at a time. The caller closes it. Throws a SafeFileError naming the
 * project-relative path of the part at fault.
 */
export async function openDirInRoot(root: string, dir: string, create: boolean): Promise<RootDir> {
  const absolute = path.resolve(root, dir);
  let realRoot: string;
  try {
    realRoot = await realpath(root);
  } catch (error) {
    throw new SafeFileError({ kind: 'io', path: '.', errno: errnoOf(error) });
  }
  // A folder may be written against the root as given or its real path (/tmp vs /private/tmp).
  const base = inside(root, absolute) ? root : inside(realRoot, absolute) ? realRoot : undefined;
  if (base === undefined) throw new SafeFileError({ kind: 'outside', path: displayPath(root, absolute) });
  const rel = path.relative(base, absolute);
  const parts = rel === '' ? [] : rel.split(path.sep);

  // The root itself may be reached through links (that is the user's choice of project); below it, none.
  let handle = await open(realRoot, constants.O_RDONLY | constants.O_DIRECTORY).catch((error: unknown) => {
    throw new SafeFileError({ kind: 'io', path: '.', errno: errnoOf(error) });
  });
  let real = realRoot;
  const child = (name: string) => (walkMode().kind === 'descriptor' ? `/proc/self/fd/${handle.fd}/${name}` : path.join(real, name));
  try {
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i]!;
      const here = parts.slice(0, i + 1).join('/');
      const next = await openChildDir(child(part), here, create);
      await handle.close();
      handle = next;
      real = path.join(real, part);
    }
  } catch (error) {
    await handle.close();
    throw error;
  }
  const display = parts.join('/');
  const opened = handle;
  return {
    realRoot,
    display,
    at: (name) => (walkMode().kind === 'descriptor' ? `/proc/self/fd/${opened.fd}/${name}` : path.join(real, name)),
    show: (name) => (display ? `${display}/${name}` : name),
    close: () => opened.close(),
  };
}

async function openChildDir(target: string, here: string, create: boolean): Promise<FileHandle> {
  try {
    return await open(target, DIR_FLAGS);
  } catch (error) {
    const code = errnoOf(error);
    if (code === 'ENOENT' && create) {
      // Not recursive: each level is made here, in the folder just opened, and then opened itself.
      await mkdir(target).catch((made: unknown) => {
        if (errnoOf(made) !== 'EEXIST') throw new SafeFileError({ kind: 'io', path: here, errno: errnoOf(made) });
      });
      return openChildDir(target, here, false);
    }
    if (code === 'ELOOP' || code === 'ENOTDIR' || code === 'EMLINK') {
      const stats = await lstat(target).catch(() => undefined);
      throw new SafeFileError({ kind: stats?.isSymbolicLink() ? 'symlink' : 'not_directory', path: here });
    }
    throw new SafeFileError({ kind: 'io', path: here, errno: code });
  }
}

/**
 * How to open a file under the root:
 * - `append`: write at the end, create if missing (a ledger);
 * - `create`: a new file; an existing name, even a dangling link, is refused (an .eml);
 * - `read`: an existing file, for reading (missing is an `io` problem with errno ENOENT).
 */
export type OpenMode = 'append' | 'create' | 'read';

// O_NONBLOCK: a named pipe at the name fails the open (or the regular-file check) instead
// of holding one of Node's few file-system threads until someone opens the other end.
const FLAGS: Record<OpenMode, number> = {
  append: constants.O_WRONLY | constants.O_APPEND | constants.O_NOFOLLOW | constants.O_NONBLOCK,
  create: constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
  read: constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK,
};

/**
 * Open the file `name` in a folder opened by openDirInRoot, without following a
 * link. The caller closes the handle.
 */
export async function openFileIn(dir: RootDir, name: string, mode: OpenMode): Promise<FileHandle> {
  const target = dir.at(name);
  const shown = dir.show(name);
  let handle: FileHandle;
  // Whether this call made the file: only then may it remove it again.
  let created = mode === 'create';
  try {
    if (mode === 'append') {
      // Open an existing file first, and create only with O_EXCL, so that a file this
      // call made is known to be its own to remove if the check below fails.
      handle = await open(target, FLAGS.append).catch(async (error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error;
        created = true;
        return open(target, FLAGS.create | constants.O_APPEND).catch((raced: NodeJS.ErrnoException) => {
          // Another process made it between the two opens: use theirs.
          if (raced.code !== 'EEXIST') throw raced;
          created = false;
          return open(target, FLAGS.append);
        });
      });
    } else {
      handle = await open(target, FLAGS[mode]);
    }
  } catch (error) {
    const code = errnoOf(error);
    // O_NOFOLLOW on a link fails with ELOOP (EMLINK on some BSDs); O_EXCL on any existing name with EEXIST.
    if (code === 'ELOOP' || code === 'EMLINK') throw new SafeFileError({ kind: 'symlink', path: shown });
    if (code === 'EEXIST') {
      const stats = await lstat(target).catch(() => undefined);
      throw new SafeFileError({ kind: stats?.isSymbolicLink() ? 'symlink' : 'exists', path: shown });
    }
    if (code === 'EISDIR') throw new SafeFileError({ kind: 'not_file', path: shown });
    throw new SafeFileError({ kind: 'io', path: shown, errno: code });
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw new SafeFileError({ kind: 'not_file', path: shown });
    // The real path of a hard link is its inside name, so the check below cannot see that
    // the file is also one outside the project; a file this call made has one name.
    if (!created && stats.nlink > 1) throw new SafeFileError({ kind: 'hard_link', path: shown });
    // The folder may have been moved out of the project after it was opened (path mode has
    // no real path to check, see top).
    const real = await openedPath(handle, shown);
    if (real !== undefined && !inside(dir.realRoot, real)) throw new SafeFileError({ kind: 'moved', path: shown });
    return handle;
  } catch (error) {
    await handle.close();
    // By the name in the held folder, never by the real path outside, which another may control.
    if (created) await unlink(target).catch(() => {});
    throw error;
  }
}

/**
 * Open `file` (absolute, or relative to `root`) inside the root without following
 * links, making missing folders one level at a time as `openDirInRoot` does (not for `read`). The caller
 * closes the handle. Throws a SafeFileError naming the project-relative path.
 */
export async function openInRoot(root: string, file: string, mode: OpenMode): Promise<FileHandle> {
  const absolute = path.resolve(root, file);
  if (absolute === path.resolve(root)) throw new SafeFileError({ kind: 'not_file', path: '.' });
  const dir = await openDirInRoot(root, path.dirname(absolute), mode !== 'read');
  try {
    return await openFileIn(dir, path.basename(absolute), mode);
  } finally {
    await dir.close();
  }
}
