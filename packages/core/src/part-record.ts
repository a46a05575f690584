import { type ContentPart, isInlinePart, isTextFilePart, partBytes, type PartType } from './content-part.js';
import type { Outcome } from './outcome.js';

// Taken when a part is recorded: node:crypto loads Node's streams, which a listing never needs.
const sha256 = (data: Buffer | string) => process.getBuiltinModule('node:crypto').createHash('sha256').update(data).digest('hex');

/** A part as a log or transcript writes it: what it is and a digest of its bytes, never the bytes. */
export interface PartRecord {
  type: PartType;
  mimeType?: string;
  /** Decoded bytes (0 for a part given by reference). */
  bytes: number;
  /** Hex SHA-256 of the decoded bytes (of the UTF-8 text for a text file part); absent for a reference. */
  sha256?: string;
  uri?: string;
  name?: string;
}

export function partRecord(part: ContentPart): PartRecord {
  const record: PartRecord = { type: part.type, bytes: partBytes(part) };
  if (part.mimeType !== undefined) record.mimeType = part.mimeType;
  if (isInlinePart(part)) record.sha256 = sha256(Buffer.from(part.data, 'base64'));
  else if (isTextFilePart(part)) record.sha256 = sha256(part.text);
  if (part.uri !== undefined) record.uri = part.uri;
  if (part.name !== undefined) record.name = part.name;
  return record;
}

/** The outcome with each part as its record: what a transcript or a log line holds. */
export function outcomeRecord(outcome: Outcome): Outcome | (Omit<Outcome, 'parts'> & { parts: PartRecord[] }) {
  if (!outcome.ok || outcome.parts === undefined) return outcome;
  return { ...outcome, parts: outcome.parts.map(partRecord) };
}
