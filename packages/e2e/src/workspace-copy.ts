import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository this package lives in. */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** The oldest Node that engines allows, installed by packages/e2e/oldest-node from the registry's `node` package. */
export const OLDEST_NODE = path.join(REPO_ROOT, 'packages/e2e/oldest-node/node_modules/node/bin/node');
/** The last Node 20 before it (20.18), which cannot require() an ES module: installed beside it. */
export const TOO_OLD_NODE = path.join(REPO_ROOT, 'packages/e2e/oldest-node/node_modules/node-too-old/bin/node');

const SKIP = new Set(['node_modules', '.git', '.turbo']);

/**
 * Copy the workspace (sources, built dist/, changesets; no node_modules or
 * .git) so that versioning and publishing never touch the real checkout.
 */
export function copyWorkspace(target: string, options: { dist?: boolean } = {}): string {
  cpSync(REPO_ROOT, target, {
    recursive: true,
    filter: (source) => {
      const name = path.basename(source);
      if (SKIP.has(name) || name.endsWith('.tgz')) return false;
      return options.dist !== false || name !== 'dist';
    },
  });
  return target;
}

export interface WorkspacePackage {
  dir: string;
  name: string;
  version: string;
  private: boolean;
  // biome-ignore lint/suspicious/noExplicitAny: parsed JSON read field by field in a test
  manifest: Record<string, any>;
}

/** The workspace's packages (packages/* and plugins/*), read from a checkout or a copy. */
export function workspacePackages(root: string): WorkspacePackage[] {
  const found: WorkspacePackage[] = [];
  for (const group of ['packages', 'plugins']) {
    for (const entry of readdirSync(path.join(root, group), { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const dir = path.join(root, group, entry.name);
      // biome-ignore lint/suspicious/noExplicitAny: parsed JSON read field by field in a test
      let manifest: Record<string, any>;
      try {
        manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
      } catch {
        continue;
      }
      found.push({ dir, name: manifest.name, version: manifest.version, private: manifest.private === true, manifest });
    }
  }
  return found.sort((a, b) => a.name.localeCompare(b.name));
}

/** Remove the pending changesets of a copy, leaving its config. */
export function pendingChangesets(root: string): string[] {
  return readdirSync(path.join(root, '.changeset')).filter((file) => file.endsWith('.md') && file !== 'README.md');
}

/**
 * pnpm turns workspace: ranges into real ones when it packs, reading each
 * linked package's version from node_modules. A copy has no node_modules, and
 * a full install only to publish would be slow, so link just the workspace
 * packages, to the copy's own folders, as pnpm install would.
 */
export function linkWorkspaceDependencies(root: string): void {
  const packages = workspacePackages(root);
  const byName = new Map(packages.map((item) => [item.name, item.dir]));
  for (const item of packages) {
    const { dependencies, devDependencies, peerDependencies, optionalDependencies } = item.manifest;
    for (const [name, range] of Object.entries({ ...peerDependencies, ...devDependencies, ...optionalDependencies, ...dependencies })) {
      const target = byName.get(name);
      if (!target || !String(range).startsWith('workspace:')) continue;
      const link = path.join(item.dir, 'node_modules', name);
      mkdirSync(path.dirname(link), { recursive: true });
      rmSync(link, { force: true, recursive: true });
      symlinkSync(target, link, 'dir');
    }
  }
}
