#!/usr/bin/env node
import { runPlain } from './plain-run.js';

// `toolshed schema | head` closes the pipe early: that is the reader's choice, not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

// The full program (commander, every command) loads only for what a plain run does not cover.
if (!(await runPlain(process.argv.slice(2)))) {
  const { main } = await import('./program.js');
  await main();
}
