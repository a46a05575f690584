// The CommonJS builds of the package entries that `toolshed` loads on every start:
// @toolshed/host, @toolshed/core/contract, @toolshed/providers/formats and
// @toolshed/mcp/mount. The bin's program is CommonJS (packages/cli/rolldown.config.js) and
// requires them by their `require` condition, so a plain `toolshed list` never starts Node's
// ES module loader: on Node 20 that loader (module jobs, linking, its resolver) costs about
// 2 ms of a 30 ms start. The ES module stays each entry's main build; this is the same
// source again, one more copy of the package in a process that also imports it (core and
// host are made for that: brands by Symbol.for, no module state shared between entries).

/**
 * Writes `<name>.d.cts` beside each entry's `<name>.cjs` (or only the `entries` named): it
 * re-exports the declarations tsc wrote for the entry's source, so TypeScript reads the `require` condition as CommonJS with the same names
 * (attw: "OK (CJS)"), not as an ES module in disguise.
 */
export function typesBeside(entries) {
  return {
    name: 'commonjs-types-beside',
    generateBundle(_options, bundle) {
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk' || !chunk.isEntry || (entries && !entries.includes(chunk.name))) continue;
        const base = chunk.fileName.replace(/\.cjs$/, '');
        const name = base.slice(base.lastIndexOf('/') + 1);
        this.emitFile({ type: 'asset', fileName: `${base}.d.cts`, source: `export * from './${name}.js';\n` });
      }
    },
  };
}

/**
 * The rolldown options of an entry's CommonJS build: `input` as rolldown takes it, `dir` the
 * folder of its ES module build (dist/x.js gets dist/x.cjs and dist/x.d.cts), `external`
 * every bare specifier unless given.
 */
export function commonjs({ input, dir, external = /^[^./]/ }) {
  return {
    input,
    external,
    platform: 'node',
    resolve: { extensionAlias: { '.js': ['.ts', '.js'] } },
    plugins: [typesBeside()],
    output: { dir, format: 'cjs', entryFileNames: '[name].cjs' },
  };
}
