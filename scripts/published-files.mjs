// What a published package's files must be, checked on the unpacked tarball:
// the things publint and attw do not look at, which users and the registry's
// page expect. Each problem is one line saying what is wrong and where.
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { readmeImportProblems } from './readme-imports.mjs';

function files(dir, prefix = '') {
  const out = [];
  for (const entry of readdirSync(path.join(dir, prefix), { withFileTypes: true })) {
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...files(dir, relative));
    else out.push(relative);
  }
  return out;
}

// Test code and test data: tests beside the code, fixtures, corpora of attack strings.
const TEST_FILE =
  /(^|\/)(__tests__|__fixtures__|fixtures?|test-fixtures|test-data)\/|\.(test|spec|fixture|test-d)\.(d\.)?[cm]?[jt]sx?$|(^|[/-])corpus\.|-corpus\./;
// rolldown and esbuild mark each bundled module with its path.
const BUNDLED_MODULE = /^\/\/(?:#region| ) .*?node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/\s]+)\//gm;

function metadataProblems(pkg, directory) {
  const problems = [];
  if (typeof pkg.license !== 'string' || pkg.license === '') problems.push('package.json has no "license"');
  const repository = pkg.repository;
  if (typeof repository !== 'object' || !repository || typeof repository.url !== 'string' || !/^git\+https:\/\//.test(repository.url)) {
    problems.push('package.json needs "repository": {"type": "git", "url": "git+https://...", "directory": "..."}');
  } else if (repository.directory !== directory) {
    problems.push(
      `package.json "repository.directory" is ${JSON.stringify(repository.directory)}; it must be "${directory}", where the package lives`,
    );
  }
  if (typeof pkg.homepage !== 'string' || !/^https:\/\//.test(pkg.homepage)) problems.push('package.json needs a "homepage" (https URL)');
  const bugs = typeof pkg.bugs === 'string' ? pkg.bugs : pkg.bugs?.url;
  if (typeof bugs !== 'string' || !/^https:\/\//.test(bugs)) problems.push('package.json needs "bugs": {"url": "https://..."}');
  if (!Array.isArray(pkg.keywords) || pkg.keywords.length === 0) problems.push('package.json needs "keywords"');
  if (typeof pkg.engines?.node !== 'string') problems.push('package.json needs "engines": {"node": ">=..."}');
  return problems;
}

/** Every string in a package.json value (exports, bin, types), however deeply nested in conditions and subpaths. */
function targets(value) {
  if (typeof value === 'string') return [value];
  return value !== null && typeof value === 'object' ? Object.values(value).flatMap(targets) : [];
}

/** Whether the package has a JavaScript entry in `exports` (a command alone, a bin, has not). */
function hasJavascriptEntry(pkg) {
  return targets(pkg.exports).some((file) => /\.[cm]?js$/.test(file));
}

/**
 * The lowest Node version of each range in engines.node, as a README writes it (a `.0` patch
 * left off): `^20.19.0 || >=22.12.0` is 20.19 and 22.12, `>=20` is 20.
 */
function minimumNodes(engines) {
  return String(engines ?? '')
    .split('||')
    .map((range) => /^\s*(?:>=|\^)\s*v?(\d+(?:\.\d+){0,2})\s*$/.exec(range)?.[1])
    .filter(Boolean)
    .map((version) => version.replace(/^(\d+\.\d+)\.0$/, '$1'));
}

function readmeProblems(readme, pkg) {
  const problems = [];
  // A package with JavaScript to load says it is ESM-only. One that is only a command (a bin,
  // no entries) has nothing to say.
  if (hasJavascriptEntry(pkg) && !/\bESM-only\b/i.test(readme)) problems.push('README.md does not say the package is ESM-only');
  for (const minimum of minimumNodes(pkg.engines?.node)) {
    if (!new RegExp(`\\bNode(?:\\.js)? ${minimum.replaceAll('.', '\\.')}\\b`).test(readme))
      problems.push(`README.md does not say the minimum Node version, "Node ${minimum}" (from engines.node "${pkg.engines.node}")`);
  }
  // On the registry's page a relative link leads nowhere: the README is shown without the repository around it.
  for (const match of readme.matchAll(/\]\(\s*<?([^)\s>]+)/g)) {
    const target = match[1];
    if (/^(https?:|mailto:|#)/.test(target)) continue;
    problems.push(`README.md links to "${target}", which does not work on the registry's page; use an absolute https URL`);
  }
  problems.push(...readmeImportProblems(readme));
  return problems;
}

function sourceMapProblems(dir, all) {
  const problems = [];
  const present = new Set(all);
  for (const file of all.filter((name) => name.endsWith('.map'))) {
    let map;
    try {
      map = JSON.parse(readFileSync(path.join(dir, file), 'utf8'));
    } catch {
      problems.push(`${file} is not a valid source map`);
      continue;
    }
    const missing = (map.sources ?? []).filter((source, index) => {
      if (map.sourcesContent?.[index] != null) return false;
      return !present.has(path.posix.normalize(path.posix.join(path.posix.dirname(file), map.sourceRoot ?? '', source)));
    });
    if (missing.length > 0) problems.push(`${file} points to ${missing.join(', ')}, not in the package: ship the sources or drop the map`);
  }
  return problems;
}

function bundledLicenseProblems(dir, all) {
  const bundled = new Set();
  for (const file of all.filter((name) => /\.[cm]?js$/.test(name))) {
    for (const match of readFileSync(path.join(dir, file), 'utf8').matchAll(BUNDLED_MODULE)) bundled.add(match[1]);
  }
  if (bundled.size === 0) return [];
  const notices = all
    .filter((name) => /(^|\/)THIRD[-_]PARTY[-_](LICENSES|NOTICES)(\.[a-z]+)?$/i.test(name))
    .map((name) => readFileSync(path.join(dir, name), 'utf8'));
  return [...bundled]
    .filter((name) => !notices.some((text) => text.includes(`## ${name}@`)))
    .map((name) => `bundles code of ${name} without its license notice (a THIRD-PARTY-LICENSES file with a "## ${name}@version" section)`);
}

// Relative module specifiers in built JavaScript: static imports and re-exports, bare
// `import "./x.js"`, dynamic `import("./x.js")` and `require("./x.cjs")` with a literal, and a
// file named by `new URL("./x.js", import.meta.url)` (a worker, a child process's script).
const RELATIVE_IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*|\bnew URL\s*\(\s*)["'](\.{1,2}\/[^"']+)["']/g;

/** Every string target in `exports` (conditions and subpaths, nested) and `bin`. */
function entryFiles(pkg) {
  return targets([pkg.exports ?? pkg.main ?? 'index.js', pkg.bin])
    .map((file) => path.posix.normalize(file))
    .filter((file) => /\.[cm]?js$/.test(file));
}

/**
 * JavaScript modules that nothing loads: not an entry (exports, bin) and not imported,
 * statically or by a literal dynamic import, from one that is. Typically a build's
 * leftovers, such as tsc's per-file output beside a bundle that replaced it.
 */
function unreachableModuleProblems(dir, all) {
  const reached = new Set();
  const queue = entryFiles(JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')));
  while (queue.length > 0) {
    const file = queue.pop();
    if (reached.has(file) || !all.includes(file)) continue;
    reached.add(file);
    for (const [, specifier] of readFileSync(path.join(dir, file), 'utf8').matchAll(RELATIVE_IMPORT)) {
      queue.push(path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier)));
    }
  }
  // A module of types only compiles to `export {};`: nothing to load, nothing to ship twice.
  const typesOnly = (file) => /^\s*export\s*\{\s*\};?\s*(\/\/# sourceMappingURL=\S+\s*)?$/.test(readFileSync(path.join(dir, file), 'utf8'));
  // A page's scripts (page/, as @toolshed/inspector ships) are loaded by a browser, not by Node.
  const browserPage = (file) => file.startsWith('page/');
  return all
    .filter((file) => /\.[cm]?js$/.test(file) && !reached.has(file) && !TEST_FILE.test(file) && !typesOnly(file) && !browserPage(file))
    .map((file) => `${file} is loaded by no entry (exports, bin) nor by any module they import: leave it out of the build`);
}

const TYPE_IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["']([^"']+)["']/g;
const DECLARATION = /\.d\.[cm]?ts$/;

/** The declaration file a relative import in one names: ./x.js is ./x.d.ts, ./x.cjs ./x.d.cts. */
function declarationOf(file, specifier, all) {
  const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier));
  const candidates = [target.replace(/\.([cm]?)js$/, '.d.$1ts'), `${target}.d.ts`, `${target}/index.d.ts`, target];
  return candidates.find((candidate) => all.includes(candidate));
}

/**
 * The packages the types a consumer reaches (each "types" in exports, and what they import)
 * take types from must come with this one: a dependency, a peer or optional dependency, or
 * Node's own. Code bundled into the JavaScript is none of these, so a type from it is one the
 * consumer's TypeScript cannot find (an error, or `any` under skipLibCheck).
 */
function typeDependencyProblems(dir, all, pkg) {
  const declared = new Set([pkg.name, ...Object.keys({ ...pkg.dependencies, ...pkg.peerDependencies, ...pkg.optionalDependencies })]);
  const queue = targets([pkg.exports, pkg.types, pkg.typings])
    .filter((file) => DECLARATION.test(file))
    .map((file) => path.posix.normalize(file));
  const reached = new Set();
  const problems = [];
  while (queue.length > 0) {
    const file = queue.pop();
    if (reached.has(file) || !all.includes(file)) continue;
    reached.add(file);
    for (const [, specifier] of readFileSync(path.join(dir, file), 'utf8').matchAll(TYPE_IMPORT)) {
      if (specifier.startsWith('.')) {
        const next = declarationOf(file, specifier, all);
        if (next) queue.push(next);
        continue;
      }
      const name = specifier
        .split('/')
        .slice(0, specifier.startsWith('@') ? 2 : 1)
        .join('/');
      if (specifier.startsWith('node:') || builtinModules.includes(name) || declared.has(name)) continue;
      problems.push(
        `${file} takes types from "${name}", which is not a dependency or peer dependency: a consumer's TypeScript cannot find it; declare it, or keep its types out of the published ones`,
      );
    }
  }
  return [...new Set(problems)];
}

/**
 * Problems with an unpacked package: `dir` is its folder (the tarball's package/),
 * `pkg` its packed package.json, `directory` where it lives in the repository.
 */
export function publishedFileProblems(dir, pkg, directory) {
  const all = files(dir);
  const problems = [];
  if (!all.some((name) => /^(LICEN[CS]E|COPYING)(\.(md|txt))?$/i.test(name))) problems.push('the tarball has no LICENSE file');
  problems.push(...metadataProblems(pkg, directory));
  const readme = all.find((name) => /^readme\.md$/i.test(name));
  if (!readme) problems.push('the tarball has no README.md');
  else problems.push(...readmeProblems(readFileSync(path.join(dir, readme), 'utf8'), pkg));
  problems.push(...sourceMapProblems(dir, all));
  for (const file of all.filter((name) => TEST_FILE.test(name)))
    problems.push(`${file} is test code or test data: leave it out of "files" and the build`);
  problems.push(...bundledLicenseProblems(dir, all));
  problems.push(...unreachableModuleProblems(dir, all));
  problems.push(...typeDependencyProblems(dir, all, pkg));
  return problems;
}
