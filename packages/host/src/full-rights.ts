import type { PluginReport } from './types.js';

/**
 * A plugin from outside Toolshed's own packages that runs in the host's process: it can do
 * anything you can. Said by `toolshed plugins` and `toolshed inspect` alike.
 */
export function fullRightsWarning(plugin: PluginReport): string | undefined {
  if (plugin.isolated || plugin.source === 'mcp' || plugin.source === 'code' || plugin.status !== 'loaded') return undefined;
  if (plugin.name.startsWith('@toolshed/')) return undefined;
  return 'it is a third-party plugin running with your full rights (files, network, environment); set "isolate": true in its toolshed.config.json entry to hold it to its declared permissions.';
}
