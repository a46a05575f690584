// The program the `toolshed` command runs (bin/toolshed.cjs loads it, and enables Node's
// compile cache first).
import { runPlain } from './plain-run.js';

/**
 * Run the `toolshed` command with `argv` (without node and the script); bin/toolshed.cjs calls
 * it. The full program (commander, every command) loads only for what a plain run does not cover.
 *
 * Resolves true when the command has ended and left nothing running: a plain listing. It runs
 * no plugin code, has closed any server it started to list its tools, and has written its
 * output and its warnings synchronously (src/print.ts). A caller that owns the process may then
 * end it at once, as the bin does, without waiting for Node's own teardown of the process (its
 * heap, its background tasks). Anything else resolves false: a call's plugin code,
 * a server being served or an output stream may still have work, and Node ends the process
 * when that is done.
 */
export async function run(argv: string[]): Promise<boolean> {
  const plain = await runPlain(argv);
  if (plain) return plain === 'list';
  // `toolshed schema | head` closes the pipe early: that is the reader's choice, not an error.
  // Only here: a plain list or call prints without the stream (src/print.ts), which costs its start.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
  const { main } = await import('./program.js');
  // Commander reads an argv as Node gives it: the node binary and the script first.
  await main([process.argv[0] ?? 'node', 'toolshed', ...argv]);
  return false;
}
