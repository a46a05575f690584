const { writeSync } = process.getBuiltinModule('node:fs');

// A pipe the parent left non-blocking is full for a moment: wait 1 ms rather than spin.
const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * All of text, by synchronous writes to a file descriptor. When this returns the text is out,
 * so nothing is left for the process to flush: bin/toolshed.cjs ends a finished listing at
 * once (see run in bin.ts). Returns false when the reader closed the pipe.
 */
function writeAll(fd: 1 | 2, text: string): boolean {
  let rest = Buffer.from(text, 'utf8');
  while (rest.length > 0) {
    try {
      rest = rest.subarray(writeSync(fd, rest));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EPIPE') return false;
      if (code !== 'EAGAIN') throw error;
      Atomics.wait(pause, 0, 0, 1);
    }
  }
  return true;
}

/**
 * Print to stdout by synchronous writes to file descriptor 1, not through process.stdout:
 * making that stream on a pipe loads net and the whole streams stack. A reader that closed the pipe early (`toolshed list | head`) ends
 * the command quietly, as bin.ts does for the stream; a full non-blocking pipe is waited on.
 */
export function print(text: string): void {
  if (!writeAll(1, text)) process.exit(process.exitCode ?? 0);
}

/** Warnings and errors to stderr, written as print writes: a closed stderr drops them. */
export function printError(text: string): void {
  writeAll(2, text);
}
