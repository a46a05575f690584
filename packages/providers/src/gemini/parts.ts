import type { SuccessOutcome } from '@toolshed/core';
import { fileNameOf, type PartRules, planParts } from '../parts/plan.js';
import { capText } from '../result-text.js';

/** Gemini's documented limit for inline data in one request. */
export const GEMINI_MAX_PART_BYTES = 20 * 1024 * 1024;

const TYPES: readonly string[] = ['image/png', 'image/jpeg', 'image/webp', 'application/pdf', 'text/plain'];

/** A Gemini `FunctionResponsePart`: bytes inline, named so the response can refer to them. */
export interface GeminiFunctionResponseInlinePart {
  inlineData: { mimeType: string; data: string; displayName: string };
}

const rules = (maxPartBytes: number): PartRules => ({
  api: 'Gemini',
  maxPartBytes,
  refuses: (_part, mime) =>
    TYPES.includes(mime) ? undefined : `Gemini function responses take PNG, JPEG and WebP images, PDF and plain text files, not ${mime}`,
});

/** A success's parts for a Gemini function response: the inline parts, and notes for the rest (sent in the response beside the output). */
export function geminiParts(
  outcome: SuccessOutcome,
  maxChars: number,
  maxPartBytes: number,
): { parts: GeminiFunctionResponseInlinePart[]; notes: string[] } {
  const parts: GeminiFunctionResponseInlinePart[] = [];
  const notes: string[] = [];
  planParts(outcome, rules(maxPartBytes)).forEach((planned, index) => {
    if (planned.kind === 'text') notes.push(capText(planned.text, maxChars));
    else {
      const displayName = fileNameOf(planned.part, `part-${index}`);
      parts.push({ inlineData: { mimeType: planned.mime, data: planned.part.data, displayName } });
    }
  });
  return { parts, notes };
}
