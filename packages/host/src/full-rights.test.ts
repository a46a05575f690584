import { describe, expect, it } from 'vitest';
import { fullRightsWarning } from './full-rights.js';
import type { PluginReport } from './types.js';

const report = (fields: Partial<PluginReport>): PluginReport => ({
  name: 'tool-x',
  source: 'dependency',
  spec: 'tool-x',
  tools: ['x'],
  status: 'loaded',
  imported: false,
  warnings: [],
  isolated: false,
  ...fields,
});

describe('fullRightsWarning', () => {
  it('warns about a loaded third-party plugin in the host, and about no other', () => {
    expect(fullRightsWarning(report({}))).toContain('set "isolate": true');
    expect(fullRightsWarning(report({ name: '@toolshed/tool-echo' }))).toBeUndefined();
    expect(fullRightsWarning(report({ isolated: true }))).toBeUndefined();
    expect(fullRightsWarning(report({ source: 'mcp' }))).toBeUndefined();
    expect(fullRightsWarning(report({ status: 'skipped' }))).toBeUndefined();
  });
});
