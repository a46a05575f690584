import type { SuccessOutcome } from '@toolshed/core';
import { leadingText } from '../parts/output-text.js';
import { type PartRules, planParts } from '../parts/plan.js';
import { capText } from '../result-text.js';

const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const;
type AnthropicImageType = (typeof IMAGE_TYPES)[number];

/** The blocks a `tool_result` takes: text, images (base64) and PDF documents. */
export type AnthropicToolResultBlock =
  | { type: 'text'; text: string }
  | { type: 'image'; source: { type: 'base64'; media_type: AnthropicImageType; data: string } }
  | { type: 'document'; source: { type: 'base64'; media_type: 'application/pdf'; data: string }; title?: string };

function isImageType(mime: string): mime is AnthropicImageType {
  return (IMAGE_TYPES as readonly string[]).includes(mime);
}

/** Anthropic's documented limit for one image. */
export const ANTHROPIC_MAX_PART_BYTES = 5 * 1024 * 1024;

const rules = (maxPartBytes: number): PartRules => ({
  api: 'Anthropic',
  maxPartBytes,
  refuses: (_part, mime) =>
    isImageType(mime) || mime === 'application/pdf'
      ? undefined
      : `Anthropic tool results take PNG, JPEG, GIF and WebP images and PDF documents, not ${mime}`,
});

/** A success with parts as `tool_result` content blocks: its text, then each part natively or as a note. */
export function anthropicBlocks(outcome: SuccessOutcome, maxChars: number, maxPartBytes: number): AnthropicToolResultBlock[] {
  const text = leadingText(outcome, maxChars);
  const blocks: AnthropicToolResultBlock[] = text === undefined ? [] : [{ type: 'text', text }];
  for (const planned of planParts(outcome, rules(maxPartBytes))) {
    if (planned.kind === 'text') blocks.push({ type: 'text', text: capText(planned.text, maxChars) });
    else if (isImageType(planned.mime))
      blocks.push({ type: 'image', source: { type: 'base64', media_type: planned.mime, data: planned.part.data } });
    else {
      const document: AnthropicToolResultBlock = {
        type: 'document',
        source: { type: 'base64', media_type: 'application/pdf', data: planned.part.data },
      };
      const title = planned.part.name ?? planned.part.uri;
      blocks.push(title === undefined ? document : { ...document, title });
    }
  }
  return blocks;
}
