/** What a conformance check looks at; one kind per way a tool or plugin can be wrong. */
export type ProblemKind =
  | 'plugin'
  | 'shape'
  | 'name'
  | 'duplicate_name'
  | 'description'
  | 'schema'
  | 'strict'
  | 'samples'
  | 'output'
  | 'abort'
  | 'invalid_input_reached_handler'
  | 'permissions';

/** One thing to fix, said in terms of the tool (or plugin) it is about. */
export interface Problem {
  kind: ProblemKind;
  /** The tool it is about, when it is about one tool. */
  tool?: string;
  /** The field at fault, when core names one: an option path (`smtp.port`), `apiVersion`, a tool field (`input`). */
  field?: string;
  message: string;
}

/** All problems at once, so an author fixes them in one round. */
export function formatProblems(subject: string, problems: readonly Problem[]): string {
  const count = `${problems.length} conformance problem${problems.length === 1 ? '' : 's'}`;
  return `${count} in ${subject}:\n${problems.map((problem) => `  - ${problem.message.replaceAll('\n', '\n    ')}`).join('\n')}`;
}

/** Thrown by expectConformance; `problems` keeps the list for tests that inspect it. */
export class ConformanceError extends Error {
  readonly problems: readonly Problem[];

  constructor(subject: string, problems: readonly Problem[]) {
    super(formatProblems(subject, problems));
    this.name = 'ConformanceError';
    this.problems = problems;
  }
}
