// A README's code examples import only what its install lines install: a reader copies the
// `npm install` line and then the example, and an import the line left out fails there.
import { builtinModules } from 'node:module';

const CODE_BLOCK = /^```(ts|typescript|js|javascript|mjs|tsx)\s*\n([\s\S]*?)^```/gm;
const SPECIFIER = /\bfrom\s+['"]([^'"]+)['"]|\bimport\s*\(?\s*['"]([^'"]+)['"]|\brequire\(\s*['"]([^'"]+)['"]\s*\)/g;
const INSTALL = /\b(?:npm\s+(?:install|i|add)|pnpm\s+(?:add|install|i)|yarn\s+add)\b((?:\s+[^\s`&|;]+)+)/g;

/** The package a bare specifier names (`@scope/name/sub` -> `@scope/name`), or undefined for a builtin or a path. */
function packageOf(specifier) {
  if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('node:')) return undefined;
  const parts = specifier.split('/');
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
  return builtinModules.includes(name) ? undefined : name;
}

/** Every package an install command in the README names (`npm install a b@1`, `pnpm add -D c`). */
export function installedPackages(readme) {
  const names = new Set();
  for (const match of readme.matchAll(INSTALL)) {
    for (const word of match[1].trim().split(/\s+/)) {
      if (word.startsWith('-')) continue;
      names.add(word.replace(/(?<=.)@[^/]*$/, ''));
    }
  }
  return names;
}

/** One line for each package an example imports that no install line of the README installs. */
export function readmeImportProblems(readme) {
  const installed = installedPackages(readme);
  const missing = new Map();
  for (const [, , code] of readme.matchAll(CODE_BLOCK)) {
    for (const match of code.matchAll(SPECIFIER)) {
      const name = packageOf(match[1] ?? match[2] ?? match[3]);
      if (name && !installed.has(name)) missing.set(name, (missing.get(name) ?? 0) + 1);
    }
  }
  return [...missing.keys()].map(
    (name) =>
      `README.md: an example imports ${name}, which no install line of the README installs; add it to the \`npm install\` line before the example`,
  );
}
