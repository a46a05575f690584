// The built-in kinds say something a message alone does not ("SyntaxError" at import, "TypeError"
// from a bug in a handler); an Error subclass of a plugin's own speaks in its message.
const BUILT_IN = new Set(['EvalError', 'RangeError', 'ReferenceError', 'SyntaxError', 'TypeError', 'URIError', 'AggregateError']);

/** A readable sentence for anything code can throw, `throw undefined` included. */
export function describeThrown(thrown: unknown): string {
  if (thrown instanceof Error) {
    const kind = BUILT_IN.has(thrown.name) ? thrown.name : '';
    if (!thrown.message) return kind || thrown.name || 'Error';
    return kind ? `${kind}: ${thrown.message}` : thrown.message;
  }
  if (typeof thrown === 'string') return thrown || 'an empty string was thrown';
  if (thrown === undefined || thrown === null) return `it threw ${thrown} instead of an Error`;
  try {
    return `it threw ${JSON.stringify(thrown)}`;
  } catch {
    return `it threw ${String(thrown)}`;
  }
}
