import type { SuccessOutcome } from '@toolshed/core';
import { outcomeText } from '../result-text.js';

/**
 * The text block that leads a result with parts: the output's text (or the unwritable-output
 * message), none when the tool gave only parts (the parts are its answer).
 */
export function leadingText(outcome: SuccessOutcome, maxChars: number): string | undefined {
  const silent = (outcome.parts ?? []).length > 0 && (outcome.output === undefined || outcome.output === '');
  return silent ? undefined : outcomeText(outcome, maxChars);
}
