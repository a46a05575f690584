import { defineConfig } from 'rolldown';

// Host's JavaScript is one file per entry (tsc writes just the declarations): Node
// loads every module file on its own, and `toolshed list` loads host on every start.
// Each entry is built on its own so that index.js shares no chunk with the manifest
// bin. Only host's own modules are inlined: every bare specifier (node:,
// @toolshed/core, valibot, semver, ...) stays an import, so no third-party code ships
// inside host.
const shared = {
  platform: 'node',
  external: /^[^./]/,
  resolve: { extensionAlias: { '.js': ['.ts', '.js'] } },
  output: { dir: 'dist', format: 'esm', entryFileNames: '[name].js' },
};

export default defineConfig([
  { ...shared, input: { index: 'src/index.ts' } },
  { ...shared, input: { 'manifest-bin': 'src/manifest-bin.ts' } },
  { ...shared, input: { 'isolated-child': 'src/isolate/child.ts' } },
]);
