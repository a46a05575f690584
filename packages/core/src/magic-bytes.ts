/**
 * MIME types whose first bytes say what they are. A part claiming one of these must start with
 * them; any other MIME type cannot be checked from its bytes and is taken at its word.
 */
const SIGNATURES: Record<string, (head: Uint8Array) => boolean> = {
  'image/png': (h) => starts(h, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  'image/jpeg': (h) => starts(h, [0xff, 0xd8, 0xff]),
  'image/gif': (h) => ascii(h, 0, 'GIF87a') || ascii(h, 0, 'GIF89a'),
  'image/webp': (h) => ascii(h, 0, 'RIFF') && ascii(h, 8, 'WEBP'),
  'application/pdf': (h) => ascii(h, 0, '%PDF-'),
  'audio/wav': (h) => ascii(h, 0, 'RIFF') && ascii(h, 8, 'WAVE'),
  'audio/x-wav': (h) => ascii(h, 0, 'RIFF') && ascii(h, 8, 'WAVE'),
  'audio/wave': (h) => ascii(h, 0, 'RIFF') && ascii(h, 8, 'WAVE'),
  'audio/ogg': (h) => ascii(h, 0, 'OggS'),
  'audio/flac': (h) => ascii(h, 0, 'fLaC'),
  'audio/mpeg': (h) => ascii(h, 0, 'ID3') || (h[0] === 0xff && ((h[1] ?? 0) & 0xe0) === 0xe0),
};

/** Bytes enough for every signature above. */
export const MAGIC_HEAD_BYTES = 12;

/** Whether the bytes can be what the MIME type says: false only for a known type whose signature is missing. */
export function matchesMagic(mimeType: string, head: Uint8Array): boolean {
  const check = SIGNATURES[essence(mimeType)];
  return check === undefined || check(head);
}

/** The MIME type the bytes start as, among the checkable ones; undefined when none matches. */
export function sniffMime(head: Uint8Array): string | undefined {
  for (const [mime, check] of Object.entries(SIGNATURES)) if (check(head)) return mime;
  return undefined;
}

/** `image/PNG; x=y` is `image/png`. */
export function essence(mimeType: string): string {
  return mimeType.split(';')[0]!.trim().toLowerCase();
}

function starts(head: Uint8Array, bytes: readonly number[]): boolean {
  return bytes.every((byte, i) => head[i] === byte);
}

function ascii(head: Uint8Array, at: number, text: string): boolean {
  for (let i = 0; i < text.length; i++) if (head[at + i] !== text.charCodeAt(i)) return false;
  return true;
}
