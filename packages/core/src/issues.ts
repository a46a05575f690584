import type * as v from 'valibot';

/** One problem with a call's input (or a tool's output), as a model reads it. */
export interface CallIssue {
  /** Path segments from the root of the input, e.g. ["a", "items", 2, "b"]. */
  path: (string | number)[];
  /** The path written out with the tool's name: `mytool.a.items[2].b`. */
  at: string;
  message: string;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

export function formatPath(toolName: string, path: readonly (string | number)[]): string {
  let out = toolName;
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else if (IDENTIFIER.test(key)) out += `.${key}`;
    else out += `[${JSON.stringify(key)}]`;
  }
  return out;
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

function issueMessage(issue: v.BaseIssue<unknown>): string {
  const last = issue.path?.[issue.path.length - 1];
  // valibot marks problems with an object's keys (rather than values) with origin "key".
  if (issue.kind === 'schema' && last?.origin === 'key') {
    const parent = last.input as object;
    if (!Object.hasOwn(parent, last.key as PropertyKey)) return `missing required field ${JSON.stringify(last.key)}`;
    if (issue.expected === 'never') return `unknown field ${JSON.stringify(last.key)}; remove it`;
  }
  if (issue.kind === 'schema') {
    return `expected ${describeExpected(issue.expected)}, received ${describeReceived(issue.input)}`;
  }
  // Validation actions (length, format, range...) carry a specific message,
  // possibly the tool author's own.
  return issue.message;
}

function issuePath(issue: v.BaseIssue<unknown>): (string | number)[] {
  return (issue.path ?? []).map((item) => item.key as string | number);
}

export function toCallIssues(toolName: string, issues: readonly v.BaseIssue<unknown>[]): CallIssue[] {
  return issues.map((issue) => {
    const path = issuePath(issue);
    return { path, at: formatPath(toolName, path), message: issueMessage(issue) };
  });
}

/** `Invalid input for echo.text: expected string, received number` (+ more issues). */
export function summarizeIssues(prefix: string, issues: readonly CallIssue[]): string {
  const [first, ...rest] = issues;
  if (!first) return `${prefix}.`;
  const head = `${prefix} ${first.at}: ${first.message}`;
  if (rest.length === 0) return head;
  return [head, ...rest.map((issue) => `${issue.at}: ${issue.message}`)].join('; ');
}
