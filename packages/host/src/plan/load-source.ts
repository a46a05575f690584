import type { PluginInstance } from '@toolshed/core';
import { importAndInstantiate, instantiate } from '../load.js';
import type { ManifestTool } from '../manifest.js';
import { isolatedInstance } from '../isolate/instance.js';
import { mountInstance } from '../mcp/instance.js';
import { packageEntry } from '../package.js';
import type { Source } from './source.js';

/**
 * Run a plugin's code, wherever it comes from, through core's instantiatePlugin. `imported`
 * is called once its module has been imported (a plugin object handed over in code already is).
 */
export async function loadSource(
  source: Source,
  options: Record<string, unknown> | undefined,
  cwd: string,
  imported: () => void,
  manifest: readonly ManifestTool[] = [],
): Promise<PluginInstance> {
  switch (source.kind) {
    case 'object':
      imported();
      return instantiate(source.plugin, options, cwd, 'the plugin handed to createHost');
    case 'module':
      return importAndInstantiate(source.file, options, cwd, imported);
    case 'package':
      return importAndInstantiate(await packageEntry(source.dir, source.pkg), options, cwd, imported);
    case 'mcp':
      return mountInstance(source.mount, manifest);
    case 'isolated': {
      const name = typeof source.pkg.name === 'string' ? source.pkg.name : source.dir;
      const plugin = { name, dir: source.dir, cwd, options, permissions: source.permissions, env: source.env };
      imported();
      return isolatedInstance(source.log ? { ...plugin, log: source.log } : plugin, manifest);
    }
  }
}
