import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { defineConfig } from 'rolldown';

// The CLI's JavaScript is this bundle only: few files, because Node loads every
// module file on its own and `toolshed list` loads it on every start. A plain
// `list` or `call` runs from toolshed.js alone
// (src/plain-run.ts); commander and the other commands are a chunk loaded for
// everything else, and commands that need more (call, serve, new) load their
// parts when they run. Every @toolshed package stays external, so a host or core
// release reaches the CLI through npm like any dependency, and a plugin shares
// the same copies; valibot stays external because plugins share it too.
const EXTERNAL = [/^node:/, /^@toolshed\//, /^valibot(\/|$)/];

/** The package folder (and name) a bundled module file came from, if it came from node_modules. */
function packageOf(id) {
  const at = id.lastIndexOf('/node_modules/');
  if (at === -1) return undefined;
  const rest = id.slice(at + '/node_modules/'.length).split('/');
  const name = rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  return { name, dir: id.slice(0, at + '/node_modules/'.length) + name };
}

/** Writes dist/THIRD-PARTY-LICENSES.md: the license of every third-party package inside the bundle. */
function thirdPartyLicenses() {
  return {
    name: 'third-party-licenses',
    generateBundle(_options, bundle) {
      const found = new Map();
      for (const chunk of Object.values(bundle)) {
        for (const id of Object.keys(chunk.modules ?? {})) {
          const pkg = packageOf(id);
          if (pkg && !found.has(pkg.name)) found.set(pkg.name, pkg.dir);
        }
      }
      const sections = [...found]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([name, dir]) => {
          const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
          const file = readdirSync(dir).find((entry) => /^(licen[cs]e|copying)(\.|$)/i.test(entry));
          if (!file || !existsSync(path.join(dir, file))) throw new Error(`${name} is bundled but has no license file to carry`);
          return `## ${name}@${manifest.version} (${manifest.license})\n\n${readFileSync(path.join(dir, file), 'utf8').trim()}\n`;
        });
      this.emitFile({
        type: 'asset',
        fileName: 'THIRD-PARTY-LICENSES.md',
        source: `# Third-party code bundled in @toolshed/cli\n\n${sections.join('\n')}`,
      });
    },
  };
}

// The command's program is dist/toolshed.js (bin/toolshed.cjs imports it). What a plain list
// or call runs is inside toolshed.js itself; commander and every command are a chunk it
// imports for anything else. The package's JavaScript entry, index.js (what
// @toolshed/create-plugin and @toolshed/mcp-server run), is the same build: it re-exports
// the bin's run and the program, so the CLI's code ships once.
export default defineConfig({
  input: { toolshed: 'src/bin.ts', index: 'src/index.ts' },
  // An entry may export more than its source does, so what the program's chunk and index
  // share with a plain run stays in toolshed.js, not in chunks a plain run would load too.
  preserveEntrySignatures: 'allow-extension',
  platform: 'node',
  external: EXTERNAL,
  resolve: { extensionAlias: { '.js': ['.ts', '.js'] } },
  plugins: [thirdPartyLicenses()],
  output: { dir: 'dist', format: 'esm', entryFileNames: '[name].js', chunkFileNames: 'chunks/[name]-[hash].js' },
});
