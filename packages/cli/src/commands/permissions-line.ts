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

/** A plugin from outside Toolshed's own packages that runs in the host's process: it can do anything you can. */
export function fullRightsWarning(plugin: PluginReport): string | undefined {
  if (plugin.isolated || plugin.source === 'mcp' || plugin.source === 'code' || plugin.status !== 'loaded') return undefined;
  if (plugin.name.startsWith('@toolshed/')) return undefined;
  return 'it is a third-party plugin running with your full rights (files, network, environment); set "isolate": true in its toolshed.config.json entry to hold it to its declared permissions.';
}
