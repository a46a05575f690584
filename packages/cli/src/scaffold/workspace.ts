const { existsSync, readdirSync, readFileSync } = process.getBuiltinModule('node:fs');
const { dirname, join, resolve } = process.getBuiltinModule('node:path');

/** A pnpm workspace the new package lands in, and which @toolshed packages it builds itself. */
export interface Workspace {
  root: string;
  /** Names of the workspace's own packages: these are linked with workspace: ranges. */
  members: Set<string>;
  /** Whether the workspace releases with changesets (has .changeset/config.json). */
  changesets: boolean;
}

function readJson(file: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/** Package folder globs of the form "dir/*" or "dir" from pnpm-workspace.yaml; other forms are not needed here. */
function workspaceGlobs(file: string): string[] {
  const globs: string[] = [];
  let inPackages = false;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (/^packages:\s*$/.test(line)) {
      inPackages = true;
      continue;
    }
    if (inPackages && /^\S/.test(line)) break;
    const match = inPackages ? /^\s*-\s*['"]?([^'"#\s]+)['"]?/.exec(line) : null;
    if (match) globs.push(match[1]!);
  }
  return globs;
}

function memberNames(root: string, globs: string[]): Set<string> {
  const names = new Set<string>();
  const add = (dir: string) => {
    const name = readJson(join(dir, 'package.json'))?.name;
    if (typeof name === 'string') names.add(name);
  };
  for (const glob of globs) {
    if (glob.startsWith('!')) continue;
    if (glob.endsWith('/*')) {
      const parent = join(root, glob.slice(0, -2));
      if (!existsSync(parent)) continue;
      for (const entry of readdirSync(parent, { withFileTypes: true })) if (entry.isDirectory()) add(join(parent, entry.name));
    } else if (!glob.includes('*')) {
      add(join(root, glob));
    }
  }
  return names;
}

/** The pnpm workspace around a folder, if any. */
export function findWorkspace(dir: string): Workspace | undefined {
  for (let current = resolve(dir); ; current = dirname(current)) {
    const file = join(current, 'pnpm-workspace.yaml');
    if (existsSync(file)) {
      return {
        root: current,
        members: memberNames(current, workspaceGlobs(file)),
        changesets: existsSync(join(current, '.changeset', 'config.json')),
      };
    }
    if (dirname(current) === current) return undefined;
  }
}
