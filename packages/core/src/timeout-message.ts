import { needsApproval } from './approval-policy.js';
import type { ToolDefinition } from './tool-definition.js';

/**
 * The message of a `timeout` outcome. A tool that acts beyond the host (it needs approval) and
 * is neither read-only nor idempotent may have done, or may still do, what it was asked after
 * it was stopped (a mail already handed over): retrying it as a new call could do it twice.
 */
export function timeoutMessage(
  tool: Pick<ToolDefinition, 'name' | 'annotations'>,
  origin: string | undefined,
  timeoutMs: number,
  callId: string,
): string {
  // The origin (a plugin, an MCP server) says whose tool hung: with MCP servers mounted, a bare
  // tool name may not tell the person reading the outcome which server to look at.
  const stopped = `${tool.name}${origin === undefined ? '' : ` (${origin})`} did not finish within ${timeoutMs} ms and was stopped`;
  const mayStillAct = needsApproval(tool) && tool.annotations?.readOnly !== true && tool.annotations?.idempotent !== true;
  if (!mayStillAct) return `${stopped}. Try a smaller request, or retry later.`;
  return (
    `${stopped}, but what it was doing may still have happened or may still happen: ${tool.name} acts outside the host and is not idempotent. ` +
    `Do not call it again as a new call: check whether it took effect first, and retry only with the same call id (${JSON.stringify(callId)}).`
  );
}
