/** A mistake in how the command was called: exit code 2, message on stderr. */
export class UsageError extends Error {
  override name = 'UsageError';
}
