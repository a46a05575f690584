import type { ToolDefinition } from './tool-definition.js';

/** Ask before a call runs: true to allow, false or `{approved: false, reason}` to deny. */
export type Approval = boolean | { approved: boolean; reason?: string };
export type ApproveHook = (call: { callId: string; name: string; input: unknown }, tool: ToolDefinition) => Approval | Promise<Approval>;

/**
 * What a registry or a single dispatch does about approval: ask a hook, or
 * `'allow-all'` to run every call without asking. Left out, calls to tools
 * that need approval are denied (see `needsApproval`).
 */
export type ApprovalSetting = ApproveHook | 'allow-all';

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

/** Why a tool needs approval, in words: `destructive`, `open-world`, or both. */
export function approvalRisk(tool: Pick<ToolDefinition, 'annotations'>): string {
  const risks = [];
  if (tool.annotations?.destructive === true) risks.push('destructive');
  if (tool.annotations?.openWorld === true) risks.push('open-world');
  return risks.join(' and ');
}

/** The denial a model reads when a tool needs approval and nobody can give it. */
export function noApproverMessage(tool: Pick<ToolDefinition, 'name' | 'annotations'>): string {
  return (
    `${tool.name} needs approval (it is ${approvalRisk(tool)}) and this harness has no approval hook, so the call was not made. ` +
    `Do not retry it; tell the user what you wanted ${tool.name} to do, or take another approach.`
  );
}

/** Programmer errors throw at once: an `approve` that is neither a function nor 'allow-all'. */
export function checkApprovalSetting(where: string, approve: unknown): ApprovalSetting | undefined {
  if (approve === undefined || approve === 'allow-all' || typeof approve === 'function') return approve as ApprovalSetting | undefined;
  throw new TypeError(
    `${where}: "approve" must be a function (call, tool) => boolean | {approved, reason} or 'allow-all', got ${JSON.stringify(approve) ?? String(approve)}.`,
  );
}
