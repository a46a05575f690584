import { defineConfig } from 'rolldown';

// Core's JavaScript is one file per entry (tsc writes just the declarations): Node
// loads every ES module file on its own, and the host loads @toolshed/core/contract
// and /exposure on every `toolshed list`. Each entry is built on its own, so a module
// two entries use is in both: core is made for two copies in one process (errors,
// registries and JSON Schema inputs are recognised by Symbol.for keys, never by
// instanceof or module state). Every bare specifier (valibot, @valibot/to-json-schema)
// stays an import, so plugins share them and no third-party code ships inside core.
const shared = {
  platform: 'node',
  external: /^[^./]/,
  resolve: { extensionAlias: { '.js': ['.ts', '.js'] } },
  output: { dir: 'dist', format: 'esm', entryFileNames: '[name].js' },
};

export default defineConfig(
  ['index', 'name', 'contract', 'exposure'].map((entry) => ({ ...shared, input: { [entry]: `src/${entry}.ts` } })),
);
