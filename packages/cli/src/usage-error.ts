const USAGE_ERROR = Symbol.for('toolshed.UsageError');

/** A mistake in how the command was called: exit code 2, message on stderr. */
export class UsageError extends Error {
  override name = 'UsageError';
  readonly [USAGE_ERROR] = true;
}

/**
 * By brand, not instanceof, as every Toolshed error is recognised. Read here rather than with
 * core's hasBrand: this is the command's own error, and requiring @toolshed/core/contract for
 * it was one more package resolution (~0.25 ms) on every plain listing's start.
 */
export function isUsageError(value: unknown): value is UsageError {
  return typeof value === 'object' && value !== null && (value as { [USAGE_ERROR]?: unknown })[USAGE_ERROR] === true;
}
