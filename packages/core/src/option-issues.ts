import type * as v from 'valibot';
import { classifyIssue, type IssueProblem } from './issues.js';

/** Join an option path the way a user writes it: `smtp.password`, `to[0]`; `(options)` for the root. */
export function optionPath(path: readonly (string | number)[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(key)) out += out === '' ? key : `.${key}`;
    else out += `[${JSON.stringify(key)}]`;
  }
  return out === '' ? '(options)' : out;
}

/** One problem with a plugin's options, as fields: where, and what (never the value given). */
export interface OptionIssue {
  /** The option path as a user writes it: `smtp.password`. */
  field: string;
  kind: IssueProblem['kind'];
  /** The problem in words, redacted: safe to print, log and show in a report. */
  message: string;
}

// Options may hold secrets (resolved from env references): describe kinds, never values.
function describe(problem: IssueProblem, at: string): string {
  switch (problem.kind) {
    case 'missing':
      return `option ${at} is required`;
    case 'unknown':
      return `unknown option ${JSON.stringify(at)}`;
    case 'type':
      return `option ${at}: expected ${problem.expected}, received ${problem.received}`;
    case 'check': {
      // A check's message may quote the value it checked (valibot's own messages do).
      const leaks = typeof problem.input === 'string' && problem.input !== '' && problem.message.includes(problem.input);
      return leaks ? `option ${at}: failed the ${problem.type} check` : `option ${at}: ${problem.message}`;
    }
  }
}

/** Read valibot's issues with a plugin's options as redacted fields: the one wording host, manifest generation and the kit share. */
export function optionIssues(issues: readonly v.BaseIssue<unknown>[]): OptionIssue[] {
  return issues.map((issue) => {
    const problem = classifyIssue(issue);
    const keys = (issue.path ?? []).map((item) => item.key as string | number);
    const field = optionPath(keys);
    return { field, kind: problem.kind, message: describe(problem, field) };
  });
}
