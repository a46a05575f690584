import type { ResultOptions } from '../result-text.js';

/** The per-part byte cap an adapter applies: the caller's, else the API's own limit. */
export function checkMaxPartBytes(options: ResultOptions | undefined, apiLimit: number): number {
  const max = options?.maxPartBytes ?? apiLimit;
  if (max === Infinity) return max;
  if (typeof max !== 'number' || !Number.isInteger(max) || max < 0) {
    throw new RangeError(`maxPartBytes must be a whole number of bytes (or Infinity), got ${String(max)}.`);
  }
  return max;
}
