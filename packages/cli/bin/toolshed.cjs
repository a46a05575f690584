#!/usr/bin/env node
'use strict';
// The `toolshed` command: a CommonJS file that requires the program (dist/toolshed.cjs,
// CommonJS too, as are the builds of host and core/contract it requires), so a plain
// `toolshed list` runs without Node's ES module loader. Plugins and the packages that are
// ES modules only load by import() where they are used.
// A file that exists before the build: package managers link bins at install time.

// Node 22.1+ keeps the compiled code of what loads from here on (the program itself, the
// packages it requires, plugins) on disk for the next start. Node 20 has no such function,
// and is not asked: loading node:module to find out costs it ~0.2 ms of every start.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major > 22 || (major === 22 && minor >= 1)) require('node:module').enableCompileCache();

// A finished listing ends the process here, without Node's teardown (see run in src/bin.ts);
// everything else ends when its work is done.
require('../dist/toolshed.cjs')
  .run(process.argv.slice(2))
  .then((ended) => {
    if (ended) process.exit();
  });
