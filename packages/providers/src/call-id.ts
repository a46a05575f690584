/**
 * Call ids made up for calls that came without one (or with ""), as Gemini and
 * some OpenAI-compatible servers send them. Dispatch needs an id of its own
 * for every call: ledgers keep side effects to once per call id, and
 * transcripts tell calls apart. The reply must still pair with the model's own
 * call, so the result builders send such a call's result back with the id the
 * model gave it: none (Gemini) or "" (OpenAI, Anthropic), in call order.
 */
export const LOCAL_CALL_ID_PREFIX = 'toolshed-local-';

// A model may send an id that starts with the public prefix, by chance or on
// purpose; only ids this process made carry its random mark, so only those are
// answered with "" and the model's own ids always come back as they were.
const OWN_PREFIX = `${LOCAL_CALL_ID_PREFIX}${globalThis.crypto.randomUUID().slice(0, 8)}-`;

/** The provider's id when it sent a usable one, else a fresh local id. */
export function callIdOf(providerId: string | undefined): string {
  return providerId !== undefined && providerId !== '' ? providerId : `${OWN_PREFIX}${globalThis.crypto.randomUUID()}`;
}

/** The id to answer the model with: its own, which for a local id was "" or none. */
export function replyIdOf(callId: string): string {
  return isLocalCallId(callId) ? '' : callId;
}

/** Whether this process made the id up for a call that came without one. */
export function isLocalCallId(callId: string): boolean {
  return callId.startsWith(OWN_PREFIX);
}
