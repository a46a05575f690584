/** A readable sentence for anything a handler can throw, `throw undefined` included. */
export function describeThrown(thrown: unknown): string {
  if (thrown instanceof Error) return thrown.message || thrown.name;
  if (typeof thrown === 'string') return thrown || 'an empty string was thrown';
  if (thrown === undefined || thrown === null) return `it threw ${thrown} instead of an Error`;
  try {
    return `it threw ${JSON.stringify(thrown)}`;
  } catch {
    return `it threw ${String(thrown)}`;
  }
}
