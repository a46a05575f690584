import { optionPath, PluginError, resolveEnvReferences } from '@toolshed/core/contract';
import { coreMismatch, describeCoreMismatch } from '../compat.js';
import { readManifestField, readManifestFile } from '../manifest.js';
import { prototypeKeyPaths, prototypeKeyProblem } from '../prototype-keys.js';
import { loadSource } from './load-source.js';
import { prepareServer } from './mcp.js';
import type { About } from './record.js';
import type { Source } from './source.js';
import { plannedTools, type PluginState } from './state.js';

/** What planning one plugin needs besides the plugin. */
export interface PrepareContext {
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  /** Where the user wrote its options, named when an env variable is unset. */
  configName: string;
  /** Start every MCP server to list its tools, even one with cached tools (`toolshed plugins --refresh`). */
  refreshServers?: boolean;
}

/**
 * Take a found plugin as far as can be known at startup: its package facts, its options (env
 * references resolved, once), and its tools from its static manifest, or else by running its
 * code now. `about` is filled in as facts are learned, so a failure still names the plugin.
 */
export async function prepare(
  source: Source,
  rawOptions: Record<string, unknown> | undefined,
  about: About,
  context: PrepareContext,
): Promise<{ state: PluginState; options?: Record<string, unknown> }> {
  // After the package is read, so that an options error names it with its version.
  const resolveOptions = () => {
    if (rawOptions === undefined) return undefined;
    // Options given in code are checked only here (a config file's were checked when it was read).
    const refused = prototypeKeyPaths(rawOptions);
    if (refused.length > 0) {
      const problems = refused.map((path) => `option ${prototypeKeyProblem(path)}`);
      throw new PluginError({ phase: 'options', field: optionPath(refused[0]!) }, `${problems.join('; ')}.`);
    }
    return resolveEnvReferences(rawOptions, context.env, context.configName) as Record<string, unknown>;
  };
  const runNow = async (options: Record<string, unknown> | undefined) => {
    const instance = await loadSource(source, options, context.cwd, () => (about.imported = true));
    // A module file or plugin object is known by its plugin's name once it has run.
    if (source.kind !== 'package') about.name = instance.plugin.name;
    const state: PluginState = { status: 'loaded', source, tools: plannedTools(instance), instance };
    return { state, ...(options ? { options } : {}) };
  };

  switch (source.kind) {
    case 'object':
      return runNow(resolveOptions());
    case 'module':
      about.path = source.file;
      return runNow(resolveOptions());
    case 'package': {
      const { dir, pkg } = source;
      about.path = dir;
      if (typeof pkg.name === 'string') about.name = pkg.name;
      if (typeof pkg.version === 'string') about.version = pkg.version;
      // A peer range that misses the running core shows wherever the plugin is listed, not only once its code loads.
      const mismatch = await coreMismatch(pkg.peerDependencies);
      if (mismatch) {
        about.coreMismatch = mismatch;
        about.warnings.push(describeCoreMismatch(mismatch));
      }
      const options = resolveOptions();
      if (pkg.toolshed === undefined) {
        about.warnings.push('its package.json has no "toolshed" manifest, so its code is imported at startup.');
        return runNow(options);
      }
      const field = readManifestField(pkg.toolshed);
      about.offered = [...field.tools];
      if (!field.manifest) {
        about.warnings.push('its package.json "toolshed" field names no generated manifest, so its code is imported at startup.');
        return runNow(options);
      }
      const manifest = readManifestFile(dir, { ...field, manifest: field.manifest }).tools;
      const tools = manifest.map((tool) => ({
        original: tool.definition.name,
        definition: tool.definition,
        ...(tool.timeoutMs !== undefined ? { timeoutMs: tool.timeoutMs } : {}),
      }));
      return { state: { status: 'planned', source, manifest, tools }, ...(options ? { options } : {}) };
    }
    case 'mcp':
      return { state: await prepareServer(source, about, context.refreshServers === true) };
  }
}
