// Shared by the mount tests: real servers, temporary cache folders, and a registry
// wired to mounts the way the host wires them (deferred tools loaded from the mount).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ToolRegistry, type RegistryOptions, type ToolDefinition } from '@toolshed/core';
import { build } from 'rolldown';
import type { McpMount, McpServerConfig, MountContext } from './api.js';
import { mountServer } from './mount.js';

const here = path.dirname(fileURLToPath(import.meta.url));
export const packageDir = path.resolve(here, '../..');
export const everythingBin = path.join(packageDir, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
export const filesystemBin = path.join(packageDir, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
export const faultServer = path.join(packageDir, 'test-fixtures/mount/fault-server.mjs');

/**
 * This package's cache module (src/mount/cache.ts) bundled with what it imports into `dir`, for
 * writers in other processes or threads, which cannot import TypeScript; its URL to import.
 */
export async function cacheModule(dir: string): Promise<string> {
  const file = path.join(dir, 'cache-writer.mjs');
  await build({
    input: path.join(here, 'cache.ts'),
    platform: 'node',
    external: /^node:/,
    output: { file, format: 'esm' },
    logLevel: 'silent',
  });
  return pathToFileURL(file).href;
}

export function everything(extra: Partial<McpServerConfig> = {}): McpServerConfig {
  return { name: 'everything', command: process.execPath, args: [everythingBin, 'stdio'], ...extra } as McpServerConfig;
}

export function fault(mode: string, env: Record<string, string> = {}, extra: Partial<McpServerConfig> = {}): McpServerConfig {
  return { name: `fault-${mode}`, command: process.execPath, args: [faultServer, mode], env, ...extra } as McpServerConfig;
}

export interface Scratch {
  dir: string;
  ctx: MountContext;
  logs: string[];
  mounts: McpMount[];
  mount(config: McpServerConfig): McpMount;
  cleanup(): Promise<void>;
}

export function scratch(): Scratch {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'toolshed-mount-'));
  const logs: string[] = [];
  const mounts: McpMount[] = [];
  const ctx: MountContext = { cwd: dir, cacheDir: path.join(dir, 'cache'), log: (line) => logs.push(line) };
  return {
    dir,
    ctx,
    logs,
    mounts,
    mount(config) {
      const mount = mountServer(config, ctx);
      mounts.push(mount);
      return mount;
    },
    async cleanup() {
      await Promise.all(mounts.map((mount) => mount.close()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A sealed registry holding each mount's tools as deferred tools, as the host registers them. */
export function registryOf(entries: [McpMount, ToolDefinition[]][], options: RegistryOptions = {}): ToolRegistry {
  const registry = new ToolRegistry(options);
  for (const [mount, definitions] of entries) {
    for (const definition of definitions) {
      registry.registerDeferred({ definition, load: async () => mount.tool(definition.name) }, { origin: `mcp server "${mount.name}"` });
    }
  }
  return registry.seal();
}

/**
 * Whether a process is alive (signal 0 checks without signalling). A zombie (dead, waiting
 * for its new parent, often a container's init, to reap it) is not: it runs nothing.
 */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true;
  }
}

/** Poll until `check` holds, at most `tries` times 50 ms apart (a bound, never a timing assertion). */
export async function until(check: () => boolean, tries = 200): Promise<boolean> {
  for (let i = 0; i < tries; i++) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return check();
}

/** Starts `server` on a free port of 127.0.0.1; its MCP endpoint's URL. */
export async function listenLocal(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
}

/** Stops `server`, ending the connections it still holds (a client's open stream). */
export async function stopServer(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}
