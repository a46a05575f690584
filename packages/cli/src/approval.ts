import { type ApproveHook, approvalPolicy, approvalRisk } from '@toolshed/core';

/**
 * The CLI's approval: tools that need approval (destructive or open-world)
 * are confirmed on the terminal; without a terminal they are refused unless
 * the user said --yes up front.
 */
export async function terminalApproval(yes: boolean): Promise<ApproveHook> {
  return approvalPolicy(async (call, tool) => {
    if (yes) return true;
    if (!process.stdin.isTTY || !process.stderr.isTTY) {
      return {
        approved: false,
        reason: `${tool.name} needs approval (it is ${approvalRisk(tool)}) and there is no terminal to ask; run it again with --yes to allow it`,
      };
    }
    // readline loads only when there is someone to ask.
    const rl = process.getBuiltinModule('node:readline/promises').createInterface({ input: process.stdin, output: process.stderr });
    try {
      const answer = await rl.question(`Allow ${tool.name} (${approvalRisk(tool)}) with ${JSON.stringify(call.input)}? [y/N] `);
      return /^y(es)?$/i.test(answer.trim()) ? true : { approved: false, reason: 'the user said no' };
    } finally {
      rl.close();
    }
  });
}
