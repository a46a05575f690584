import { defineConfig } from 'rolldown';

// One build of core's four entries (tsc writes just the declarations): a module two
// entries use goes into a shared chunk beside them, so a process that loads both the
// contract and the main entry (a call) holds one copy of it. Chunks sit in dist/ itself,
// where core-version.ts finds ../package.json. Every bare specifier (valibot,
// @valibot/to-json-schema) stays an import, so plugins share them and no third-party
// code ships inside core.
export default defineConfig({
  platform: 'node',
  external: /^[^./]/,
  resolve: { extensionAlias: { '.js': ['.ts', '.js'] } },
  input: Object.fromEntries(['index', 'name', 'contract', 'exposure'].map((entry) => [entry, `src/${entry}.ts`])),
  output: { dir: 'dist', format: 'esm', entryFileNames: '[name].js', chunkFileNames: '[name]-[hash].js' },
});
