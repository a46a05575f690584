import { ToolError } from '@toolshed/core';
import { similarNames } from './nearby-names.js';
import type { PathPolicy } from './path-policy.js';
import type { Resolved } from './resolve-path.js';

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
  if (error instanceof ToolError) return error;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (typeof code !== 'string' || !/^E[A-Z]+$/.test(code)) return error;
  const reason = SYSTEM_REASONS[code] ?? `the system refused (${code})`;
  return new ToolError('execution_failed', `read_file cannot read ${JSON.stringify(input)}: ${reason}.`);
}

export function binary(shown: string, size: number): ToolError {
  return new ToolError('execution_failed', `read_file cannot show ${shown}: it is a binary file (${size} bytes), not text.`);
}

export async function notFound(missing: Extract<Resolved, { kind: 'missing' }>, policy: PathPolicy): Promise<ToolError> {
  const folder = missing.dirDisplay === '' ? 'the project root' : JSON.stringify(`${missing.dirDisplay}/`);
  const what = missing.rest ? `there is no folder ${JSON.stringify(missing.name)} in ${folder}` : 'no such file';
  const similar = await similarNames(missing.dir, missing.dirDisplay, missing.name, policy);
  const hint = similar.length > 0 ? ` Did you mean: ${similar.join(', ')}?` : ' Check the path, or list the folder to find the file.';
  return new ToolError('execution_failed', `read_file cannot read ${JSON.stringify(missing.display)}: ${what}.${hint}`);
}
