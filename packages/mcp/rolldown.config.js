import { defineConfig } from 'rolldown';

// The mount entry is read on every `toolshed list` of a project that mounts MCP servers,
// so it is one bundled file rather than one per module. Its heavy half
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
]);
