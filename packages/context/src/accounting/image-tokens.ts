import type { ContextFormat } from './formats.js';

export interface ImageSize {
  width: number;
  height: number;
}

/** How one API counts an image, in its own documented words: a rule per API, applied to the image's pixel size. */
export interface ImageRule {
  /** The rule's name as a report shows it. */
  name: string;
  tokens(size: ImageSize): number;
}

/** Scale down (never up) so that both sides fit in the box, as the APIs do before counting. */
function fit(size: ImageSize, maxWidth: number, maxHeight: number): ImageSize {
  const scale = Math.min(1, maxWidth / size.width, maxHeight / size.height);
  return { width: Math.floor(size.width * scale), height: Math.floor(size.height * scale) };
}

/**
 * OpenAI, GPT-4o family at `detail: "auto"` (what the adapters send): fit in 2048x2048, scale the
 * shorter side down to 768, then 85 tokens plus 170 per 512-pixel tile.
 */
const OPENAI: ImageRule = {
  name: 'openai-tiles',
  tokens(size) {
    const boxed = fit(size, 2048, 2048);
    const shorter = Math.min(boxed.width, boxed.height);
    const scaled = shorter > 768 ? fit(boxed, (boxed.width * 768) / shorter, (boxed.height * 768) / shorter) : boxed;
    return 85 + 170 * Math.ceil(scaled.width / 512) * Math.ceil(scaled.height / 512);
  },
};

/** Anthropic: fit the long edge in 1568 pixels, then width x height / 750. */
const ANTHROPIC: ImageRule = {
  name: 'anthropic-pixels',
  tokens(size) {
    const scaled = fit(size, 1568, 1568);
    return Math.ceil((scaled.width * scaled.height) / 750);
  },
};

/** Gemini: 258 tokens for an image up to 384 pixels a side, else 258 per 768-pixel tile. */
const GEMINI: ImageRule = {
  name: 'gemini-tiles',
  tokens(size) {
    if (size.width <= 384 && size.height <= 384) return 258;
    return 258 * Math.ceil(size.width / 768) * Math.ceil(size.height / 768);
  },
};

/** The rule for a format; MCP hands images to whatever model its client runs, so Anthropic's (the MCP clients' most common) stands in. */
export function imageRule(format: ContextFormat): ImageRule {
  if (format === 'anthropic' || format === 'mcp') return ANTHROPIC;
  if (format === 'gemini') return GEMINI;
  return OPENAI;
}
