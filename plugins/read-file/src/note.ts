import type { LineRange } from './line-range.js';

/** What the model should know about a range it got: why it was cut, how lines are numbered, where to read on. */
export function explain(
  range: LineRange,
  at: { firstLine: number; lastLine: number; hasMore: boolean; size: number; limit: number | undefined; maxLines: number; maxBytes: number },
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
  else if (at.hasMore && (at.limit ?? Infinity) > at.maxLines && range.count === at.maxLines) parts.push(`Stopped at the ${at.maxLines}-line limit per call.`);
  if (at.firstLine < 0) {
    parts.push('Lines are numbered from the end of the file (-1 is the last line) because the lines before them were not counted; a more negative offset reads earlier lines.');
  }
  if (at.hasMore) parts.push(`To read on, call again with offset: ${next}.`);
  return parts.length > 0 ? parts.join(' ') : undefined;
}
