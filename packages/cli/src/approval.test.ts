import { describe, expect, it } from 'vitest';
import { terminalApproval } from './approval.js';

const call = { callId: 'c', name: 'send_email', input: { to: 'a@example.com' } };
const risky = {
  name: 'send_email',
  description: 'Send.',
  inputSchema: { type: 'object' },
  annotations: { destructive: true, openWorld: true },
};
const safe = { name: 'echo', description: 'Echo.', inputSchema: { type: 'object' }, annotations: { readOnly: true } };

describe('terminalApproval', () => {
  it('allows tools that need no approval without asking', async () => {
    expect(await (await terminalApproval(false))(call, safe)).toBe(true);
  });

  it('refuses a risky tool without a terminal, saying how to allow it', async () => {
    // vitest runs without a terminal on stdin.
    expect(process.stdin.isTTY).toBeFalsy();
    expect(await (await terminalApproval(false))(call, risky)).toEqual({
      approved: false,
      reason:
        'send_email needs approval (it is destructive and open-world) and there is no terminal to ask; run it again with --yes to allow it',
    });
  });

  it('allows a risky tool with --yes', async () => {
    expect(await (await terminalApproval(true))(call, risky)).toBe(true);
  });
});
