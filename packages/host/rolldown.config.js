import { defineConfig } from 'rolldown';
import { commonjs } from '../../scripts/rolldown-commonjs.mjs';

// Host's JavaScript is one file per entry (tsc writes just the declarations): Node
// loads every module file on its own, and `toolshed list` loads host on every
// start; fifteen files cost it about 7 ms, one about 1 ms. Each entry is built on
// its own so that index.js shares no chunk with the manifest bin. Only host's own
// modules are inlined: every bare specifier (node:, @toolshed/core, valibot,
// semver, ...) stays an import, so no third-party code ships inside host.
const shared = {
  platform: 'node',
  external: /^[^./]/,
  resolve: { extensionAlias: { '.js': ['.ts', '.js'] } },
  output: { dir: 'dist', format: 'esm', entryFileNames: '[name].js' },
};

export default defineConfig([
  { ...shared, input: { index: 'src/index.ts' } },
  // index as CommonJS too (dist/index.cjs), which the `toolshed` command requires: see the helper.
  commonjs({ input: { index: 'src/index.ts' }, dir: 'dist' }),
  { ...shared, input: { 'manifest-bin': 'src/manifest-bin.ts' } },
]);
