import { brand, hasBrand } from './brand.js';
import type { CallIssue } from './issues.js';

/** The failure codes a handler may choose; the rest belong to the runtime. */
export type ToolErrorCode = 'denied' | 'invalid_input' | 'execution_failed';

/**
 * Throw from a handler to choose the outcome's code and say, in the tool's own
 * words, what was wrong and what to do, e.g. a path outside the allowed root:
 * `throw new ToolError('denied', 'read_file may not read outside the project')`.
 * Anything else a handler throws becomes `execution_failed`.
 */
export class ToolError extends Error {
  readonly code: ToolErrorCode;
  readonly issues?: CallIssue[];

  constructor(code: ToolErrorCode, message: string, options?: { issues?: CallIssue[]; cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ToolError';
    this.code = code;
    if (options?.issues) this.issues = options.issues;
  }
}

const TOOL_ERROR = Symbol.for('toolshed.ToolError');
brand(ToolError.prototype, TOOL_ERROR);

/** True for a `ToolError` from any copy of `@toolshed/core` loaded in this process. */
export function isToolError(value: unknown): value is ToolError {
  return hasBrand(value, TOOL_ERROR);
}
