import type { FileHandle } from 'node:fs/promises';

const CHUNK = 64 * 1024;
const NEWLINE = 0x0a;
// How often a long scan reports progress (and so how often a listener sees it move).
const PROGRESS_STEP = 4 * 1024 * 1024;
// Reading from the end of a file up to this size, the lines before are counted
// so they get ordinary numbers; past it, counting would cost a scan of the file.
const COUNT_BEFORE_TAIL = 8 * 1024 * 1024;

export interface RangeRequest {
  /** 1-based first line, or negative to count from the end (-1 is the last line). */
  offset: number;
  /** The most lines to return. */
  lines: number;
  /** The most bytes to return. */
  maxBytes: number;
  /** The most bytes a search for the first line may scan, from the start or from the end. */
  maxScanBytes: number;
  signal: AbortSignal;
  onProgress?: (scanned: number, total: number) => void;
}

/** A run of whole lines, found by scanning bytes: nothing but the range itself is ever held in memory. */
export interface LineRange {
  /** Byte offsets: the range is [start, end). */
  start: number;
  end: number;
  count: number;
  /** 1-based number of the first line; negative (counted from the end) when the lines before were never counted. */
  firstLine: number;
  /** Known when the scan saw the whole file. */
  totalLines?: number;
  /** Why fewer lines than asked were returned though more follow. */
  cut?: 'bytes' | 'long-line';
  /** Reading from the end, the scan budget ran out before the asked-for line: only the lines after it were found. */
  scanCut?: true;
}

/**
 * `beyondScan`: the first line asked for was not found within `maxScanBytes`
 * (`lines` line starts were seen in that many bytes): from the start, the line
 * lies further in; from the end, the last line alone is longer than that.
 */
export type RangeResult =
  | ({ kind: 'range' } & LineRange)
  | { kind: 'pastEnd'; totalLines: number }
  | { kind: 'beyondScan'; from: 'start' | 'end'; lines: number };

/** Reads [from, to) in chunks, forward or backward, reusing one buffer. */
async function* chunks(
  file: FileHandle,
  from: number,
  to: number,
  backward: boolean,
  request: RangeRequest,
): AsyncGenerator<{ at: number; bytes: Buffer }> {
  const buffer = Buffer.allocUnsafe(CHUNK);
  let scanned = 0;
  let reported = 0;
  let position = backward ? to : from;
  while (backward ? position > from : position < to) {
    request.signal.throwIfAborted();
    const length = backward ? Math.min(CHUNK, position - from) : Math.min(CHUNK, to - position);
    const at = backward ? position - length : position;
    const { bytesRead } = await file.read(buffer, 0, length, at);
    if (bytesRead === 0) return; // the file shrank under us: treat as its end
    yield { at, bytes: buffer.subarray(0, bytesRead) };
    position = backward ? at : at + bytesRead;
    scanned += bytesRead;
    if (request.onProgress && scanned - reported >= PROGRESS_STEP) {
      reported = scanned;
      request.onProgress(scanned, to - from);
    }
  }
}

/** Byte offset where line `offset` (1-based) starts, or the file's line count when it has fewer lines. */
async function seekLine(
  file: FileHandle,
  size: number,
  offset: number,
  request: RangeRequest,
): Promise<{ start: number } | { totalLines: number } | { beyondScan: number }> {
  let line = 1;
  let start = 0;
  const scanned = Math.min(size, request.maxScanBytes);
  if (offset > 1) {
    scan: for await (const { at, bytes } of chunks(file, 0, scanned, false, request)) {
      for (let i = bytes.indexOf(NEWLINE); i !== -1; i = bytes.indexOf(NEWLINE, i + 1)) {
        line += 1;
        start = at + i + 1;
        if (line === offset) break scan;
      }
    }
  }
  if (line < offset && scanned < size) return { beyondScan: line - 1 };
  if (line < offset || (start >= size && !(size === 0 && offset === 1))) {
    // `line - 1` newlines were seen; an unterminated last line counts too.
    return { totalLines: line - 1 + (start < size ? 1 : 0) };
  }
  return { start };
}

/**
 * Byte offset where the `count`-th line from the end starts. A trailing
 * newline ends the last line rather than starting an empty one.
 */
async function seekFromEnd(
  file: FileHandle,
  size: number,
  count: number,
  request: RangeRequest,
): Promise<{ start: number; reachedStart: boolean; newlines: number; scanCut?: true }> {
  if (size === 0) return { start: 0, reachedStart: true, newlines: 0 };
  const last = Buffer.alloc(1);
  await file.read(last, 0, 1, size - 1);
  const end = last[0] === NEWLINE ? size - 1 : size;
  const from = Math.max(0, end - request.maxScanBytes);
  let newlines = 0;
  let earliest = end;
  for await (const { at, bytes } of chunks(file, from, end, true, request)) {
    for (let i = bytes.lastIndexOf(NEWLINE); i !== -1; i = i === 0 ? -1 : bytes.lastIndexOf(NEWLINE, i - 1)) {
      newlines += 1;
      earliest = at + i + 1;
      if (newlines === count) return { start: earliest, reachedStart: false, newlines };
    }
  }
  if (from > 0) return { start: earliest, reachedStart: false, newlines, scanCut: true };
  return { start: 0, reachedStart: true, newlines };
}

