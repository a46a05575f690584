import { randomBytes } from 'node:crypto';
import { link, lstat, unlink } from 'node:fs/promises';
import { mailFields, type Message } from './message.js';
import { errnoOf, openDirInRoot, openFileIn, SafeFileError } from './safe-file.js';

/** The complete RFC 5322 message, built by nodemailer (loaded on first use). */
export async function composeMessage(message: Message): Promise<Buffer> {
  const { default: MailComposer } = await import('nodemailer/lib/mail-composer');
  return new MailComposer(mailFields(message)).compile().build();
}

/** `20260102T030405Z-1a2b3c4d.eml`: sorts by time, and two messages in one second do not collide. */
export function outboxName(date: Date): string {
  const stamp = date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  return `${stamp}-${randomBytes(4).toString('hex')}.eml`;
}

/**
 * Write an .eml file named `name` into the folder `dir` under the project `root`
 * and return its path relative to the root. The folders are made and the file
 * written without following any symbolic link (see safe-file.ts). The content goes
 * to a hidden temporary file first and is then linked under its name, which fails
 * rather than replace anything already there, so a reader never sees a
 * half-written message and no existing file or link is written through.
 */
export async function writeToOutbox(root: string, dir: string, name: string, raw: Buffer): Promise<string> {
  const tempName = `.${name}.tmp`;
  const folder = await openDirInRoot(root, dir, true);
  try {
    const handle = await openFileIn(folder, tempName, 'create');
    try {
      await handle.writeFile(raw);
      await handle.sync();
    } catch (error) {
      await handle.close();
      await unlink(folder.at(tempName)).catch(() => {});
      throw new SafeFileError({ kind: 'io', path: folder.show(tempName), errno: errnoOf(error) });
    }
    await handle.close();
    try {
      // link, not rename: it fails on an existing name (file or link) instead of replacing it.
      await link(folder.at(tempName), folder.at(name));
    } catch (error) {
      const code = errnoOf(error);
      const taken = code === 'EEXIST' ? await lstat(folder.at(name)).catch(() => undefined) : undefined;
      throw new SafeFileError(
        code === 'EEXIST'
          ? { kind: taken?.isSymbolicLink() ? 'symlink' : 'exists', path: folder.show(name) }
          : { kind: 'io', path: folder.show(name), errno: code },
      );
    } finally {
      await unlink(folder.at(tempName)).catch(() => {});
    }
    return folder.show(name);
  } finally {
    await folder.close();
  }
}
