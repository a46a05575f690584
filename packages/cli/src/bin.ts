// The program the `toolshed` command runs (bin/toolshed.cjs loads it, and enables Node's
// compile cache first).
import { runPlain } from './plain-run.js';

/**
 * Run the `toolshed` command with `argv` (without node and the script); bin/toolshed.cjs calls
 * it. The full program (commander, every command) loads only for what a plain run does not cover.
 */
export async function run(argv: string[]): Promise<void> {
  if (await runPlain(argv)) return;
  // `toolshed schema | head` closes the pipe early: that is the reader's choice, not an error.
  // Only here: a plain list or call prints without the stream (src/print.ts), which costs its start.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
  const { main } = await import('./program.js');
  // Commander reads an argv as Node gives it: the node binary and the script first.
  await main([process.argv[0] ?? 'node', 'toolshed', ...argv]);
}
