import { PluginError, type ResolvedPermissions, splitHostPort } from '@toolshed/core/contract';
const { existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } = process.getBuiltinModule('node:fs');
const { createRequire } = process.getBuiltinModule('node:module');
const { tmpdir } = process.getBuiltinModule('node:os');
const { basename, dirname, join } = process.getBuiltinModule('node:path');
const { fileURLToPath, pathToFileURL } = process.getBuiltinModule('node:url');

export const SANDBOX_PACKAGE = '@anthropic-ai/sandbox-runtime';
const DEBIAN_PACKAGES = 'bubblewrap socat ripgrep';

/** Where the sandbox's CLI (`srt`) is, once it has been found able to run here. */
export interface Sandbox {
  cli: string;
  /** The package folder: its seccomp helper is read from inside the sandbox. */
  dir: string;
}

const checked = new Map<string, Promise<Sandbox | string>>();

/**
 * The sandbox package's entry: from the project's root first (a project that isolates installs
 * it: it is an optional peer of host), then from host's own folder. Undefined when neither has it.
 */
export function sandboxEntry(cwd: string): string | undefined {
  for (const from of [join(cwd, 'package.json'), fileURLToPath(import.meta.url)]) {
    try {
      return createRequire(from).resolve(SANDBOX_PACKAGE);
    } catch {
      // Not installed there: look in the next place.
    }
  }
  return undefined;
}

/**
 * Whether the OS sandbox can run here: the package installed (in the project `cwd` or beside
 * host), a platform it supports, and the programs it needs. A string says what is missing and
 * how to install it. Checked once per package found.
 */
export function findSandbox(cwd: string): Promise<Sandbox | string> {
  const entry = sandboxEntry(cwd);
  if (entry === undefined) {
    return Promise.resolve(
      `the sandbox package ${SANDBOX_PACKAGE} is not installed; install it in the project (npm install ${SANDBOX_PACKAGE}@0.0.79)`,
    );
  }
  if (!checked.has(entry)) checked.set(entry, checkSandbox(entry));
  return checked.get(entry)!;
}

async function checkSandbox(entry: string): Promise<Sandbox | string> {
  if (process.platform !== 'linux' && process.platform !== 'darwin') {
    return `isolation runs on Linux (bubblewrap) and macOS (sandbox-exec); this is ${process.platform}`;
  }
  const { SandboxManager } = (await import(pathToFileURL(entry).href)) as typeof import('@anthropic-ai/sandbox-runtime');
  if (!SandboxManager.isSupportedPlatform())
    return `${SANDBOX_PACKAGE} does not support this platform (${process.platform} ${process.arch})`;
  const { errors } = SandboxManager.checkDependencies();
  if (errors.length > 0) {
    const install = process.platform === 'linux' ? `; on Debian or Ubuntu: apt-get install -y ${DEBIAN_PACKAGES}` : '';
    return `the sandbox cannot run here: ${errors.join('; ')}${install}`;
  }
  const dir = dirname(dirname(entry));
  return { cli: join(dir, 'dist', 'cli.js'), dir };
}

/** A sandbox, or a resolve-phase failure saying what is missing: an isolated plugin never runs unisolated. */
export async function requireSandbox(cwd: string): Promise<Sandbox> {
  const sandbox = await findSandbox(cwd);
  if (typeof sandbox === 'string') throw new PluginError({ phase: 'resolve' }, `it is to run isolated, but ${sandbox}.`);
  return sandbox;
}

/** The packages a node_modules folder links to outside itself (pnpm and workspace links), by real path. */
function linked(modules: string): string[] {
  const found: string[] = [];
  const look = (dir: string, depth: number) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isSymbolicLink()) found.push(realpathSync(path));
      else if (depth === 0 && entry.isDirectory() && entry.name.startsWith('@')) look(path, 1);
    }
  };
  try {
    look(modules, 0);
  } catch {
    // An unreadable folder links nowhere the child could import from.
  }
  return found;
}

/**
 * The folders the code in `folders` imports from: each folder, every `node_modules` above it,
 * and, followed to where they point, the packages those link to (a workspace's or pnpm's links).
 */
