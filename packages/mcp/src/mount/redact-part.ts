import { type ContentPart, isInlinePart, type Redact, redactDeep } from '@toolshed/core/contract';

/** A part with its text fields redacted; inline base64 is left alone, as redacting could only corrupt its bytes. */
export function redactPart(part: ContentPart, redact: Redact): ContentPart {
  if (!isInlinePart(part)) return redactDeep(part, redact);
  const { data, ...rest } = part;
  return { ...redactDeep(rest, redact), data };
}
