// The program the `toolshed` command runs (bin/toolshed.cjs loads it, and enables Node's
// compile cache first).
import { runPlain } from './plain-run.js';

// The full program (commander, every command) loads only for what a plain run does not cover.
// No top-level await: require() (bin/toolshed.cjs) cannot load a module that has one, and the
// bundler could not put what both share into this file (the program's chunk would import a
// module still waiting for it), which would be two more files.
void runPlain(process.argv.slice(2)).then(async (done) => {
  if (done) return;
  // `toolshed schema | head` closes the pipe early: that is the reader's choice, not an error.
  // Only here: a plain list or call prints without the stream (src/print.ts), which costs its start.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
  const { main } = await import('./program.js');
  await main();
});
