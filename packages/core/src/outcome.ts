import type { ContentPart } from './content-part.js';
import type { CallIssue } from './issues.js';

export const ERROR_CODES = ['unknown_tool', 'invalid_input', 'denied', 'timeout', 'aborted', 'execution_failed', 'invalid_output'] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** A call as a model (or a harness) makes it. */
export interface ToolCall {
  name: string;
  input: unknown;
  /** Reused when given, so a retried call keeps its identity. */
  callId?: string;
}

export interface CallError {
  code: ErrorCode;
  /** Written for a model to correct itself. */
  message: string;
  /** For invalid_input and invalid_output: every problem with its path. */
  issues?: CallIssue[];
}

interface OutcomeBase {
  callId: string;
  name: string;
  /**
   * The input as the call sent it; undefined when JSON cannot carry it (a cycle, a BigInt,
   * nesting deeper than the stack: refused as invalid_input), so what a caller sent never
   * makes an outcome unwritable as JSON.
   */
  input: unknown;
  /** Wall time from dispatch to outcome, validation included, in milliseconds. */
  durationMs: number;
}

export interface SuccessOutcome extends OutcomeBase {
  ok: true;
  output: unknown;
  /** Images, audio and files the tool returned with its output (see withParts), each checked. */
  parts?: ContentPart[];
  /** One per part the registry left out (bad base64, a lying MIME type, past a cap), naming its index and field. */
  partIssues?: CallIssue[];
}

export interface FailureOutcome extends OutcomeBase {
  ok: false;
  error: CallError;
}

export type Outcome = SuccessOutcome | FailureOutcome;
