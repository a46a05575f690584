import { defineConfig } from 'rolldown';

// The `toolshed` bin is one bundled file: Node loads every ES module file on
// its own (about 2 ms each on a small machine), and `toolshed list` should
// start in about the time of `node -e 0`. Commands that need more (call,
// serve, new) load their parts as chunks, when they run. The packages a
// plugin shares with the CLI stay external, so there is one of each.
export default defineConfig({
  input: { toolshed: 'dist/bin.js' },
  platform: 'node',
  external: [/^node:/, /^@toolshed\/(core|mcp|providers)(\/|$)/, 'valibot'],
  output: {
    dir: 'dist',
    format: 'esm',
    entryFileNames: '[name].js',
    chunkFileNames: 'chunks/[name]-[hash].js',
  },
});
