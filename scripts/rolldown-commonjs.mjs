// The CommonJS builds of the package entries that `toolshed` loads on every start:
// @toolshed/host, @toolshed/core/contract, @toolshed/providers/formats and
// @toolshed/mcp/mount. The bin's program is CommonJS (packages/cli/rolldown.config.js) and
// requires them by their `require` condition, so a plain `toolshed list` never starts Node's
// ES module loader: on Node 20 that loader (module jobs, linking, its resolver) costs about
// 2 ms of a 30 ms start. The ES module stays each entry's main build; this is the same
// source again, one more copy of the package in a process that also imports it (core and
// host are made for that: brands by Symbol.for, no module state shared between entries).

import path from 'node:path';
import ts from 'typescript';

/**
 * The `.d.cts` of a CommonJS entry whose ES module twin's declarations tsc wrote to `dts`: it
 * declares the same exports with the same types, as TypeScript lets a CommonJS file take them
 * from an ES module on every supported setting (`module` node16 or nodenext, TypeScript 5.3+):
 * the types by `export type *` and each value as `typeof` its twin, both with the
 * `resolution-mode: import` attribute. A plain `export * from './x.js'` reads the same under
 * nodenext from TypeScript 5.8, but is error TS1479 under node16 with library checks on.
 * A class is a value and a type, so it gets both. `values` are the names the built chunk
 * exports: the declaration must say exactly those.
 */
function commonjsTypes(dts, values) {
  const program = ts.createProgram([dts], {
    noEmit: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    types: [],
  });
  const checker = program.getTypeChecker();
  const exported = checker.getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(dts)));
  const twin = `'./${path.basename(dts, '.d.ts')}.js'`;
  const from = `import(${twin}, { with: { 'resolution-mode': 'import' } })`;
  const lines = [`export type * from ${twin} with { 'resolution-mode': 'import' };`];
  const declared = [];
  for (const symbol of exported) {
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    if (!(target.flags & ts.SymbolFlags.Value)) continue;
    if (target.flags & (ts.SymbolFlags.Enum | ts.SymbolFlags.ValueModule))
      throw new Error(`${dts}: ${symbol.name} is an enum or a namespace, which the CommonJS types do not declare; add it here.`);
    declared.push(symbol.name);
    lines.push(`export declare const ${symbol.name}: typeof ${from}.${symbol.name};`);
    if (target.flags & ts.SymbolFlags.Class) {
      if (checker.getDeclaredTypeOfSymbol(target).typeParameters?.length)
        throw new Error(`${dts}: ${symbol.name} is a generic class, which the CommonJS types do not declare; add it here.`);
      lines.push(`export type ${symbol.name} = ${from}.${symbol.name};`);
    }
  }
  const [missing, extra] = [values.filter((name) => !declared.includes(name)), declared.filter((name) => !values.includes(name))];
  if (missing.length > 0 || extra.length > 0)
    throw new Error(
      `${dts} does not declare what the CommonJS build exports (missing: ${missing.join(', ') || 'none'}; extra: ${extra.join(', ') || 'none'}).`,
    );
  return `${lines.join('\n')}\n`;
}

/**
 * Writes `<name>.d.cts` beside each entry's `<name>.cjs` (or only the `entries` named), from the
 * declarations tsc wrote beside its ES module (`<name>.d.ts`, see commonjsTypes), so TypeScript
 * reads the `require` condition as CommonJS with the same names and types (attw: "OK (CJS)"),
 * not as an ES module in disguise.
 */
export function typesBeside(entries) {
  return {
    name: 'commonjs-types-beside',
    generateBundle(options, bundle) {
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk' || !chunk.isEntry || (entries && !entries.includes(chunk.name))) continue;
        const base = chunk.fileName.replace(/\.cjs$/, '');
        const source = commonjsTypes(path.resolve(options.dir, `${base}.d.ts`), chunk.exports);
        this.emitFile({ type: 'asset', fileName: `${base}.d.cts`, source });
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
