import { brand, hasBrand } from '@toolshed/core/contract';

const USAGE_ERROR = Symbol.for('toolshed.UsageError');

/** A mistake in how the command was called: exit code 2, message on stderr. */
export class UsageError extends Error {
  override name = 'UsageError';
}
brand(UsageError.prototype, USAGE_ERROR);

/** By brand, not instanceof, as every Toolshed error is recognised. */
export function isUsageError(value: unknown): value is UsageError {
  return hasBrand(value, USAGE_ERROR);
}
