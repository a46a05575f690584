/**
 * Call ids made up for calls that came without one (or with ""), as Gemini and
 * some OpenAI-compatible servers send them. Dispatch needs an id of its own
 * for every call: ledgers keep side effects to once per call id, and
 * transcripts tell calls apart. The reply must still pair with the model's own
 * call, so the result builders send such a call's result back with the id the
 * model gave it: none (Gemini) or "" (OpenAI, Anthropic), in call order.
 */
export const LOCAL_CALL_ID_PREFIX = 'toolshed-local-';

/** The provider's id when it sent a usable one, else a fresh local id. */
export function callIdOf(providerId: string | undefined): string {
  return providerId !== undefined && providerId !== '' ? providerId : `${LOCAL_CALL_ID_PREFIX}${globalThis.crypto.randomUUID()}`;
}

/** The id to answer the model with: its own, which for a local id was "" or none. */
export function replyIdOf(callId: string): string {
  return callId.startsWith(LOCAL_CALL_ID_PREFIX) ? '' : callId;
}
