import { randomBytes } from 'node:crypto';
import { mkdir, rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { mailFields, type Message } from './message.js';

/** The complete RFC 5322 message, built by nodemailer (loaded on first use). */
export async function composeMessage(message: Message): Promise<Buffer> {
  const { default: MailComposer } = await import('nodemailer/lib/mail-composer');
  return new MailComposer(mailFields(message)).compile().build();
}

/**
 * Write an .eml file into `dir`. It is written to a hidden temporary file in the
 * same folder and renamed into place, so a reader never sees a half-written message.
 */
export async function writeToOutbox(dir: string, date: Date, raw: Buffer): Promise<string> {
  await mkdir(dir, { recursive: true });
  const stamp = date.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  const name = `${stamp}-${randomBytes(4).toString('hex')}.eml`;
  const file = join(dir, name);
  const temp = join(dir, `.${name}.tmp`);
  try {
    await writeFile(temp, raw, { flag: 'wx' });
    await rename(temp, file);
  } catch (error) {
    await unlink(temp).catch(() => {});
    throw error;
  }
  return file;
}
