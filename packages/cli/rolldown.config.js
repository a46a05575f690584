import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { defineConfig } from 'rolldown';

// The CLI's JavaScript is this bundle only (tsc writes just the declarations):
// few files, because Node loads every module file on its own and `toolshed
// list` should start in about the time of `node -e 0`. A plain `list` or `call`
// runs from the bin's own chunks (src/plain-run.ts); commander and the other
// commands are a chunk loaded for everything else, and commands that need more
// (call, serve, new) load their parts when they run. Every @toolshed package stays external, so a host or core release
// reaches the CLI through npm like any dependency, and a plugin shares the
// same copies; valibot stays external because plugins share it too.
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

const shared = {
  platform: 'node',
  external: EXTERNAL,
  resolve: { extensionAlias: { '.js': ['.ts', '.js'] } },
  plugins: [thirdPartyLicenses()],
  output: {
    dir: 'dist',
    format: 'esm',
    entryFileNames: '[name].js',
    chunkFileNames: 'chunks/[name]-[hash].js',
  },
};

// Two builds, so the bin shares no chunk with the programmatic entry: what a
// plain list or call runs is inside toolshed.cjs itself, not in chunks beside it.
// The bin's program is CommonJS (bin/toolshed.cjs requires it): with host,
// core/contract and providers/formats loaded by their `require` builds, a plain
// list never starts Node's ES module loader, about 2 ms of a 30 ms start on
// Node 20. Its chunks are required too; what it imports from a package that is an
// ES module only (core's main entry, providers, context, mcp-server) it must import().
export default defineConfig([
  {
    ...shared,
    input: { toolshed: 'src/bin.ts' },
    preserveEntrySignatures: 'allow-extension',
    output: { ...shared.output, format: 'cjs', entryFileNames: '[name].cjs', chunkFileNames: 'chunks/[name]-[hash].cjs' },
  },
  { ...shared, input: { index: 'src/index.ts' } },
]);
