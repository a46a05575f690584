import { defineConfig } from 'rolldown';
import { commonjs } from '../../scripts/rolldown-commonjs.mjs';

// The mount entry is read on every `toolshed list` of a project that mounts MCP servers:
// one bundled file instead of eight saves several ms of a start-up budget. Its heavy half
// (the MCP SDK side, ajv) is three more entries, connection, result and validate, loaded by
// import() when a server starts or a tool is first validated. Every bare specifier stays an
// import: no third-party code ships inside.
// tsc builds the rest of the package (and every declaration) before this runs; the build script
// then removes tsc's per-file JavaScript of the mount, which this bundle replaces, so the
// tarball carries that code once (scripts/published-files.mjs checks every module is reachable).
const HEAVY = ['connection', 'result', 'validate'];

export default defineConfig([
  {
    platform: 'node',
    resolve: { extensionAlias: { '.js': ['.ts', '.js'] } },
    input: Object.fromEntries(['index', ...HEAVY].map((name) => [name, `src/mount/${name}.ts`])),
    external: /^[^./]/,
    output: { dir: 'dist/mount', format: 'esm', entryFileNames: '[name].js', chunkFileNames: 'chunks/[name]-[hash].js' },
  },
  // The light half again as CommonJS (dist/mount/index.cjs), which host requires: see the
  // helper. The heavy half stays the ES modules above, imported from it by their file names,
  // so a process never holds the MCP SDK (and zod) twice, as CommonJS beside the ES modules
  // that serving uses.
  commonjs({
    input: { index: 'src/mount/index.ts' },
    dir: 'dist/mount',
    external: (id) => /^[^./]/.test(id) || HEAVY.some((name) => id === `./${name}.js`),
  }),
]);
