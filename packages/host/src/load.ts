import type { PluginInstance } from '@toolshed/core';
import { describeThrown, PluginError, pluginFromModule } from '@toolshed/core/contract';
const { pathToFileURL } = process.getBuiltinModule('node:url');

/**
 * Run a plugin's code by core's one set of rules (core's main entry, and with it valibot,
 * is loaded only here, when plugin code runs). `options` are already resolved.
 */
export async function instantiate(
  plugin: unknown,
  options: Record<string, unknown> | undefined,
  cwd: string,
  what: string,
): Promise<PluginInstance> {
  const { instantiatePlugin } = await import('@toolshed/core');
  return instantiatePlugin(plugin, { ...(options !== undefined ? { options } : {}), cwd, what });
}

/** Import a plugin module and run it. */
export async function importAndInstantiate(
  file: string,
  options: Record<string, unknown> | undefined,
  cwd: string,
  imported: () => void,
): Promise<PluginInstance> {
  let namespace: unknown;
  try {
    namespace = await import(pathToFileURL(file).href);
  } catch (error) {
    // A throw or a syntax error in the module is an import-phase failure.
    throw new PluginError({ phase: 'import' }, `importing ${file} failed: ${describeThrown(error)}`, { cause: error });
  }
  imported();
  return instantiate(pluginFromModule(namespace), options, cwd, 'its default export');
}
