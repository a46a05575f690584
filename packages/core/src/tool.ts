import type * as v from 'valibot';
import type { PartType } from './content-part.js';
import { assertToolName } from './name.js';
import type { WithParts } from './with-parts.js';

/** Any valibot schema, sync or async. */
export type AnySchema =
  | v.GenericSchema<unknown, unknown, v.BaseIssue<unknown>>
  | v.GenericSchemaAsync<unknown, unknown, v.BaseIssue<unknown>>;

/** Hints for harnesses and approval policies, with the meaning MCP gives them. */
export interface ToolAnnotations {
  /** A human-readable title. */
  title?: string;
  /** The tool does not change its environment. */
  readOnly?: boolean;
  /** The tool may change or delete things irreversibly. */
  destructive?: boolean;
  /** Calling it again with the same input has no further effect. */
  idempotent?: boolean;
  /** The tool reaches the world outside the host (network, other people). */
  openWorld?: boolean;
}

export interface Progress {
  progress: number;
  total?: number;
  message?: string;
}

export interface ToolLogger {
  debug(message: string, data?: unknown): void;
  info(message: string, data?: unknown): void;
  warn(message: string, data?: unknown): void;
  error(message: string, data?: unknown): void;
}

/** What a handler gets besides its input. */
export interface ToolContext {
  readonly callId: string;
  readonly toolName: string;
  /** Aborts on caller cancellation or timeout; the reason says which. */
  readonly signal: AbortSignal;
  /** A logger scoped to this call (tool name and call id attached). */
  readonly log: ToolLogger;
  /** Report progress; delivered to subscribers as `call.progress` events. */
  report(progress: Progress): void;
}

export interface Tool<TInput extends AnySchema = AnySchema, TOutput extends AnySchema | undefined = AnySchema | undefined> {
  readonly name: string;
  readonly description: string;
  readonly input: TInput;
  readonly output?: TOutput;
  readonly annotations?: ToolAnnotations;
  /**
   * The kinds of content parts `run` may return with `withParts` (images, audio, files). A part
   * of a kind not listed here is left out of the outcome with an issue saying so.
   */
  readonly parts?: readonly PartType[];
  /** Default timeout for a call, overridable per dispatch. */
  readonly timeoutMs?: number;
  run(input: v.InferOutput<TInput>, ctx: ToolContext): ToolReturn<TOutput> | Promise<ToolReturn<TOutput>>;
  /**
   * Release what the tool holds (pooled connections, open files). The host calls it once
   * when it closes, and the testing kit after its checks; calls still running may be awaited.
   */
  close?(): void | Promise<void>;
}

export type ToolResult<TOutput> = TOutput extends AnySchema ? v.InferInput<TOutput> : unknown;

/** What `run` returns: the output, or the output with content parts. */
export type ToolReturn<TOutput> = ToolResult<TOutput> | WithParts<ToolResult<TOutput>>;

/** A tool whose types were erased, as a registry stores it. */
// biome-ignore lint/suspicious/noExplicitAny: a registry holds tools of every input and output type
export type AnyTool = Tool<any, any>;

/**
 * Define a tool. The input type of `run` is inferred from the `input` schema.
 * Checks the name at once, so a typo fails where it is written.
 */
export function defineTool<TInput extends AnySchema, TOutput extends AnySchema | undefined = undefined>(
  tool: Tool<TInput, TOutput>,
): Tool<TInput, TOutput> {
  assertToolName(tool.name);
  return tool;
}
