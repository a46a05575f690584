import { isToolName } from '@toolshed/core';
import { describe, expect, it } from 'vitest';
import { checkToolName, toolNameFor } from './names.js';

describe('the tool a new plugin starts with', () => {
  it.each([
    ['@acme/tool-weather', 'weather'],
    ['toolshed-plugin-get-weather', 'get_weather'],
    ['tool-2fa', 'tool_2fa'],
    ['@x/2fa-check', 'tool_2fa_check'],
    ['tool-', 'my_tool'],
    [`tool-${'a'.repeat(80)}`, 'a'.repeat(64)],
  ])('%s gets %s, a name every supported API accepts', (packageName, expected) => {
    const name = toolNameFor(packageName);
    expect(name).toBe(expected);
    expect(isToolName(name)).toBe(true);
    expect(checkToolName(name)).toBe(name);
  });
});
