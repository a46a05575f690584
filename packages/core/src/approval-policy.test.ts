import { describe, expect, it } from 'vitest';
import { approvalPolicy, approvalRisk, needsApproval } from './approval-policy.js';

const call = { callId: 'c', name: 't', input: {} };
const tool = (annotations?: Record<string, boolean>) => ({
  name: 't',
  description: 'd',
  inputSchema: { type: 'object' },
  ...(annotations ? { annotations } : {}),
});

describe('approvalPolicy', () => {
  it('asks only for destructive or open-world tools', async () => {
    const asked: string[] = [];
    const approve = approvalPolicy((_call, t) => {
      asked.push(JSON.stringify(t.annotations));
      return false;
    });
    expect(await approve(call, tool())).toBe(true);
    expect(await approve(call, tool({ readOnly: true }))).toBe(true);
    expect(await approve(call, tool({ destructive: true }))).toBe(false);
    expect(await approve(call, tool({ openWorld: true }))).toBe(false);
    expect(asked).toEqual(['{"destructive":true}', '{"openWorld":true}']);
    expect(needsApproval(tool({ destructive: false, idempotent: true }))).toBe(false);
  });

  it('names the risk in words', () => {
    expect(approvalRisk(tool({ destructive: true }))).toBe('destructive');
    expect(approvalRisk(tool({ openWorld: true, readOnly: true }))).toBe('open-world');
    expect(approvalRisk(tool({ destructive: true, openWorld: true }))).toBe('destructive and open-world');
    expect(approvalRisk(tool({ readOnly: true }))).toBe('');
  });
});
