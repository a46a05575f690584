import type { SuccessOutcome } from '@toolshed/core';

/** What a model reads about the parts the registry left out (bad bytes, past a cap), or undefined when none was. */
export function partIssueNotes(outcome: SuccessOutcome): string | undefined {
  const issues = outcome.partIssues ?? [];
  if (issues.length === 0) return undefined;
  return issues.map((issue) => `[${issue.message}]`).join('\n');
}