function codeFolders(folders: readonly string[]): string[] {
  const found = new Set<string>();
  // A linked package is read by its link's path (its node_modules above) and where it points.
  const queue = [...new Set(folders.flatMap((folder) => [folder, realpathSync(folder)]))];
  // A folder inside one already found needs no entry of its own (pnpm's store sits in the root node_modules).
  const covered = (folder: string) => {
    for (let dir = folder; ; dir = dirname(dir)) {
      if (found.has(dir)) return true;
      if (dirname(dir) === dir) return false;
    }
  };
  while (queue.length > 0 && found.size < 500) {
    const folder = queue.shift()!;
    if (covered(folder)) continue;
    found.add(folder);
    for (let dir = folder; ; ) {
      const modules = join(dir, 'node_modules');
      if (existsSync(modules) && !found.has(modules)) {
        found.add(modules);
        queue.push(...linked(modules).filter((target) => !covered(target)));
      }
      const parent = dirname(dir);
      if (parent === dir) break;
      dir = parent;
    }
  }
  return [...found];
}

// What Node itself needs to start. `/etc` without the files that hold secrets.
const SYSTEM_READ = ['/usr', '/lib', '/lib64', '/lib32', '/bin', '/sbin', '/etc'];
const SYSTEM_DENY = ['/etc/shadow', '/etc/gshadow', '/etc/ssh', '/etc/sudoers', '/etc/sudoers.d'];

/**
 * The sandbox's settings for one plugin: nothing readable but the system, the code it runs
 * (its package, Node, the host's and mcp's packages and the node_modules they import from) and
 * what it was granted; nothing writable but what it was granted; no network but the granted
 * `host:port`s (through the sandbox's proxies).
 */
export function sandboxSettings(permissions: ResolvedPermissions, code: readonly string[], sandbox: Sandbox, own: string): object {
  const codeRead = codeFolders([...code, sandbox.dir, dirname(dirname(process.execPath))]);
  const allowedDomains = permissions.net.map((target) => {
    const { host, port } = splitHostPort(target)!;
    return `${host}:${port}`;
  });
  return {
    network: { allowedDomains, deniedDomains: [], strictAllowlist: true },
    filesystem: {
      denyRead: ['/', ...SYSTEM_DENY],
      // `own`: its private folder, where the sandbox's proxy socket is (a denied /tmp would hide it).
      allowRead: [...new Set([...SYSTEM_READ, ...codeRead, own, ...permissions.read, ...permissions.write])],
      allowWrite: permissions.write,
      denyWrite: [],
    },
  };
}

const folders = new Set<string>();
let removeAtExit = false;

/**
 * A private folder for one isolated process: its settings file, the sandbox's proxy socket (its
 * TMPDIR outside), and its HOME. Nothing of the user's is in it. Removed by `removePrivateFolder`,
 * or when this process exits, whichever comes first.
 */
export function privateFolder(name: string): string {
  const folder = mkdtempSync(join(tmpdir(), `toolshed-isolated-${name}-`));
  folders.add(folder);
  if (!removeAtExit) {
    removeAtExit = true;
    // A host that exits without closing its plugins leaves no folder behind either.
    process.once('exit', () => {
      for (const left of folders) rmSync(left, { recursive: true, force: true });
    });
  }
  return folder;
}

export function removePrivateFolder(folder: string): void {
  folders.delete(folder);
  rmSync(folder, { recursive: true, force: true });
}

/**
 * Make the granted write paths that do not exist yet (a fresh project's outbox), so the grant
 * holds on the first run: the sandbox grants only paths that exist. A name with an extension
 * (`calls.jsonl`) is made as an empty file, any other as a folder; their parent folders as well.
 */
export function makeMissing(paths: readonly string[]): void {
  for (const path of paths) {
    if (existsSync(path)) continue;
    const file = /[^.]\.[A-Za-z0-9]+$/.test(basename(path));
    mkdirSync(file ? dirname(path) : path, { recursive: true, mode: 0o700 });
    if (file) writeFileSync(path, '', { flag: 'a', mode: 0o600 });
  }
}

export function writeSettings(folder: string, settings: object): string {
  const file = join(folder, 'srt-settings.json');
  writeFileSync(file, JSON.stringify(settings), { mode: 0o600 });
  return file;
}
