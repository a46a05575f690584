import { CONFIG_FILE } from './config.js';
const { existsSync } = process.getBuiltinModule('node:fs');
const { dirname, join, resolve } = process.getBuiltinModule('node:path');

const MARKERS = ['package.json', 'node_modules', CONFIG_FILE];

/**
 * The project root for a command typed in `from`: the nearest folder, upward, that holds a
 * package.json, a node_modules folder or a toolshed.config.json — npm's rule for its prefix,
 * plus our own config file. Without one, `from` itself.
 */
export function findProjectRoot(from: string = process.cwd()): string {
  const start = resolve(from);
  for (let dir = start; ; ) {
    if (MARKERS.some((marker) => existsSync(join(dir, marker)))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return start;
    dir = parent;
  }
}