/** From `start`, take whole lines until the line or byte limit. */
async function takeLines(
  file: FileHandle,
  size: number,
  start: number,
  request: RangeRequest,
): Promise<Pick<LineRange, 'end' | 'count' | 'cut'>> {
  let end = start;
  let count = 0;
  let cut: LineRange['cut'];
  let atEof = true;
  scan: for await (const { at, bytes } of chunks(file, start, size, false, request)) {
    for (let i = bytes.indexOf(NEWLINE); i !== -1; i = bytes.indexOf(NEWLINE, i + 1)) {
      const lineEnd = at + i + 1;
      if (lineEnd - start > request.maxBytes) {
        cut = 'bytes';
        atEof = false;
        break scan;
      }
      end = lineEnd;
      count += 1;
      if (count === request.lines) {
        atEof = false;
        break scan;
      }
    }
    // The line still open at this chunk's end would already pass the byte limit.
    if (at + bytes.length - start > request.maxBytes && at + bytes.length < size) {
      cut = 'bytes';
      atEof = false;
      break;
    }
  }
  if (atEof && end < size) {
    // The last line has no newline.
    if (size - start <= request.maxBytes) {
      end = size;
      count += 1;
    } else {
      cut = 'bytes';
    }
  }
  if (count === 0 && cut === 'bytes') {
    // One line longer than the whole byte budget: return its head, ending on a character boundary.
    end = await characterBoundary(file, start + request.maxBytes);
    if (end === start) end = start + request.maxBytes;
    return { end, count: 1, cut: 'long-line' };
  }
  return { end, count, ...(cut && end < size ? { cut } : {}) };
}

/** Moves `position` back to the start of the UTF-8 character it falls in. */
async function characterBoundary(file: FileHandle, position: number): Promise<number> {
  const probe = Buffer.alloc(4);
  const from = Math.max(0, position - 3);
  const { bytesRead } = await file.read(probe, 0, position - from + 1, from);
  for (let back = 0; back < 4 && position - back >= from; back++) {
    const index = position - back - from;
    if (index >= bytesRead) continue;
    // Not a continuation byte (10xxxxxx): a character starts here.
    if ((probe[index]! & 0xc0) !== 0x80) return position - back;
  }
  return position;
}

/** Find the byte range of the requested lines, streaming: memory stays at one chunk plus bookkeeping. */
export async function findLineRange(file: FileHandle, size: number, request: RangeRequest): Promise<RangeResult> {
  if (request.offset > 0) {
    const seek = await seekLine(file, size, request.offset, request);
    if ('beyondScan' in seek) return { kind: 'beyondScan', from: 'start', lines: seek.beyondScan };
    if ('totalLines' in seek) return { kind: 'pastEnd', totalLines: seek.totalLines };
    const taken = await takeLines(file, size, seek.start, request);
    const range: RangeResult = { kind: 'range', start: seek.start, firstLine: request.offset, ...taken };
    if (taken.end === size) range.totalLines = request.offset + taken.count - 1;
    return range;
  }
  const fromEnd = -request.offset;
  const seek = await seekFromEnd(file, size, fromEnd, request);
  if (seek.scanCut) {
    // No line start at all within the budget: the last line alone is longer than it.
    if (seek.newlines === 0) return { kind: 'beyondScan', from: 'end', lines: 0 };
    const taken = await takeLines(file, size, seek.start, { ...request, lines: Math.min(request.lines, seek.newlines) });
    return { kind: 'range', start: seek.start, firstLine: -seek.newlines, scanCut: true, ...taken };
  }
  const taken = await takeLines(file, size, seek.start, { ...request, lines: Math.min(request.lines, fromEnd) });
  if (seek.reachedStart) {
    // The whole file was scanned, so lines can be numbered from the top.
    const totalLines = size === 0 ? 0 : seek.newlines + 1;
    return { kind: 'range', start: 0, firstLine: 1, totalLines, ...taken };
  }
  if (seek.start <= COUNT_BEFORE_TAIL) {
    const before = await countNewlines(file, seek.start, request);
    return { kind: 'range', start: seek.start, firstLine: before + 1, totalLines: before + fromEnd, ...taken };
  }
  return { kind: 'range', start: seek.start, firstLine: request.offset, ...taken };
}

async function countNewlines(file: FileHandle, end: number, request: RangeRequest): Promise<number> {
  let count = 0;
  for await (const { bytes } of chunks(file, 0, end, false, request)) {
    for (let i = bytes.indexOf(NEWLINE); i !== -1; i = bytes.indexOf(NEWLINE, i + 1)) count += 1;
  }
  return count;
}
