import type { FileHandle } from 'node:fs/promises';
import { type ContentPart, sniffMime, ToolError } from '@toolshed/core';

/** The binary files read_file sends as they are: what every model API that takes images or documents takes. */
const MEDIA: Record<string, { type: 'image' | 'file'; kind: string }> = {
  'image/png': { type: 'image', kind: 'PNG image' },
  'image/jpeg': { type: 'image', kind: 'JPEG image' },
  'image/gif': { type: 'image', kind: 'GIF image' },
  'image/webp': { type: 'image', kind: 'WebP image' },
  'application/pdf': { type: 'file', kind: 'PDF document' },
};

export interface Media {
  mimeType: string;
  type: 'image' | 'file';
  kind: string;
}

/** What a file is by its first bytes, when it is one of the images or documents read_file sends; never by its name. */
export function mediaOf(head: Uint8Array): Media | undefined {
  const mimeType = sniffMime(head);
  const media = mimeType === undefined ? undefined : MEDIA[mimeType];
  return media && mimeType ? { mimeType, ...media } : undefined;
}

/**
 * The whole file as one part, and the note that says so. Above `maxMediaBytes` it is refused
 * with the size a model API takes: a larger one would be refused by the API after the read.
 */
export async function readMedia(
  file: FileHandle,
  media: Media,
  size: number,
  shown: string,
  display: string,
  maxMediaBytes: number,
): Promise<{ part: ContentPart; note: string }> {
  if (size > maxMediaBytes) {
    throw new ToolError(
      'execution_failed',
      `read_file will not send ${shown}: it is a ${media.kind} of ${size} bytes, and read_file sends at most ${maxMediaBytes} bytes ` +
        '(above that, model APIs refuse it). Ask the user for a smaller copy (scaled down, cropped or fewer pages).',
    );
  }
  const bytes = Buffer.alloc(size);
  const read = await file.read(bytes, 0, size, 0);
  const part: ContentPart = {
    type: media.type,
    mimeType: media.mimeType,
    data: bytes.subarray(0, read.bytesRead).toString('base64'),
    name: display,
  };
  const note = `${shown} is a ${media.kind} (${read.bytesRead} bytes); it is attached to this result rather than shown as text.`;
  return { part, note };
}
