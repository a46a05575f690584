#!/usr/bin/env node
'use strict';
// The `toolshed` command: it turns on Node's compile cache (22.1+, absent on Node 20) before
// the program (dist/toolshed.js) loads, so the program, the packages it imports and plugins
// are compiled once and kept on disk for the next start. It require()s the program, an ES
// module (Node 20.19+), which loads it synchronously; import() would also start the loader's
// asynchronous file reading for nothing.
// A file that exists before the build: package managers link bins at install time.
require('node:module').enableCompileCache?.();

// A finished listing ends the process here, without Node's teardown (see run in src/bin.ts);
// everything else ends when its work is done.
require('../dist/toolshed.js')
  .run(process.argv.slice(2))
  .then((ended) => {
    if (ended) process.exit();
  });
