#!/usr/bin/env node
import module from 'node:module';
import { runPlain } from './plain-run.js';

// Node 22.1+ keeps the compiled code of the modules loaded from here on (the program's
// chunk, plugins) on disk for the next start; on Node 20 the function does not exist
// (nor in Node 20's types).
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();

// The full program (commander, every command) loads only for what a plain run does not cover.
// No top-level await: with it, the bundler could not put what both share into this file (the
// program's chunk would import a module still waiting for it), and that would be two more files.
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
