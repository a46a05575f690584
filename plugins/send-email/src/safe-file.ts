import { constants, type Stats } from 'node:fs';
import { lstat, mkdir, open, readlink, realpath, rename, rmdir, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';

/**
 * Files the plugin writes (outbox, call ledger, `.toolshed/`) stay inside the
 * project root: every part of the path below the root is checked to be a real
 * folder (never a symbolic link), folders are made one at a time, and files are
 * opened with O_NOFOLLOW (and O_EXCL when created). A cloned repository whose
 * `.toolshed` is a link to elsewhere is refused, not followed.
 *
 * Node has no openat(), so a folder swapped for a link between the check and
 * the open is caught afterwards: the opened file's real path (on Linux, read
 * from /proc/self/fd) must be the one that was checked, or it is closed unused.
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
  | { kind: 'io'; path: string; errno: string };

export class SafeFileError extends Error {
  readonly [BRAND] = true;
  readonly problem: SafeFileProblem;

  constructor(problem: SafeFileProblem) {
    super(describe(problem));
    this.name = 'SafeFileError';
    this.problem = problem;
  }
}

export function isSafeFileError(value: unknown): value is SafeFileError {
  return typeof value === 'object' && value !== null && (value as { [BRAND]?: unknown })[BRAND] === true;
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
      return `${at} was moved or replaced while it was being opened`;
    case 'io':
      return `${at} could not be used (${problem.errno})`;
  }
}

/** `target` relative to `root`, with `/` separators: the form every message shows. */
export function displayPath(root: string, target: string): string {
  const rel = path.relative(root, path.resolve(root, target));
  return path.sep === '/' ? rel : rel.split(path.sep).join('/');
}

function inside(root: string, target: string): boolean {
  const rel = path.relative(root, target);
  return rel === '' || (!rel.startsWith(`..${path.sep}`) && rel !== '..' && !path.isAbsolute(rel));
}

/** Where a target lies under the root: the root's real path and the parts below it. */
interface Place {
  realRoot: string;
  parts: string[];
}

async function place(root: string, target: string): Promise<Place> {
  const absolute = path.resolve(root, target);
  const realRoot = await realpath(root).catch((error: NodeJS.ErrnoException) => {
    throw new SafeFileError({ kind: 'io', path: '.', errno: error.code ?? 'unknown' });
  });
  // A target may be written against the root as given or its real path (/tmp vs /private/tmp).
  const base = inside(root, absolute) ? root : inside(realRoot, absolute) ? realRoot : undefined;
  if (base === undefined) throw new SafeFileError({ kind: 'outside', path: displayPath(root, absolute) });
  const rel = path.relative(base, absolute);
  return { realRoot, parts: rel === '' ? [] : rel.split(path.sep) };
}

function shown(parts: readonly string[]): string {
  return parts.join('/');
}

async function lstatOrMissing(file: string): Promise<Stats | undefined> {
  try {
    return await lstat(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** The folder `parts` under the real root, made one level at a time, no link followed. */
async function walkFolders(realRoot: string, parts: readonly string[]): Promise<string> {
  let current = realRoot;
  for (let i = 0; i < parts.length; i++) {
    const next = path.join(current, parts[i]!);
    const here = shown(parts.slice(0, i + 1));
    try {
      let stats = await lstatOrMissing(next);
      if (stats === undefined) {
        // Not recursive: each level is made here and checked, so none is made through a link.
        const made = await mkdir(next).then(
          () => true,
          (error: NodeJS.ErrnoException) => {
            if (error.code !== 'EEXIST') throw error;
            return false;
          },
        );
        if (made) await checkMadeFolder(next, here);
        stats = await lstat(next);
      }
      if (stats.isSymbolicLink()) throw new SafeFileError({ kind: 'symlink', path: here });
      if (!stats.isDirectory()) throw new SafeFileError({ kind: 'not_directory', path: here });
    } catch (error) {
      if (isSafeFileError(error)) throw error;
      throw new SafeFileError({ kind: 'io', path: here, errno: (error as NodeJS.ErrnoException).code ?? 'unknown' });
    }
    current = next;
  }
  return current;
}

/**
 * A folder just made must be where it was meant to be: if a folder above it was
 * swapped for a link meanwhile, it was made elsewhere, so it is removed again.
 */
async function checkMadeFolder(folder: string, here: string): Promise<void> {
  const handle = await open(folder, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
  let real: string | undefined;
  try {
    real = await openedPath(handle);
  } finally {
    await handle.close();
  }
  if (real !== undefined && real !== folder) {
    await rmdir(real).catch(() => {});
    throw new SafeFileError({ kind: 'moved', path: here });
  }
}

/** Where an open descriptor really points, or undefined where the system cannot say. */
async function openedPath(handle: FileHandle): Promise<string | undefined> {
  if (process.platform !== 'linux') return undefined;
  return readlink(`/proc/self/fd/${handle.fd}`).catch(() => undefined);
}

/**
 * Make the folder `dir` (absolute, or relative to `root`) and every missing folder
 * above it up to the root, refusing any symbolic link on the way and any path that
 * leaves the root. Returns the folder's real absolute path.
 */
export async function mkdirInRoot(root: string, dir: string): Promise<string> {
  const { realRoot, parts } = await place(root, dir);
  return walkFolders(realRoot, parts);
}

/**
 * How to open a file under the root:
 * - `append`: write at the end, create if missing (a ledger);
 * - `create`: a new file; an existing name, even a dangling link, is refused (an .eml);
 * - `read`: an existing file, for reading (missing is an `io` problem with errno ENOENT).
 */
export type OpenMode = 'append' | 'create' | 'read';

const FLAGS: Record<OpenMode, number> = {
  append: constants.O_WRONLY | constants.O_APPEND | constants.O_NOFOLLOW,
  create: constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
  read: constants.O_RDONLY | constants.O_NOFOLLOW,
};

/**
 * Open `file` (absolute, or relative to `root`) inside the root without following
 * links, making its folders as `mkdirInRoot` does (not for `read`). The caller
 * closes the handle. Throws a SafeFileError naming the project-relative path.
 */
export async function openInRoot(root: string, file: string, mode: OpenMode, fileMode = 0o666): Promise<FileHandle> {
  const { realRoot, parts } = await place(root, file);
  if (parts.length === 0) throw new SafeFileError({ kind: 'not_file', path: '.' });
  const folders = parts.slice(0, -1);
  let dir: string;
  if (mode === 'read') {
    dir = realRoot;
    for (let i = 0; i < folders.length; i++) {
      dir = path.join(dir, folders[i]!);
      const stats = await lstatOrMissing(dir).catch((error: NodeJS.ErrnoException) => {
        throw new SafeFileError({ kind: 'io', path: shown(folders.slice(0, i + 1)), errno: error.code ?? 'unknown' });
      });
      const here = shown(folders.slice(0, i + 1));
      if (stats === undefined) throw new SafeFileError({ kind: 'io', path: here, errno: 'ENOENT' });
      if (stats.isSymbolicLink()) throw new SafeFileError({ kind: 'symlink', path: here });
      if (!stats.isDirectory()) throw new SafeFileError({ kind: 'not_directory', path: here });
    }
  } else {
    dir = await walkFolders(realRoot, folders);
  }
  const target = path.join(dir, parts.at(-1)!);
  const relative = shown(parts);
  let handle: FileHandle;
  // Whether this call made the file: only then may it remove it again.
  let created = mode === 'create';
  try {
    if (mode === 'append') {
      // Open an existing file first, and create only with O_EXCL, so a file made in the
      // wrong place (a folder swapped meanwhile) is known to be ours to remove.
      handle = await open(target, FLAGS.append, fileMode).catch(async (error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error;
        created = true;
        return open(target, FLAGS.append | constants.O_CREAT | constants.O_EXCL, fileMode).catch((raced: NodeJS.ErrnoException) => {
          // Another process made it between the two opens: use theirs.
          if (raced.code !== 'EEXIST') throw raced;
          created = false;
          return open(target, FLAGS.append, fileMode);
        });
      });
    } else {
      handle = await open(target, FLAGS[mode], fileMode);
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unknown';
    // O_NOFOLLOW on a link fails with ELOOP (EMLINK on some BSDs); O_EXCL on any existing name with EEXIST.
    if (code === 'ELOOP' || code === 'EMLINK') throw new SafeFileError({ kind: 'symlink', path: relative });
    if (code === 'EEXIST') {
      const stats = await lstatOrMissing(target).catch(() => undefined);
      throw new SafeFileError({ kind: stats?.isSymbolicLink() ? 'symlink' : 'exists', path: relative });
    }
    if (code === 'EISDIR') throw new SafeFileError({ kind: 'not_file', path: relative });
    throw new SafeFileError({ kind: 'io', path: relative, errno: code });
  }
  const real = await openedPath(handle);
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw new SafeFileError({ kind: 'not_file', path: relative });
    if (real !== undefined && real !== target) throw new SafeFileError({ kind: 'moved', path: relative });
    return handle;
  } catch (error) {
    await handle.close();
    if (created) await unlink(real ?? target).catch(() => {});
    throw error;
  }
}

/**
 * Replace `file` inside the root with `data`, atomically: a new temporary file
 * beside it (O_EXCL, O_NOFOLLOW) is written, synced and renamed over the name.
 * A link at the name is replaced, never written through.
 */
export async function replaceInRoot(root: string, file: string, data: string | Uint8Array, fileMode = 0o666): Promise<void> {
  const absolute = path.resolve(root, file);
  const temp = path.join(path.dirname(absolute), `.${path.basename(absolute)}.${process.pid}.${Date.now().toString(36)}.tmp`);
  const handle = await openInRoot(root, temp, 'create', fileMode);
  // openInRoot checked the folders; the real folder is where the temp file really is.
  const real = (await openedPath(handle)) ?? temp;
  try {
    await handle.writeFile(data);
    await handle.sync();
  } catch (error) {
    await handle.close();
    await unlink(real).catch(() => {});
    throw new SafeFileError({ kind: 'io', path: displayPath(root, temp), errno: (error as NodeJS.ErrnoException).code ?? 'unknown' });
  }
  await handle.close();
  try {
    await rename(real, path.join(path.dirname(real), path.basename(absolute)));
  } catch (error) {
    await unlink(real).catch(() => {});
    throw new SafeFileError({ kind: 'io', path: displayPath(root, absolute), errno: (error as NodeJS.ErrnoException).code ?? 'unknown' });
  }
}
