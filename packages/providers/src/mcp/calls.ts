import { callIdOf } from '../call-id.js';
import { stringField, type ParsedToolCall } from '../parsed-call.js';

/**
 * The `_meta` key a client sets on `tools/call` to name the call, so that a retry
 * of the same call carries the same id and a tool that keeps a ledger (such as
 * send_email) answers it from its record instead of acting twice.
 */
export const MCP_CALL_ID_META = 'toolshed/callId';

const MAX_CALL_ID_LENGTH = 200;

/** Why a `_meta` call id cannot be used, or undefined when it can (or there is none). */
export function mcpCallIdProblem(given: unknown): string | undefined {
  if (given === undefined) return undefined;
  if (typeof given === 'string' && given.length > 0 && given.length <= MAX_CALL_ID_LENGTH && !/[\u0000-\u001f\u007f]/.test(given))
    return undefined;
  return (
    `_meta["${MCP_CALL_ID_META}"] must be a string of 1 to ${MAX_CALL_ID_LENGTH} characters without control characters ` +
    `(got ${typeof given === 'string' ? `${given.length} characters` : typeof given}); send the same id when retrying a call, or leave it out.`
  );
}

/** A `tools/call` request, or the `params` of one (which name the tool). */
export function isToolsCall(item: unknown): item is object {
  if (typeof item !== 'object' || item === null) return false;
  const { method, name } = item as { method?: unknown; name?: unknown };
  return method === 'tools/call' || (method === undefined && typeof name === 'string');
}

/** One `tools/call` request, or its `params`, as a call. */
export function parseToolsCall(item: object): ParsedToolCall {
  const params = 'params' in item && typeof item.params === 'object' && item.params !== null ? item.params : item;
  const name = stringField(params, 'name') ?? '(unnamed)';
  // `arguments` is optional in MCP; a tool with required fields then names the missing one.
  const input = (params as { arguments?: unknown }).arguments ?? {};
  const meta = (params as { _meta?: unknown })._meta;
  const given = typeof meta === 'object' && meta !== null ? (meta as Record<string, unknown>)[MCP_CALL_ID_META] : undefined;
  const problem = mcpCallIdProblem(given);
  if (problem !== undefined) return { callId: callIdOf(undefined), name, input, error: { code: 'invalid_input', message: problem } };
  return { callId: callIdOf(given as string | undefined), name, input };
}
