import { isRecord, PluginError, type ResolvedPermissions } from '@toolshed/core/contract';
import type { FromEnv, McpMount } from '@toolshed/mcp/mount';
import { type Grant, granted } from './grant.js';
import { removePrivateFolder, requireSandbox } from './sandbox.js';
import { wrapInSandbox } from './wrap.js';
const { existsSync } = process.getBuiltinModule('node:fs');
const { dirname, isAbsolute, join } = process.getBuiltinModule('node:path');

/**
 * An `mcpServers` entry with its host-side `isolate` and `grant` taken out; when it is to run
 * isolated, its command wrapped in the OS sandbox, granted exactly its `grant` (a server declares
 * nothing: what the user grants is what it gets). Only a stdio server can be isolated; one asked
 * to be that cannot run in the sandbox fails, naming what is missing.
 */
export async function isolateServer(
  entry: Record<string, unknown>,
  fromEnv: FromEnv,
  where: string,
  ctx: { cwd: string; isolateAll?: boolean },
): Promise<{ resolved: Record<string, unknown>; isolated?: ResolvedPermissions; folder?: string }> {
  const { isolate, grant, ...resolved } = entry;
  const stdio = typeof resolved.command === 'string';
  if (isolate === true && !stdio) {
    throw new PluginError(
      { phase: 'validate', field: 'isolate' },
      `${where}: only a stdio server ("command") can run isolated; an HTTP server runs elsewhere.`,
    );
  }
  if (!stdio || (isolate ?? ctx.isolateAll) !== true) return { resolved };
  const given = (isRecord(grant) ? grant : {}) as Grant;
  const permissions = granted(
    { read: given.read ?? [], write: given.write ?? [], net: given.net ?? [], env: [], spawn: given.spawn ?? true },
    ctx.cwd,
  );
  // A resolve-phase PluginError saying what is missing, as for a plugin.
  const sandbox = await requireSandbox(ctx.cwd);
  const command = resolved.command as string;
  const code = [join(ctx.cwd, 'node_modules'), ...(isAbsolute(command) ? [dirname(command)] : [])].filter((folder) => existsSync(folder));
  const args = Array.isArray(resolved.args) ? (resolved.args as string[]) : [];
  const name = typeof resolved.name === 'string' ? resolved.name : 'server';
  const wrapped = wrapInSandbox(name, command, args, permissions, code, sandbox);
  // Each start has its own settings file: the cache key takes a fixed word for it, and the args after shift.
  const shift = wrapped.args.length - args.length;
  fromEnv.args = {
    [String(wrapped.settingsArg)]: '(sandbox settings)',
    ...Object.fromEntries(Object.entries(fromEnv.args ?? {}).map(([index, written]) => [String(Number(index) + shift), written])),
  };
  fromEnv.env = { ...fromEnv.env, HOME: '(private folder)', TMPDIR: '(private folder)' };
  const env = isRecord(resolved.env) ? resolved.env : {};
  return {
    resolved: { ...resolved, command: wrapped.command, args: wrapped.args, env: { ...env, ...wrapped.env } },
    isolated: permissions,
    folder: wrapped.folder,
  };
}

/**
 * The mount of an isolated server, whose private folder (settings, proxy socket, HOME) is removed
 * when it closes: the mount may start the server again until then, with the same settings.
 */
export function removingFolder(mount: McpMount, folder: string): McpMount {
  return {
    name: mount.name,
    cached: () => mount.cached(),
    refresh: () => mount.refresh(),
    notices: () => mount.notices(),
    tool: (name) => mount.tool(name),
    state: () => mount.state(),
    onToolsChanged: (listener) => mount.onToolsChanged(listener),
    close: async () => {
      try {
        await mount.close();
      } finally {
        removePrivateFolder(folder);
      }
    },
  };
}
