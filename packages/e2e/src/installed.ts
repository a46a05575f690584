import { existsSync, lstatSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** Every installed package in a project (nested ones too), by its folder: what `npm update` may change. */
export function installed(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (modules: string) => {
    if (!existsSync(modules)) return;
    for (const entry of readdirSync(modules)) {
      if (entry.startsWith('.')) continue;
      const dirs = entry.startsWith('@') ? readdirSync(path.join(modules, entry)).map((name) => path.join(entry, name)) : [entry];
      for (const name of dirs) {
        const dir = path.join(modules, name);
        const file = path.join(dir, 'package.json');
        if (!existsSync(file)) continue;
        out[path.relative(root, dir)] = (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
        walk(path.join(dir, 'node_modules'));
      }
    }
  };
  walk(path.join(root, 'node_modules'));
  return out;
}

/** The folders of one package among `installed()`'s, wherever it is nested. */
export function copiesOf(found: Record<string, string>, name: string): string[] {
  return Object.keys(found).filter((dir) => dir === path.join('node_modules', name) || dir.endsWith(path.join('/node_modules', name)));
}

/** Bytes of the files under a folder, as `du --apparent-size` counts them (symlinks not followed). */
export function bytesUnder(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) total += bytesUnder(full);
    else if (entry.isFile()) total += lstatSync(full).size;
  }
  return total;
}

/** The fenced code blocks of one language in a README, in order. */
export function codeBlocks(readme: string, lang: string): string[] {
  return [...readme.matchAll(new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``, 'g'))].map((match) => match[1]!);
}
