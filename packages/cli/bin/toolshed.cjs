#!/usr/bin/env node
'use strict';
// The `toolshed` command. A CommonJS file that loads the ES module program (dist/toolshed.js):
// - by require() where Node can (20.19+, 22.12+). Node then loads the program's modules
//   synchronously and never starts its asynchronous ES module loader, which an ES module
//   entry starts on every run: about 2 ms of a 25 ms `toolshed list` (packages/cli/bench).
// - by import() on older Node, as an ES module entry would.
// A file that exists before the build: package managers link bins at install time.

// Node 22.1+ keeps the compiled code of what loads from here on (the program itself, the
// packages it imports, plugins) on disk for the next start; Node 20 has no such function.
require('node:module').enableCompileCache?.();

if (process.features.require_module) require('../dist/toolshed.js');
else import('../dist/toolshed.js');
