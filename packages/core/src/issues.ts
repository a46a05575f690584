import type * as v from 'valibot';

/** One problem with a call's input (or a tool's output), as a model reads it. */
export interface CallIssue {
  /** Path segments from the root of the input, e.g. ["a", "items", 2, "b"]. */
  path: (string | number)[];
  /** The path written out with the tool's name: `mytool.a.items[2].b`. */
  at: string;
  message: string;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/**
 * A path written out as a user writes it, after `root` when there is one: `echo.items[2].b` for a
 * tool's input, `smtp.password` for an option, `params["a b"]` for a request field.
 */
export function formatPath(path: readonly PropertyKey[], root = ''): string {
  let out = root;
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else if (typeof key === 'string' && IDENTIFIER.test(key)) out += out === '' ? key : `.${key}`;
    else out += `[${JSON.stringify(String(key))}]`;
  }
  return out;
}

/** An option path: `smtp.password`, `to[0]`; `(options)` for the options as a whole. */
export function optionPath(path: readonly PropertyKey[]): string {
  return formatPath(path) || '(options)';
}

/** The kind of value a model sent, in the words of JSON. */
export function describeReceived(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  return typeof value;
}

function describeExpected(expected: string | null): string {
  // valibot writes unions as `("a" | "b")`; JSON Schema words read better.
  if (!expected) return 'a valid value';
  if (expected === 'Object' || expected === 'Array') return expected.toLowerCase();
  return expected.replace(/^\((.*)\)$/, '$1');
}

/**
 * What one valibot issue says is wrong, as fields: the host words option issues from
 * the same reading as a tool's input issues, so the two never drift apart.
 */
export type IssueProblem =
  | { kind: 'missing'; key: string | number }
  | { kind: 'unknown'; key: string | number }
  | { kind: 'type'; expected: string; received: string }
  /** A validation action (length, format, range...); `message` may quote the value checked. */
  | { kind: 'check'; type: string; message: string; input: unknown };

export function classifyIssue(issue: v.BaseIssue<unknown>): IssueProblem {
  const last = issue.path?.[issue.path.length - 1];
  // valibot marks problems with an object's keys (rather than values) with origin "key".
  if (issue.kind === 'schema' && last?.origin === 'key') {
    const parent = last.input as object;
    const key = last.key as string | number;
    if (!Object.hasOwn(parent, key as PropertyKey)) return { kind: 'missing', key };
    if (issue.expected === 'never') return { kind: 'unknown', key };
  }
  if (issue.kind === 'schema') {
    return { kind: 'type', expected: describeExpected(issue.expected), received: describeReceived(issue.input) };
  }
  return { kind: 'check', type: issue.type, message: issue.message, input: issue.input };
}

function issueMessage(issue: v.BaseIssue<unknown>): string {
  const problem = classifyIssue(issue);
  switch (problem.kind) {
    case 'missing':
      return `missing required field ${JSON.stringify(problem.key)}`;
    case 'unknown':
      return `unknown field ${JSON.stringify(problem.key)}; remove it`;
    case 'type':
      return `expected ${problem.expected}, received ${problem.received}`;
    case 'check':
      // Validation actions carry a specific message, possibly the tool author's own.
      return problem.message;
  }
}

function issuePath(issue: v.BaseIssue<unknown>): (string | number)[] {
  return (issue.path ?? []).map((item) => item.key as string | number);
}

export function toCallIssues(toolName: string, issues: readonly v.BaseIssue<unknown>[]): CallIssue[] {
  return issues.map((issue) => {
    const path = issuePath(issue);
    return { path, at: formatPath(path, toolName), message: issueMessage(issue) };
  });
}

/** `Invalid input for echo.text: expected string, received number` (+ more issues). */
export function summarizeIssues(prefix: string, issues: readonly CallIssue[]): string {
  return `${prefix} ${issues.map((issue) => `${issue.at}: ${issue.message}`).join('; ')}`;
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
    const field = optionPath(issuePath(issue));
    return { field, kind: problem.kind, message: describe(problem, field) };
  });
}
