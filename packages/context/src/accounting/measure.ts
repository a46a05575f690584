import type { ToolDefinition } from '@toolshed/core';
import { CONTEXT_FORMATS, isContextFormat, render, type ContextFormat } from './formats.js';
import { loadO200k, type CountTokens } from './tokenizer.js';
import { definitionsOf, type ToolSource } from '../source.js';

/** The size of one piece of JSON text as sent. */
export interface Cost {
  bytes: number;
  tokens: number;
}

export interface ToolCost {
  name: string;
  /** The whole tool as the format sends it. */
  total: Cost;
  /** The description, as its JSON string. */
  description: Cost;
  /** The input schema as this format sends it (strict rewrite, Gemini subset…); zero when the format leaves it out. */
  inputSchema: Cost;
}

export interface ContextReport {
  format: ContextFormat;
  /** The encoding counted with. */
  tokenizer: 'o200k_base';
  /**
   * True where the provider's own tokenizer is not available offline
   * (Anthropic, Gemini, MCP clients' models): the o200k count then stands in for it.
   */
  estimate: boolean;
  tools: ToolCost[];
  /** The whole value put in the request (`tools`, or MCP's `tools/list` result), brackets and commas included. */
  total: Cost;
}

export interface MeasureOptions {
  format: ContextFormat;
}

const EXACT: ReadonlySet<ContextFormat> = new Set(['openai', 'openai-strict', 'openai-responses', 'openai-responses-strict']);
const NOTHING: Cost = { bytes: 0, tokens: 0 };

function costOf(count: CountTokens, value: unknown): Cost {
  if (value === undefined) return { ...NOTHING };
  const text = JSON.stringify(value);
  return { bytes: Buffer.byteLength(text, 'utf8'), tokens: count(text) };
}

/** Measure with a counter already loaded (the benchmarks and `measureTools` share this). */
export function measureWith(count: CountTokens, definitions: readonly ToolDefinition[], format: ContextFormat): ContextReport {
  const rendered = render(format, definitions);
  return {
    format,
    tokenizer: 'o200k_base',
    estimate: !EXACT.has(format),
    tools: rendered.tools.map((tool) => ({
      name: tool.name,
      total: costOf(count, tool.sent),
      description: costOf(count, tool.description),
      inputSchema: costOf(count, tool.inputSchema),
    })),
    total: costOf(count, rendered.payload),
  };
}

/**
 * The bytes and tokens of exactly what a format sends for these tools, per
 * tool (split into description and input schema) and in total.
 * Throws a TypeError for an unknown format, and the providers' StrictSchemaError
 * when `openai-strict` cannot take a schema.
 */
export async function measureTools(source: ToolSource, options: MeasureOptions): Promise<ContextReport> {
  const format = options?.format;
  if (!isContextFormat(format)) {
    throw new TypeError(`Unknown format ${JSON.stringify(format)}; use one of ${CONTEXT_FORMATS.join(', ')}.`);
  }
  return measureWith(await loadO200k(), definitionsOf(source), format);
}
