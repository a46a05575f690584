import { essence, isInlinePart, type Outcome, partBytes } from '@toolshed/core';
import { outcomeText } from '@toolshed/providers';
import { imageSize } from 'image-size';
import type { ContextFormat } from './formats.js';
import { imageRule } from './image-tokens.js';
import type { Cost } from './measure.js';
import { loadO200k } from './tokenizer.js';

/** One content part's cost as the API counts it, or why it is not counted. */
export type PartCost =
  | {
      index: number;
      type: string;
      mimeType: string;
      bytes: number;
      counted: true;
      rule: string;
      width: number;
      height: number;
      tokens: number;
    }
  | { index: number; type: string; mimeType: string; bytes: number; counted: false; reason: string };

export interface ResultCost {
  format: ContextFormat;
  /** The result's text (output, error or notes), counted in o200k tokens. */
  text: Cost;
  parts: PartCost[];
  /** Text tokens and every counted part's tokens: never the base64 as text. */
  tokens: number;
}

/**
 * What one outcome costs in the next request of a format: its text in o200k tokens and each
 * image as that API counts images (by pixel size, after its own scaling), never its base64 as
 * text. Parts no rule counts (audio, PDFs, files) are listed with the reason.
 */
export async function measureResult(outcome: Outcome, options: { format: ContextFormat }): Promise<ResultCost> {
  const count = await loadO200k();
  const text = outcomeText(outcome, Infinity);
  const textCost: Cost = { bytes: Buffer.byteLength(text, 'utf8'), tokens: count(text) };
  const rule = imageRule(options.format);
  const parts = (outcome.ok ? (outcome.parts ?? []) : []).map((part, index): PartCost => {
    const base = { index, type: part.type, mimeType: part.mimeType ?? '', bytes: partBytes(part) };
    if (part.type !== 'image' || !isInlinePart(part)) {
      return {
        ...base,
        counted: false,
        reason: `no rule counts ${part.type === 'image' ? 'an image by reference' : `${part.type === 'audio' ? 'an' : 'a'} ${part.type} part`} (${essence(base.mimeType) || 'no MIME type'})`,
      };
    }
    const size = sizeOf(part.data);
    if (size === undefined) return { ...base, counted: false, reason: 'its pixel size cannot be read' };
    return { ...base, counted: true, rule: rule.name, ...size, tokens: rule.tokens(size) };
  });
  const tokens = textCost.tokens + parts.reduce((sum, part) => sum + (part.counted ? part.tokens : 0), 0);
  return { format: options.format, text: textCost, parts, tokens };
}

function sizeOf(data: string): { width: number; height: number } | undefined {
  try {
    const { width, height } = imageSize(Buffer.from(data, 'base64'));
    return width && height ? { width, height } : undefined;
  } catch {
    return undefined;
  }
}
