import { createHash } from 'node:crypto';
import * as v from 'valibot';
import type { CallRecord } from './call-record.js';

/**
 * One ledger record per line, self-delimiting and checksummed:
 *
 *     v1 <bytes of json> <first 16 hex of sha256(json)> <json>\n
 *
 * A line torn by a crash, glued to another or overwritten fails the length or
 * checksum test and is set aside whole; the lines around it still read.
 */
export function encodeLine(record: CallRecord<unknown>): string {
  const json = JSON.stringify(record);
  return `v1 ${Buffer.byteLength(json)} ${checksum(json)} ${json}\n`;
}

export type DecodedLine<T> = { kind: 'record'; record: CallRecord<T> } | { kind: 'damaged'; ids: string[] };

const Owner = v.object({ host: v.string(), pid: v.number(), run: v.string(), claim: v.optional(v.string()) });
const Base = {
  id: v.string(),
  attempt: v.pipe(v.number(), v.integer(), v.minValue(0)),
  fingerprint: v.optional(v.string()),
  messageId: v.string(),
  owner: v.optional(Owner),
  at: v.number(),
};
const Record = v.variant('state', [
  v.object({ ...Base, state: v.literal('claimed') }),
  v.object({ ...Base, state: v.literal('sent'), output: v.unknown() }),
  v.object({ ...Base, state: v.literal('failed'), error: v.object({ code: v.string(), message: v.string() }) }),
  v.object({
    ...Base,
    state: v.literal('in_doubt'),
    reason: v.picklist(['no_final_reply', 'connection_closed', 'process_stopped', 'damaged_record', 'unfinished_record']),
    detail: v.string(),
  }),
]);

/** The JSON Lines records of send_email 1.0 (`pending`, `done`, `failed`), read so that an upgrade keeps its promises. */
const Legacy = v.variant('state', [
  v.object({ id: v.string(), state: v.literal('pending'), input: v.string() }),
  v.object({ id: v.string(), state: v.literal('done'), input: v.string(), output: v.unknown() }),
  v.object({ id: v.string(), state: v.literal('failed') }),
]);

const LINE = /^v1 (\d{1,9}) ([0-9a-f]{16}) (.*)$/s;

export function decodeLine<T>(line: string): DecodedLine<T> {
  const match = LINE.exec(line);
  if (match) {
    const json = match[3]!;
    if (Buffer.byteLength(json) === Number(match[1]) && checksum(json) === match[2]) {
      const parsed = v.safeParse(Record, parseJson(json));
      if (parsed.success) return { kind: 'record', record: parsed.output as CallRecord<T> };
    }
  } else if (line.startsWith('{')) {
    const legacy = v.safeParse(Legacy, parseJson(line));
    if (legacy.success) return { kind: 'record', record: fromLegacy<T>(legacy.output) };
  }
  return { kind: 'damaged', ids: idsIn(line) };
}

function fromLegacy<T>(entry: v.InferOutput<typeof Legacy>): CallRecord<T> {
  // 1.0 had no attempts or message ids; its Message-IDs were random, so none can be named.
  const base = { id: entry.id, attempt: 0, messageId: '', owner: undefined, at: 0 };
  switch (entry.state) {
    case 'pending':
      return {
        ...base,
        fingerprint: entry.input,
        state: 'in_doubt',
        reason: 'unfinished_record',
        detail: 'an earlier version of send_email recorded it as pending and never recorded an outcome',
      };
    case 'done':
      return { ...base, fingerprint: entry.input, state: 'sent', output: entry.output as T };
    case 'failed':
      return {
        ...base,
        fingerprint: undefined,
        state: 'failed',
        error: { code: 'execution_failed', message: 'failed (recorded by an earlier version)' },
      };
  }
}

/** Call ids a damaged line may have been about: each `"id":"…"` in it. */
function idsIn(line: string): string[] {
  const ids: string[] = [];
  for (const match of line.matchAll(/"id":("(?:[^"\\]|\\.)*")/g)) {
    const id = parseJson(match[1]!);
    if (typeof id === 'string') ids.push(id);
  }
  return ids;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function checksum(json: string): string {
  return createHash('sha256').update(json).digest('hex').slice(0, 16);
}
