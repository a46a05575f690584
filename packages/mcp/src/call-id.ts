import { MCP_CALL_ID_META, mcpCallIdProblem } from '@toolshed/providers';

/**
 * The `_meta` key a client sets on `tools/call` to name the call, so that a retry
 * of the same call carries the same id and a tool that keeps a ledger (such as
 * send_email) answers it from its record instead of acting twice. The rule for
 * it is the MCP adapter's, in @toolshed/providers.
 */
export const CALL_ID_META = MCP_CALL_ID_META;

/** The call id a request names, a fresh one when it names none, or the problem with the one it names. */
export function callIdOf(meta: Record<string, unknown> | undefined, fresh: () => string): { callId: string } | { problem: string } {
  const given = meta?.[CALL_ID_META];
  const problem = mcpCallIdProblem(given);
  if (problem !== undefined) return { problem };
  return { callId: typeof given === 'string' ? given : fresh() };
}
