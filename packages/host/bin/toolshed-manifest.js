#!/usr/bin/env node
// A file that exists before the build: package managers link bins at install
// time, when a workspace's dist/ is not built yet.
await import('../dist/manifest-bin.js');
