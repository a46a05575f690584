import type { PluginReport } from '@toolshed/host';
import { describe, expect, it } from 'vitest';
import { describePermissions } from './permissions-line.js';

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

describe('toolshed plugins, on permissions', () => {
  it('shows what an isolated plugin is granted', () => {
    const permissions = { read: ['/p/docs'], write: [], net: ['smtp.example.com:587'], env: ['SMTP_PASSWORD'], spawn: false };
    expect(describePermissions(report({ isolated: true, permissions }))).toBe(
      'permissions: read /p/docs; write -; net smtp.example.com:587; env SMTP_PASSWORD; spawn no (isolated, granted only these)',
    );
  });

  it('says a plugin in the host has your full rights', () => {
    expect(describePermissions(report({}))).toBe('permissions: none declared (runs in the host with your full rights)');
  });
});
