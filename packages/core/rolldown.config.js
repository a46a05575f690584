import { defineConfig } from 'rolldown';

// Core's JavaScript is one file per entry plus the chunks they share (tsc writes
// just the declarations): Node loads every ES module file on its own, and the
// host loads @toolshed/core/contract on every `toolshed list`: its fifteen
// files cost about 8 ms, a bundle about 1. One build for all entries, so a
// module used by two entries lives in one shared chunk, never in two copies.
// Every bare specifier (valibot, @valibot/to-json-schema) stays an import, so
// plugins share them and no third-party code ships inside core.
export default defineConfig({
  input: { index: 'src/index.ts', name: 'src/name.ts', contract: 'src/contract.ts', exposure: 'src/exposure.ts' },
  platform: 'node',
  external: /^[^./]/,
  resolve: { extensionAlias: { '.js': ['.ts', '.js'] } },
  output: { dir: 'dist', format: 'esm', entryFileNames: '[name].js', chunkFileNames: 'chunks/[name]-[hash].js' },
});
