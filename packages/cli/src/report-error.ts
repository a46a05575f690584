import { printError } from './print.js';
import { isUsageError } from './usage-error.js';

/** Print what went wrong and set the exit code: 2 for a usage error, 1 for anything else. */
export function reportError(error: unknown): void {
  if (isUsageError(error)) {
    printError(`toolshed: ${error.message}\n`);
    process.exitCode = 2;
  } else {
    printError(`toolshed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  }
}
