/** The longest line (one JSON-RPC message) read from stdin: 10 MiB, the SDK stdio transport's own buffer limit. */
export const MAX_LINE_BYTES = 10 * 1024 * 1024;

// What is kept of a line too long to keep: enough to find an `"id"` it ends with.
const TAIL_BYTES = 256;

export type Line =
  | { kind: 'line'; text: string }
  /** A line over the limit, dropped; `tail` is its last bytes, for the request id. */
  | { kind: 'too_long'; bytes: number; tail: string };

/**
 * Splits a byte stream into lines (`\n`, with an optional `\r` before it),
 * never holding more than `maxBytes` of one line: a longer line is dropped as
 * it streams in, and reported once its end arrives.
 */
export class LineReader {
  #parts: Buffer[] = [];
  #size = 0;
  #dropped = 0;
  #tail: Buffer = Buffer.alloc(0);

  constructor(readonly maxBytes = MAX_LINE_BYTES) {}

  push(chunk: Buffer): Line[] {
    const lines: Line[] = [];
    let start = 0;
    while (start <= chunk.length) {
      const end = chunk.indexOf(0x0a, start);
      const piece = chunk.subarray(start, end === -1 ? chunk.length : end);
      this.#add(piece);
      if (end === -1) break;
      lines.push(this.#finish());
      start = end + 1;
    }
    return lines;
  }

  #add(piece: Buffer): void {
    if (piece.length === 0) return;
    if (this.#dropped === 0 && this.#size + piece.length <= this.maxBytes) {
      this.#parts.push(piece);
      this.#size += piece.length;
      return;
    }
    // Over the limit: keep counting and keep the last bytes, hold nothing else.
    this.#dropped += this.#size + piece.length;
    this.#tail = Buffer.concat([...this.#parts, this.#tail, piece].slice(-3)).subarray(-TAIL_BYTES);
    this.#parts = [];
    this.#size = 0;
  }

  #finish(): Line {
    let line: Line;
    if (this.#dropped > 0) {
      line = { kind: 'too_long', bytes: this.#dropped, tail: this.#tail.toString('utf8') };
    } else {
      const text = Buffer.concat(this.#parts, this.#size).toString('utf8');
      line = { kind: 'line', text: text.endsWith('\r') ? text.slice(0, -1) : text };
    }
    this.#parts = [];
    this.#size = 0;
    this.#dropped = 0;
    this.#tail = Buffer.alloc(0);
    return line;
  }
}
