/**
 * The `_meta` key a client sets on `tools/call` to name the call, so that a retry
 * of the same call carries the same id and a tool that keeps a ledger (such as
 * send_email) answers it from its record instead of acting twice.
 */
export const CALL_ID_META = 'toolshed/callId';

const MAX_LENGTH = 200;

/** The call id a request names, a fresh one when it names none, or the problem with the one it names. */
export function callIdOf(meta: Record<string, unknown> | undefined, fresh: () => string): { callId: string } | { problem: string } {
  const given = meta?.[CALL_ID_META];
  if (given === undefined) return { callId: fresh() };
  if (typeof given !== 'string' || given.length === 0 || given.length > MAX_LENGTH || /[\u0000-\u001f\u007f]/.test(given)) {
    return {
      problem: `_meta["${CALL_ID_META}"] must be a string of 1 to ${MAX_LENGTH} characters without control characters (got ${typeof given === 'string' ? `${given.length} characters` : typeof given}); send the same id when retrying a call, or leave it out.`,
    };
  }
  return { callId: given };
}
