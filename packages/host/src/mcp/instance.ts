import type { PluginInstance } from '@toolshed/core';
import type { ManifestTool } from '../manifest.js';
import type { McpMount } from '@toolshed/mcp/mount';

/**
 * A mounted server's tools as a plugin instance: one core Tool per listed definition (inputs
 * checked against the server's JSON Schema before anything is sent). Building them starts
 * nothing; the server starts or connects on the first call. Closing it closes the server.
 */
export function mountInstance(mount: McpMount, manifest: readonly ManifestTool[]): PluginInstance {
  const tools = manifest.map((entry) => mount.tool(entry.definition.name));
  return {
    plugin: { name: mount.name, apiVersion: 1, tools },
    tools,
    definitions: manifest.map((entry) => entry.definition),
    close: () => mount.close(),
  };
}
