import { coreVersion, isRecord } from '@toolshed/core/contract';
import type { CoreMismatch } from './types.js';

/**
 * The plugin's peer range for @toolshed/core when it does not admit the running core, else
 * undefined. Read from its package.json alone, so listings show it without importing the plugin.
 */
export async function coreMismatch(peerDependencies: unknown): Promise<CoreMismatch | undefined> {
  const range = isRecord(peerDependencies) ? peerDependencies['@toolshed/core'] : undefined;
  if (range === undefined) return undefined;
  // The core this host runs with: the copy whose contract it imported.
  const running = coreVersion();
  if (typeof range === 'string' && (await admits(running, range))) return undefined;
  return { range: typeof range === 'string' ? range : JSON.stringify(range), running };
}

// The form nearly every plugin declares, read here as semver reads it (compat.test.ts checks
// every pair against semver): a release version without leading zeros, and one caret range of
// a major from 1 up.
const RELEASE = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$/;
const CARET = /^\^([1-9]\d*)(?:\.(0|[1-9]\d*))?(?:\.(0|[1-9]\d*))?$/;

/**
 * Whether a peer range admits a version, as npm reads it. Listings check every plugin, and
 * loading semver (it compiles dozens of regular expressions) weighs on `toolshed list`'s start-up
 * (the CLI's start bench), as does importing any CommonJS package: `^M[.m[.p]]` against `X.Y.Z` is
 * read here (same major, then minor and patch at least the range's), every other form goes to semver.
 */
export async function admits(version: string, range: string): Promise<boolean> {
  const release = RELEASE.exec(version);
  const caret = CARET.exec(range);
  if (release && caret) {
    const [major = 0, minor = 0, patch = 0] = release.slice(1).map(Number);
    const [wantMajor = 0, wantMinor = 0, wantPatch = 0] = caret.slice(1).map((part) => Number(part ?? 0));
    return major === wantMajor && (minor > wantMinor || (minor === wantMinor && patch >= wantPatch));
  }
  const { default: satisfies } = await import('semver/functions/satisfies.js');
  return satisfies(version, range, { includePrerelease: true });
}

export function describeCoreMismatch(mismatch: CoreMismatch): string {
  return `it asks for @toolshed/core ${JSON.stringify(mismatch.range)} but runs with ${mismatch.running}; it may misbehave. Install a version of the plugin made for @toolshed/core ${mismatch.running}.`;
}
