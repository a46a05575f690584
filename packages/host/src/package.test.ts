import { describe, expect, it } from 'vitest';
import { isPackageName } from './package.js';

describe('isPackageName', () => {
  it('takes scoped and unscoped names, old ones with capitals among them', () => {
    for (const name of ['@toolshed/tool-echo', 'tool-shout', 'JSONStream', '@Scope/Name', 'a.b_c-d', '0x', '@0/1'])
      expect(isPackageName(name), name).toBe(true);
  });

  it('refuses what no package is named: paths, a bare scope, leading dots or underscores, spaces', () => {
    for (const name of ['', '../x', './x', '/abs', '@scope', '@/x', '@scope/', 'a/b', '@a/b/c', '.hidden', '_x', 'a b', 'é'])
      expect(isPackageName(name), name).toBe(false);
  });
});
