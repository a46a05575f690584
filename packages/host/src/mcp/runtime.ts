import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AnyTool, ToolDefinition } from '@toolshed/core';
import type { McpServerState } from '../types.js';

/**
 * The members of `@toolshed/mcp/mount` the host uses, written out here rather than imported:
 * @toolshed/mcp is an optional peer, so host's types must not need it installed.
 */
export interface McpMount {
  readonly name: string;
  cached(): ToolDefinition[] | undefined;
  refresh(): Promise<ToolDefinition[]>;
  /** What the last listing left out and why (absent from an older @toolshed/mcp). */
  notices?(): string[];
  tool(name: string): AnyTool;
  state(): McpServerState;
  onToolsChanged(listener: (definitions: ToolDefinition[]) => void): () => void;
  close(): Promise<void>;
}

/** A server entry as the runtime takes it: every `{"env": NAME}` already resolved to a string. */
export type ResolvedServerConfig = Record<string, unknown> & { name: string };

/**
 * What of an entry was read from the environment, as written: keys of `env` and `headers` given as
 * `{"env": NAME}` (the name) or with `${NAME}` (the text), indexes of `args` likewise, and `url`.
 */
export interface FromEnv {
  env?: Record<string, string>;
  headers?: Record<string, string>;
  args?: Record<string, string>;
  url?: string;
}

export interface MountRuntime {
  checkServerConfig(value: unknown, where: string): ResolvedServerConfig;
  /**
   * `fromEnv`: the cache is keyed on these names, not the values (an older @toolshed/mcp ignores
   * it and hashes the values). `written`: the entry as the config wrote it, under which the
   * mount keeps its listing for `@toolshed/mcp/listing`.
   */
  mountServer(
    config: ResolvedServerConfig,
    ctx: {
      cwd: string;
      cacheDir: string;
      fromEnv?: FromEnv;
      written?: Record<string, unknown>;
      /** Values read from the environment, which the runtime keeps out of everything it says (ignored by an older @toolshed/mcp). */
      secrets?: readonly string[];
      log?: (line: string) => void;
      progress?: (line: string) => void;
    },
  ): McpMount;
}

/** `@toolshed/mcp/listing`: what a server's mount kept for a listing, read without the mount. */
export interface ListingRuntime {
  readListing(
    written: Record<string, unknown>,
    ctx: { cwd: string; cacheDir: string },
  ): { definitions: ToolDefinition[]; notices: string[] } | undefined;
}

export const INSTALL_MCP = 'install @toolshed/mcp to mount MCP servers: npm install @toolshed/mcp';

// Typed as string so that TypeScript does not look for the optional peer's types.
const MOUNT: string = '@toolshed/mcp/mount';
const LISTING: string = '@toolshed/mcp/listing';

function notFound(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException)?.code;
  return code === 'MODULE_NOT_FOUND' || code === 'ERR_MODULE_NOT_FOUND' || code === 'ERR_PACKAGE_PATH_NOT_EXPORTED';
}

/**
 * An entry of @toolshed/mcp, or undefined when it is not installed. Looked up from the
 * project root first, as plugins are (pnpm's layout hides a project's packages from ours),
 * then beside host as its optional peer. Loaded only when a config names MCP servers.
 */
async function loadMcp<T>(entry: string, cwd: string): Promise<T | undefined> {
  const { createRequire } = await import('node:module');
  let file: string | undefined;
  try {
    file = createRequire(import.meta.url).resolve(entry, { paths: [cwd] });
  } catch (error) {
    if (!notFound(error)) throw error;
  }
  if (file) return (await import(pathToFileURL(file).href)) as T;
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

/** `@toolshed/mcp/listing`, or undefined when @toolshed/mcp is not installed. */
export function loadListingRuntime(cwd: string): Promise<ListingRuntime | undefined> {
  return loadMcp<ListingRuntime>(LISTING, cwd);
}

/** Where the runtime keeps one manifest per server, keyed by a hash of its config. */
export function cacheDir(cwd: string): string {
  return join(cwd, 'node_modules', '.cache', 'toolshed', 'mcp');
}
