#!/usr/bin/env node
import { runPlain } from './plain-run.js';

// `toolshed schema | head` closes the pipe early: that is the reader's choice, not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

// The full program (commander, every command) loads only for what a plain run does not cover.
// No top-level await: with it, the bundler could not put what both share into this file (the
// program's chunk would import a module still waiting for it), and that would be two more files.
void runPlain(process.argv.slice(2)).then(async (done) => {
  if (done) return;
  const { main } = await import('./program.js');
  await main();
});
