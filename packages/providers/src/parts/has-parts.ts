import type { SuccessOutcome } from '@toolshed/core';

/** Whether a success has anything beyond its output to send: parts, or notes on parts left out. */
export function hasParts(outcome: SuccessOutcome): boolean {
  return (outcome.parts?.length ?? 0) > 0 || (outcome.partIssues?.length ?? 0) > 0;
}
