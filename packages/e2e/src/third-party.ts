import { readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';

/** A package from outside the workspace, as installed in the workspace's node_modules. */
export interface InstalledPackage {
  name: string;
  version: string;
  dir: string;
}

interface Manifest {
  name: string;
  version: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

function readManifest(dir: string): Manifest {
  return JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as Manifest;
}

/** Node's lookup: the nearest node_modules/<name> above a (real) package folder. */
function locate(name: string, from: string): string | undefined {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', name);
    try {
      return realpathSync(candidate);
    } catch {
      // not here; look further up
    }
    if (path.dirname(dir) === dir) return undefined;
  }
}

/**
 * Every third-party package that installing `roots` pulls in, found by
 * following dependencies (and required peers) through the pnpm layout, where
 * each package's own dependencies sit beside it. Dependencies the workspace
 * never installed (optional ones for other platforms) are not there to find,
 * and npm skips optional dependencies it cannot fetch.
 */
export function thirdPartyClosure(roots: { dir: string; deps: string[] }[], isWorkspace: (dir: string) => boolean): InstalledPackage[] {
  const found = new Map<string, InstalledPackage>();
  const visited = new Set<string>();
  const visit = (dir: string, deps: string[]) => {
    for (const name of deps) {
      const target = locate(name, dir);
      if (!target || visited.has(target)) continue;
      visited.add(target);
      const manifest = readManifest(target);
      if (!isWorkspace(target))
        found.set(`${manifest.name}@${manifest.version}`, { name: manifest.name, version: manifest.version, dir: target });
      const requiredPeers = Object.keys(manifest.peerDependencies ?? {}).filter((peer) => !manifest.peerDependenciesMeta?.[peer]?.optional);
      const next = [...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.optionalDependencies ?? {}), ...requiredPeers];
      // A workspace package's own dependencies are resolved from its folder, like a third-party one's.
      visit(target, next);
    }
  };
  for (const root of roots) visit(root.dir, root.deps);
  return [...found.values()].sort(
    (a, b) => a.name.localeCompare(b.name) || a.version.localeCompare(b.version, undefined, { numeric: true }),
  );
}

/** Pack installed copies and publish them, several packages at a time. */
export async function seedRegistry(
  packages: InstalledPackage[],
  pack: (item: InstalledPackage) => { file: string; integrity: string; shasum: string },
  publish: (item: { file: string; dir: string; integrity: string; shasum: string }) => Promise<void>,
): Promise<void> {
  // Versions of one package go in order, so "latest" ends on the highest.
  const byName = new Map<string, InstalledPackage[]>();
  for (const item of packages) byName.set(item.name, [...(byName.get(item.name) ?? []), item]);
  const queue = [...byName.values()];
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (let group = queue.shift(); group; group = queue.shift()) {
        for (const item of group) await publish({ ...pack(item), dir: item.dir });
      }
    }),
  );
}
