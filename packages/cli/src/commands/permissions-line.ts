import type { PluginReport } from '@toolshed/host';

/** What a plugin may do, on one line: its declared permissions and whether the sandbox holds it to them. */
export function describePermissions(plugin: PluginReport): string | undefined {
  if (plugin.source === 'mcp' && !plugin.isolated) return undefined;
  const where = plugin.isolated ? 'isolated, granted only these' : 'runs in the host with your full rights';
  const { permissions } = plugin;
  if (!permissions) return `permissions: none declared (${where})`;
  const list = (items: string[]) => (items.length > 0 ? items.join(', ') : '-');
  const { read, write, net, env, spawn } = permissions;
  return `permissions: read ${list(read)}; write ${list(write)}; net ${list(net)}; env ${list(env)}; spawn ${spawn ? 'yes' : 'no'} (${where})`;
}
