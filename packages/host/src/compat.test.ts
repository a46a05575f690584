import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import satisfies from 'semver/functions/satisfies.js';
import { describe, expect, it } from 'vitest';
import { admits, coreMismatch } from './compat.js';

const VERSIONS = [
  '0.0.0',
  '0.0.1',
  '0.1.0',
  '0.9.0',
  '0.9.5',
  '1.0.0',
  '1.0.1',
  '1.2.0',
  '1.2.3',
  '1.2.3-rc.1',
  '1.3.0',
  '1.10.0',
  '2.0.0',
  '2.0.0-rc.1',
  '2.0.0-0',
  '2.5.1',
  '10.0.0',
  '10.2.3',
  '1.9.99',
];
const RANGES = [
  '^1',
  '^1.0.0',
  '^1.2',
  '^1.2.3',
  '^0',
  '^0.0',
  '^0.0.0',
  '^0.9.0',
  '^1.10',
  '^1.2.10',
  '^2',
  '^10',
  '^10.0.0',
  '^1.3.0',
  '^1.0.1',
  '^0.9.5',
  '^1.2.3-rc.0',
  '^0.9',
  '^0.9.1',
  '^0.0.1',
  '~1',
  '~1.2',
  '~1.2.3',
  '1',
  '1.2',
  '1.x',
  '1.2.x',
  '1.*',
  '*',
  '',
  'x',
  '>=1',
  '>=1.2.0',
  '>1.2.3',
  '<2',
  '<2.0.0',
  '<=1.2',
  '<=1.2.3',
  '=1.2.3',
  '1.2.3',
  'v1.2.3',
  '>=1.0.0 <2.0.0',
  '>= 1.2 < 2',
  '>=1 <1.3',
  '^1 || ^2',
  '1.x || >=2.5.0',
  '^0.9 || ^10',
  '1.2.3 - 2',
  '1.2 - 1.3',
  '1.2.3 - 2.0.0',
  '>=1.0.0-0',
  '<2.0.0-0',
  '^2.0.0-rc.0',
  'workspace:^',
  'latest',
  'not a range',
  '>=1 <=',
  '^01',
];

describe('a peer range admits a version exactly as semver says', () => {
  it(`agrees with semver (includePrerelease) on ${VERSIONS.length * RANGES.length} version and range pairs`, async () => {
    const disagreements: string[] = [];
    for (const version of VERSIONS) {
      for (const range of RANGES) {
        const expected = satisfies(version, range, { includePrerelease: true });
        if ((await admits(version, range)) !== expected)
          disagreements.push(`${version} in ${JSON.stringify(range)}: semver says ${expected}`);
      }
    }
    expect(disagreements).toEqual([]);
  });
});

describe('the running core version', () => {
  it('is the version in the package.json of the @toolshed/core host resolves', async () => {
    // Found another way here (CommonJS resolution of the package.json itself) than core's own read.
    const manifest = createRequire(import.meta.url).resolve('@toolshed/core/package.json');
    const { version } = JSON.parse(readFileSync(manifest, 'utf8')) as { version: string };
    expect(await coreMismatch({ '@toolshed/core': '^0.9' })).toEqual({ range: '^0.9', running: version });
    expect(await coreMismatch({ '@toolshed/core': `^${version}` })).toBeUndefined();
  });
});
