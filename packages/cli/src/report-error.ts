import { closeMadeHosts } from './host.js';
import { printError } from './print.js';
import { isUsageError } from './usage-error.js';

/**
 * Print what went wrong and set the exit code: 2 for a usage error, 1 for anything else. Then
 * close what the command opened (the MCP servers its host started), so it exits with the error
 * instead of waiting on a child process.
 */
export async function reportError(error: unknown): Promise<void> {
  if (isUsageError(error)) {
    printError(`toolshed: ${error.message}\n`);
    process.exitCode = 2;
  } else {
    printError(`toolshed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  }
  await closeMadeHosts();
}
