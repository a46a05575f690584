import type { LineRange } from './line-range.js';

/** What the model should know about a range it got: why it was cut, how lines are numbered, where to read on. */
export function explain(
  range: LineRange,
  at: {
    firstLine: number;
    lastLine: number;
    hasMore: boolean;
    size: number;
    limit: number | undefined;
    maxLines: number;
    maxBytes: number;
    maxScanBytes: number;
  },
): string | undefined {
  const parts: string[] = [];
  if (at.size === 0) return 'The file is empty.';
  const next = at.lastLine + 1;
  if (range.cut === 'long-line') {
    parts.push(
      `Line ${at.firstLine} is longer than the ${at.maxBytes}-byte limit per call, so only its first ${range.end - range.start} bytes are shown; the rest of that line cannot be read with read_file.`,
    );
    if (next !== 0 && at.hasMore) parts.push(`Call again with offset: ${next} for the lines after it.`);
    return parts.join(' ');
  }
  if (range.cut === 'bytes') parts.push(`Stopped at the ${at.maxBytes}-byte limit per call.`);
  else if (at.hasMore && (at.limit ?? Infinity) > at.maxLines && range.count === at.maxLines)
    parts.push(`Stopped at the ${at.maxLines}-line limit per call.`);
  if (range.scanCut) {
    parts.push(
      `Only the last ${-at.firstLine} ${at.firstLine === -1 ? 'line lies' : 'lines lie'} within the last ${inUnits(at.maxScanBytes)} of the file, which is as far as read_file scans from the end in one call; ` +
        'lines before them cannot be reached from the end (-1 is the last line). Read from the start with a positive offset instead.',
    );
  } else if (at.firstLine < 0) {
    parts.push(
      'Lines are numbered from the end of the file (-1 is the last line) because the lines before them were not counted; a more negative offset reads earlier lines.',
    );
  }
  if (at.hasMore) parts.push(`To read on, call again with offset: ${next}.`);
  return parts.length > 0 ? parts.join(' ') : undefined;
}

/** A byte count as a person would say it: 256 MiB, 40 KiB, 100 bytes. */
export function inUnits(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}
