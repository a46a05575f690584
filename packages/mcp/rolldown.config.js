import { defineConfig } from 'rolldown';
import { requireBuiltins } from '../../scripts/rolldown-require-builtins.mjs';

// The mount entry is read on every `toolshed list` of a project that mounts MCP servers:
// one bundled file instead of eight saves several ms of a start-up budget. Its heavy half
// (the MCP SDK side, ajv) stays in chunks that load when a server starts or a tool is
// first validated. Every bare specifier stays an import: no third-party code ships inside.
// tsc builds the rest of the package (and every declaration) before this runs; the build script
// then removes tsc's per-file JavaScript of the mount, which this bundle replaces, so the
// tarball carries that code once (scripts/published-files.mjs checks every module is reachable).
export default defineConfig({
  input: { index: 'src/mount/index.ts' },
  platform: 'node',
  external: /^[^./]/,
  resolve: { extensionAlias: { '.js': ['.ts', '.js'] } },
  // Built-ins by require, not import: node:crypto's ES module facade reads every export and
  // so loads all of crypto and the streams stack (see the plugin).
  plugins: [requireBuiltins()],
  output: { dir: 'dist/mount', format: 'esm', entryFileNames: '[name].js', chunkFileNames: 'chunks/[name]-[hash].js' },
});
