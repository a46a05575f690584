import { isPluginError, manifestOf, PluginError } from '@toolshed/core/contract';
import { importAndInstantiate } from './load.js';
import { readManifestField } from './manifest.js';
import { packageEntry, readPackageJson } from './package.js';
const { mkdirSync, writeFileSync } = process.getBuiltinModule('node:fs');
const { dirname, resolve } = process.getBuiltinModule('node:path');

export interface GeneratedManifest {
  file: string;
  tools: string[];
}

const EXAMPLE = '"toolshed": {"apiVersion": 1, "tools": ["my_tool"], "manifest": "./dist/toolshed.json"}';

/**
 * Write a built plugin's manifest: each tool's model-facing definition, made by
 * running its tools factory with the given options (default: none) and the
 * package folder as cwd. Definitions must not depend on options; the host
 * checks the code against this file when it loads the plugin.
 */
export async function generateManifest(packageDir: string, options?: Record<string, unknown>): Promise<GeneratedManifest> {
  const dir = resolve(packageDir);
  const pkg = readPackageJson(dir);
  const label = typeof pkg.name === 'string' ? pkg.name : dir;
  if (pkg.toolshed === undefined) throw new Error(`${label}: package.json has no "toolshed" field; add ${EXAMPLE}.`);
  try {
    const field = readManifestField(pkg.toolshed);
    if (!field.manifest) throw new Error(`package.json "toolshed.manifest" must name the file to write, e.g. ${EXAMPLE}.`);
    // The same rules as the host's (core's instantiatePlugin): the built manifest is what the host would load.
    const instance = await importAndInstantiate(await packageEntry(dir, pkg), options, dir, () => {});
    try {
      const { plugin } = instance;
      if (plugin.name !== pkg.name)
        throw new Error(
          `the plugin is named ${JSON.stringify(plugin.name)} but the package ${JSON.stringify(pkg.name)}; use the package name.`,
        );
      if (plugin.apiVersion !== field.apiVersion) {
        throw new Error(`the plugin says apiVersion ${plugin.apiVersion} but package.json "toolshed.apiVersion" says ${field.apiVersion}.`);
      }
      const names = instance.definitions.map((definition) => definition.name);
      if (names.join('\0') !== field.tools.join('\0')) {
        throw new Error(
          `the code offers tools [${names.join(', ')}] but package.json "toolshed.tools" lists [${field.tools.join(', ')}]; make them the same (same order).`,
        );
      }
      const file = resolve(dir, field.manifest);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, `${JSON.stringify(manifestOf(field.apiVersion, instance), null, 2)}\n`);
      return { file, tools: names };
    } finally {
      // The tools were built only to be described.
      await instance.close();
    }
  } catch (error) {
    // The message for the person running the build; the fields for a caller.
    if (!isPluginError(error))
      throw new PluginError({ phase: 'validate', plugin: label }, `${label}: ${(error as Error).message}`, { cause: error });
    const { phase, tool, field } = error;
    throw new PluginError({ phase, plugin: label, tool, field }, `${label} (${phase}): ${error.message}`, { cause: error });
  }
}
