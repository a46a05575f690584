import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { CoreMismatch } from './types.js';

// The apiVersion rule is core's (`@toolshed/core/contract`), shared with manifest generation and the testing kit.
export { SUPPORTED_API_VERSIONS } from '@toolshed/core/contract';

let coreVersion: string | undefined;

/** The version of the @toolshed/core this host runs with. */
export function runningCoreVersion(): string {
  if (coreVersion === undefined) {
    const file = createRequire(import.meta.url).resolve('@toolshed/core/package.json');
    coreVersion = (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
  }
  return coreVersion;
}

/**
 * The plugin's peer range for @toolshed/core when it does not admit the running core, else
 * undefined. Read from its package.json alone, so listings show it without importing the plugin.
 */
export async function coreMismatch(peerDependencies: unknown): Promise<CoreMismatch | undefined> {
  const range =
    typeof peerDependencies === 'object' && peerDependencies !== null
      ? (peerDependencies as Record<string, unknown>)['@toolshed/core']
      : undefined;
  if (range === undefined) return undefined;
  const running = runningCoreVersion();
  if (typeof range === 'string' && (await admits(running, range))) return undefined;
  return { range: typeof range === 'string' ? range : JSON.stringify(range), running };
}

// The forms compare-versions reads as semver does (compat.test.ts checks them against semver):
// a release version, and one caret range of a major from 1 up, without leading zeros, as plugins declare.
const RELEASE = /^\d+\.\d+\.\d+$/;
const CARET = /^\^[1-9]\d*(?:\.(?:0|[1-9]\d*)){0,2}$/;

/**
 * Whether a peer range admits a version, as npm reads it. Listings check every plugin, and
 * semver costs about a fifth of `toolshed list`'s start-up (it compiles some 40 regular
 * expressions), so the form nearly every plugin declares (`^1`) is read by compare-versions,
 * a few small functions; every other range or version goes to semver.
 */
export async function admits(version: string, range: string): Promise<boolean> {
  if (RELEASE.test(version) && CARET.test(range)) {
    const { satisfies } = await import('compare-versions');
    return satisfies(version, range);
  }
  const { default: satisfies } = await import('semver/functions/satisfies.js');
  return satisfies(version, range, { includePrerelease: true });
}

export function describeCoreMismatch(mismatch: CoreMismatch): string {
  return `it asks for @toolshed/core ${JSON.stringify(mismatch.range)} but runs with ${mismatch.running}; it may misbehave. Install a version of the plugin made for @toolshed/core ${mismatch.running}.`;
}
