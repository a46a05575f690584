import type { Outcome } from '@toolshed/core';
import type { ToolFormat } from './formats.js';
import type { ParsedToolCall } from './parsed-call.js';
import type { ResultOptions } from './result-text.js';
import type { ToolSource } from './source.js';

export interface ParseOptions {
  /**
   * The tools that were sent (the registry, or the list given to `tools`).
   * The strict adapters need them: where strict mode made an optional key
   * nullable, a `null` from the model becomes a missing key again, so the
   * tool's own schema decides (defaults apply). The others ignore them.
   * `runToolCalls` passes its registry.
   */
  tools?: ToolSource;
}

/**
 * One model API's side of a tool loop, in three parts: the tools as its
 * request takes them, the tool calls read from its reply, and the outcomes as
 * the message(s) that answer them. Plain data in, plain data out.
 */
export interface Adapter<Tools = unknown, Results = unknown, Format extends ToolFormat = ToolFormat> {
  /** The format's name, as `toolshed schema --format` takes it. */
  readonly format: Format;
  /** The request's tools, from a registry or the list `registry.list()` gives. */
  tools(source: ToolSource): Tools;
  /**
   * The tool calls in a reply (the adapter says which parts of a reply it
   * takes). Never throws for anything a model sends: a call it cannot read
   * carries an `error`, which `runToolCalls` answers without running the tool.
   */
  parseCalls(reply: unknown, options?: ParseOptions): ParsedToolCall[];
  /** What to send back: one result per outcome, in call order, each capped at `maxChars`. */
  results(outcomes: readonly Outcome[], options?: ResultOptions): Results;
}
