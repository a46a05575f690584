import { isToolError, ToolError } from '@toolshed/core';
import { similarNames, type LinkCheck } from './nearby-names.js';
import type { PathPolicy } from './path-policy.js';

const SYSTEM_REASONS: Record<string, string> = {
  EACCES: 'the system does not allow reading it (permission denied)',
  EPERM: 'the system does not allow reading it (operation not permitted)',
  ENAMETOOLONG: 'a part of the path is longer than file names can be',
  ELOOP: 'it was replaced by a symbolic link while being opened',
  EMFILE: 'too many files are open right now; try again shortly',
  EIO: 'the disk reported an input/output error',
};

/**
 * The operating system's errors name absolute paths; a model gets the path it
 * sent and the reason instead. Refusals and aborts pass through unchanged.
 */
export function fileSystemError(input: string, error: unknown): unknown {
  if (isToolError(error)) return error;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (typeof code !== 'string' || !/^E[A-Z]+$/.test(code)) return error;
  const reason = SYSTEM_REASONS[code] ?? `the system refused (${code})`;
  return new ToolError('execution_failed', `read_file cannot read ${JSON.stringify(input)}: ${reason}.`);
}

/** A refusal: names the path as sent and never says whether the file exists. */
export function denied(input: string, reason: string): ToolError {
  return new ToolError(
    'denied',
    `read_file may not read ${JSON.stringify(input)}: ${reason}. Do not retry with another spelling of this path; ` +
      `read files inside the project, or ask the user for what you need.`,
  );
}

export const OUTSIDE = 'the path leads outside the project root, and only files under the root can be read';

export function binary(shown: string, size: number): ToolError {
  return new ToolError('execution_failed', `read_file cannot show ${shown}: it is a binary file (${size} bytes), not text.`);
}

/** A path that resolved to a missing `name` in the real folder `dir` (shown as `dirDisplay`); `rest` when more path followed. */
export async function notFound(
  missing: { display: string; dir: string; dirDisplay: string; name: string; rest: boolean },
  policy: PathPolicy,
  linkAllowed: LinkCheck,
): Promise<ToolError> {
  const folder = missing.dirDisplay === '' ? 'the project root' : JSON.stringify(`${missing.dirDisplay}/`);
  const what = missing.rest ? `there is no folder ${JSON.stringify(missing.name)} in ${folder}` : 'no such file';
  const similar = await similarNames(missing.dir, missing.dirDisplay, missing.name, policy, linkAllowed);
  const hint = similar.length > 0 ? ` Did you mean: ${similar.join(', ')}?` : ' Check the path, or list the folder to find the file.';
  return new ToolError('execution_failed', `read_file cannot read ${JSON.stringify(missing.display)}: ${what}.${hint}`);
}
