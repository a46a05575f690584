import {
  manifestOf,
  optionPath,
  type Permissions,
  PluginError,
  resolvePermissions,
  type ResolvedPermissions,
  resolveEnvReferences,
} from '@toolshed/core/contract';
import { isolatedSource, type Isolation } from '../isolate/plan.js';
import { coreMismatch, describeCoreMismatch } from '../compat.js';
import { readManifestField, readManifestFile } from '../manifest.js';
import { prototypeKeyPaths, prototypeKeyProblem } from '../prototype-keys.js';
import { loadSource } from './load-source.js';
import { prepareServer } from './mcp.js';
import type { About } from './record.js';
import type { Source } from './source.js';
import { manifestTools, type PluginState } from './state.js';

/** What planning one plugin needs besides the plugin. */
export interface PrepareContext {
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  /** Where the user wrote its options, named when an env variable is unset. */
  configName: string;
  /** Start every MCP server to list its tools, even one with cached tools (`toolshed plugins --refresh`). */
  refreshServers?: boolean;
  /** Set when the plugin is to run isolated: what its entry grants, and where that is written. */
  isolation?: Isolation;
  /** Where an isolated plugin's stderr lines go. */
  log?: (line: string) => void;
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
    // Described as its manifest would describe it.
    const tools = manifestTools(manifestOf(instance.plugin.apiVersion, instance).tools);
    const state: PluginState = { status: 'loaded', source, tools, instance };
    return { state, ...(options ? { options } : {}) };
  };

  if (context.isolation && source.kind !== 'package') {
    throw new PluginError(
      { phase: 'resolve' },
      `it is to run isolated, but only an installed package (or a package folder) can: a ${source.kind === 'object' ? 'plugin object handed over in code' : 'module file'} runs in the host's process. Set "isolate": false in its entry, or make it a package.`,
    );
  }
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
      if (context.isolation) {
        const isolated = await isolatedSource(source, options, about, context.isolation, context);
        return { state: { status: 'planned', ...isolated }, ...(options ? { options } : {}) };
      }
      if (pkg.toolshed === undefined) {
        about.warnings.push('its package.json has no "toolshed" manifest, so its code is imported at startup.');
        return runNow(options);
      }
      const field = readManifestField(pkg.toolshed);
      about.offered = [...field.tools];
      about.permissions = declaredPermissions(field.permissions, options);
      if (!field.manifest) {
        about.warnings.push('its package.json "toolshed" field names no generated manifest, so its code is imported at startup.');
        return runNow(options);
      }
      const manifest = readManifestFile(dir, { ...field, manifest: field.manifest }).tools;
      return { state: { status: 'planned', source, manifest, tools: manifestTools(manifest) }, ...(options ? { options } : {}) };
    }
    case 'mcp':
      return { state: await prepareServer(source, about, context.refreshServers === true) };
    case 'isolated':
      throw new Error('an isolated source is made here, from a package, never found');
  }
}

/** A plugin's declared permissions for the report; one whose options do not fit them shows none (it is not isolated, nothing is enforced). */
function declaredPermissions(permissions: Permissions, options: Record<string, unknown> | undefined): ResolvedPermissions | undefined {
  try {
    return resolvePermissions(permissions, options);
  } catch {
    return undefined;
  }
}
