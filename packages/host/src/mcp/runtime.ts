import { join } from 'node:path';
// Types only: @toolshed/mcp is an optional peer, loaded at run time only when a config names servers.
import type { CheckServerConfig, MountServer } from '@toolshed/mcp/mount';

/** The members of `@toolshed/mcp/mount` the host uses. */
export interface MountRuntime {
  checkServerConfig: CheckServerConfig;
  mountServer: MountServer;
}

export const INSTALL_MCP = 'install @toolshed/mcp to mount MCP servers: npm install @toolshed/mcp';

const MOUNT = '@toolshed/mcp/mount';

function notFound(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException)?.code;
  return code === 'MODULE_NOT_FOUND' || code === 'ERR_MODULE_NOT_FOUND' || code === 'ERR_PACKAGE_PATH_NOT_EXPORTED';
}

/**
 * A require function: the CommonJS build's own (dist/index.cjs, which the `toolshed` command
 * loads), so a listing never loads node:module; the ES module build makes one with it.
 */
async function ownRequire(): Promise<NodeJS.Require> {
  return typeof require === 'function' ? require : (await import('node:module')).createRequire(import.meta.url);
}

/**
 * An entry of @toolshed/mcp, or undefined when it is not installed. Looked up from the
 * project root first, as plugins are (pnpm's layout hides a project's packages from ours),
 * then beside host as its optional peer. Loaded only when a config names MCP servers.
 */
async function loadMcp<T>(entry: string, cwd: string): Promise<T | undefined> {
  const load = await ownRequire();
  let file: string | undefined;
  try {
    file = load.resolve(entry, { paths: [cwd] });
  } catch (error) {
    if (!notFound(error)) throw error;
  }
  // By require(): every @toolshed/mcp in host's peer range resolves `require` to a CommonJS
  // build of its entries, so a listing of the servers' cached tools never starts Node's ES
  // module loader (~2 ms), on any supported Node.
  if (file) return load(file) as T;
  try {
    return (await import(entry)) as T;
  } catch (error) {
    // Only @toolshed/mcp itself missing; a fault inside an installed copy is shown as it is.
    if (notFound(error) && String((error as Error).message).includes('@toolshed/mcp')) return undefined;
    throw error;
  }
}

/** The mount runtime (`@toolshed/mcp/mount`), or undefined when @toolshed/mcp is not installed. */
export function loadMountRuntime(cwd: string): Promise<MountRuntime | undefined> {
  return loadMcp<MountRuntime>(MOUNT, cwd);
}

/** Where the runtime keeps one manifest per server, keyed by a hash of its config. */
export function cacheDir(cwd: string): string {
  return join(cwd, 'node_modules', '.cache', 'toolshed', 'mcp');
}
