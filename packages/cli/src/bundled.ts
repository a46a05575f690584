import { createRequire } from 'node:module';
import { ToolRegistry, type AnyPlugin, type ApproveHook } from '@toolshed/core';
import echoPlugin from '@toolshed/tool-echo';

/**
 * The plugins this CLI registers. This is the one place a plugin list is
 * hard-wired; plugin discovery replaces it.
 */
const BUNDLED: AnyPlugin[] = [echoPlugin];

export interface LoadedTools {
  registry: ToolRegistry;
  /** The plugin (name and version) a tool came from. */
  pluginOf(tool: string): { name: string; version: string } | undefined;
}

function versionOf(packageName: string): string {
  const require = createRequire(import.meta.url);
  return (require(`${packageName}/package.json`) as { version: string }).version;
}

export async function loadTools(options: { cwd: string; approve?: ApproveHook }): Promise<LoadedTools> {
  const registry = new ToolRegistry(options.approve ? { approve: options.approve } : {});
  const origins = new Map<string, { name: string; version: string }>();
  for (const plugin of BUNDLED) {
    const version = versionOf(plugin.name);
    const tools = typeof plugin.tools === 'function' ? await plugin.tools(undefined, { cwd: options.cwd }) : plugin.tools;
    for (const tool of tools) {
      registry.register(tool, { origin: `${plugin.name}@${version}` });
      origins.set(tool.name, { name: plugin.name, version });
    }
  }
  registry.seal();
  return { registry, pluginOf: (tool) => origins.get(tool) };
}
