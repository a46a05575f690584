import { MCP_CALL_ID_META, mcpCallIdProblem } from '@toolshed/providers';

/**
 * The call id a request names in `_meta["toolshed/callId"]`, a fresh one when it names none, or
 * the problem with the one it names. A client names the call so that a retry of the same call
 * carries the same id and a tool that keeps a ledger (such as send_email) answers it from its
 * record instead of acting twice. The rule for it is the MCP adapter's, in @toolshed/providers.
 */
export function callIdOf(meta: Record<string, unknown> | undefined, fresh: () => string): { callId: string } | { problem: string } {
  const given = meta?.[MCP_CALL_ID_META];
  const problem = mcpCallIdProblem(given);
  if (problem !== undefined) return { problem };
  return { callId: typeof given === 'string' ? given : fresh() };
}
