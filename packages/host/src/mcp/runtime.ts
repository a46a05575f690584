const { join } = process.getBuiltinModule('node:path');
const { pathToFileURL } = process.getBuiltinModule('node:url');

/** The members of `@toolshed/mcp/mount` the host uses (its types only: @toolshed/mcp is an optional peer, loaded when a config names servers). */
export type MountRuntime = Pick<typeof import('@toolshed/mcp/mount'), 'checkServerConfig' | 'mountServer' | 'jsonSchemaOutput'>;

export const INSTALL_MCP = 'install @toolshed/mcp to mount MCP servers: npm install @toolshed/mcp';

const MOUNT = '@toolshed/mcp/mount';

function notFound(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException)?.code;
  return code === 'MODULE_NOT_FOUND' || code === 'ERR_MODULE_NOT_FOUND' || code === 'ERR_PACKAGE_PATH_NOT_EXPORTED';
}

/**
 * The mount runtime (`@toolshed/mcp/mount`), or undefined when @toolshed/mcp is not installed.
 * Looked up from the project root first, as plugins are (pnpm's layout hides a project's
 * packages from ours), then beside host as its optional peer. Loaded only when a config names
 * MCP servers.
 */
export async function loadMountRuntime(cwd: string): Promise<MountRuntime | undefined> {
  const { createRequire } = process.getBuiltinModule('node:module');
  let file: string | undefined;
  try {
    file = createRequire(import.meta.url).resolve(MOUNT, { paths: [cwd] });
  } catch (error) {
    if (!notFound(error)) throw error;
  }
  if (file) return (await import(pathToFileURL(file).href)) as MountRuntime;
  try {
    return (await import(MOUNT)) as MountRuntime;
  } catch (error) {
    // Only @toolshed/mcp itself missing; a fault inside an installed copy is shown as it is.
    if (notFound(error) && String((error as Error).message).includes('@toolshed/mcp')) return undefined;
    throw error;
  }
}

/** Where the runtime keeps one manifest per server, keyed by a hash of its config. */
export function cacheDir(cwd: string): string {
  return join(cwd, 'node_modules', '.cache', 'toolshed', 'mcp');
}
