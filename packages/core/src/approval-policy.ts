import type { ToolDefinition } from './definition.js';
import type { Approval, ApproveHook } from './registry.js';

/**
 * A tool needs a person's approval when it may do harm that cannot be taken
 * back (destructive) or acts on the world beyond the host (openWorld).
 */
export function needsApproval(tool: Pick<ToolDefinition, 'annotations'>): boolean {
  return tool.annotations?.destructive === true || tool.annotations?.openWorld === true;
}

/**
 * The default approval policy: calls to tools that need approval go to
 * `confirm` (a terminal prompt, a UI dialog); every other call is allowed.
 * Pass the result as `approve` to a ToolRegistry or to dispatch.
 */
export function approvalPolicy(confirm: ApproveHook): ApproveHook {
  return (call, tool): Approval | Promise<Approval> => (needsApproval(tool) ? confirm(call, tool) : true);
}
