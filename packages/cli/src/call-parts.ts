import { type ContentPart, essence, isInlinePart, isTextFilePart, partBytes } from '@toolshed/core/contract';
import { UsageError } from './usage-error.js';
const { mkdirSync, writeFileSync } = process.getBuiltinModule('node:fs');
const path = process.getBuiltinModule('node:path');

const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'application/pdf': 'pdf',
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/mpeg': 'mp3',
  'audio/ogg': 'ogg',
  'audio/flac': 'flac',
  'text/plain': 'txt',
  'text/markdown': 'md',
  'application/json': 'json',
};

/** One line per part, as a terminal shows it: what it is and how big, never its bytes. */
export function partLine(part: ContentPart, index: number, file: string | undefined): string {
  const what = `${part.type} ${part.mimeType === undefined ? '' : `${essence(part.mimeType)} `}`;
  const where = isInlinePart(part) || isTextFilePart(part) ? `${partBytes(part)} bytes` : `at ${part.uri}`;
  const name = part.name === undefined ? '' : ` ${JSON.stringify(part.name)}`;
  return `[part ${index}: ${what}${where}${name}${file === undefined ? '' : ` -> ${file}`}]`;
}

/**
 * Write each part that has content to `<dir>/part-<index>.<ext>` (the folder is made when missing).
 * An existing file is never overwritten: the call is not run twice for a lost answer, so the
 * user picks another folder. Returns the file of each part written, by index.
 */
export function writeParts(parts: readonly ContentPart[], dir: string): (string | undefined)[] {
  mkdirSync(dir, { recursive: true });
  return parts.map((part, index) => {
    if (!isInlinePart(part) && !isTextFilePart(part)) return undefined;
    const ext = (part.mimeType && EXTENSIONS[essence(part.mimeType)]) ?? 'bin';
    const file = path.join(dir, `part-${index}.${ext}`);
    const bytes = isInlinePart(part) ? Buffer.from(part.data, 'base64') : Buffer.from(part.text, 'utf8');
    try {
      writeFileSync(file, bytes, { flag: 'wx' });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new UsageError(
        code === 'EEXIST'
          ? `--parts-dir: ${file} already exists; name an empty folder to write the call's parts to.`
          : `--parts-dir: cannot write ${file}: ${(error as Error).message}`,
      );
    }
    return file;
  });
}
