import { writeSync } from 'node:fs';

// A pipe the parent left non-blocking is full for a moment: wait 1 ms rather than spin.
const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * Print to stdout by synchronous writes to file descriptor 1, not through process.stdout:
 * making that stream on a pipe loads net and the whole streams stack, about 2 ms of a plain
 * `toolshed list`'s start. A reader that closed the pipe early (`toolshed list | head`) ends
 * the command quietly, as bin.ts does for the stream; a full non-blocking pipe is waited on.
 */
export function print(text: string): void {
  let rest = Buffer.from(text, 'utf8');
  while (rest.length > 0) {
    try {
      rest = rest.subarray(writeSync(1, rest));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EPIPE') process.exit(process.exitCode ?? 0);
      if (code !== 'EAGAIN') throw error;
      Atomics.wait(pause, 0, 0, 1);
    }
  }
}
