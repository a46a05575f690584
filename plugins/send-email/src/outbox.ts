import { randomBytes } from 'node:crypto';
import { mkdir, rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { mailFields, type Message } from './message.js';

/**
 * Write the message as a complete RFC 5322 .eml file. It is written to a hidden
 * temporary file in the same folder and renamed into place, so a reader never
 * sees a half-written message.
 */
export async function writeToOutbox(dir: string, message: Message): Promise<string> {
  const { default: MailComposer } = await import('nodemailer/lib/mail-composer');
  const raw = await new MailComposer(mailFields(message)).compile().build();
  await mkdir(dir, { recursive: true });
  const stamp = message.date.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
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
