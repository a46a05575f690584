import { isRecord } from './record.js';

/**
 * Which tool definitions a model is sent up front. `always` sends every tool
 * (the default). `search` sends a search tool and the `alwaysLoaded` tools,
 * and a tool's definition only after a search found it. `auto` does the same
 * only when every definition together would take more than `share` (default
 * 0.1) of a `contextWindow` of that many tokens (default 128,000). Core only holds
 * and checks the setting; `@toolshed/context` measures, searches and decides.
 */
export type Exposure =
  | { mode: 'always' }
  | { mode: 'search'; alwaysLoaded?: string[] }
  | { mode: 'auto'; contextWindow?: number; share?: number; alwaysLoaded?: string[] };

/** An exposure setting as checked: `auto` has its window and share filled in. */
export type CheckedExposure =
  | Exclude<Exposure, { mode: 'auto' }>
  | (Extract<Exposure, { mode: 'auto' }> & { contextWindow: number; share: number });

export const DEFAULT_EXPOSURE_SHARE = 0.1;
/** The smallest window of the models a harness commonly drives (128k tokens), so `auto` defers too early rather than too late. */
export const DEFAULT_EXPOSURE_CONTEXT_WINDOW = 128_000;

const MODES = ['always', 'search', 'auto'];
const KEYS: Record<string, string[]> = {
  always: ['mode'],
  search: ['mode', 'alwaysLoaded'],
  auto: ['mode', 'contextWindow', 'share', 'alwaysLoaded'],
};

/** Every problem with an exposure setting, each naming its field under `at` (e.g. `exposure`). */
export function exposureProblems(value: unknown, at = 'exposure'): string[] {
  if (!isRecord(value)) return [`${at} must be an object like {"mode": "search"}, got ${JSON.stringify(value) ?? String(value)}`];
  const { mode } = value;
  if (typeof mode !== 'string' || !MODES.includes(mode)) {
    return [`${at}.mode must be "always", "search" or "auto", got ${JSON.stringify(mode) ?? 'nothing'}`];
  }
  const problems: string[] = [];
  for (const key of Object.keys(value)) {
    if (!KEYS[mode]!.includes(key)) problems.push(`${at} has unknown key "${key}" for mode "${mode}"; use ${KEYS[mode]!.join(', ')}`);
  }
  if (mode === 'auto') {
    const { contextWindow, share } = value;
    if (contextWindow !== undefined && (typeof contextWindow !== 'number' || !Number.isInteger(contextWindow) || contextWindow <= 0)) {
      problems.push(
        `${at}.contextWindow must be the model's context window in tokens (a whole number above 0; leave it out for ${DEFAULT_EXPOSURE_CONTEXT_WINDOW}), got ${JSON.stringify(contextWindow)}`,
      );
    }
    if (share !== undefined && (typeof share !== 'number' || !(share > 0 && share <= 1))) {
      problems.push(`${at}.share must be a number above 0 and at most 1 (0.1 is 10%), got ${JSON.stringify(share)}`);
    }
  }
  const { alwaysLoaded } = value;
  if (alwaysLoaded !== undefined && (!Array.isArray(alwaysLoaded) || !alwaysLoaded.every((name) => typeof name === 'string'))) {
    problems.push(`${at}.alwaysLoaded must be a list of tool names, got ${JSON.stringify(alwaysLoaded)}`);
  }
  return problems;
}

/** A checked copy with `contextWindow` and `share` filled in; throws a TypeError listing every problem. */
export function checkExposure(where: string, value: unknown): CheckedExposure {
  const problems = exposureProblems(value);
  if (problems.length > 0) throw new TypeError(`${where}: ${problems.join('; ')}.`);
  const exposure = JSON.parse(JSON.stringify(value)) as Exposure;
  if (exposure.mode !== 'auto') return exposure;
  return {
    ...exposure,
    contextWindow: exposure.contextWindow ?? DEFAULT_EXPOSURE_CONTEXT_WINDOW,
    share: exposure.share ?? DEFAULT_EXPOSURE_SHARE,
  };
}
