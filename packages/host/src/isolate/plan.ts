import { PluginError, resolvePermissions } from '@toolshed/core/contract';
import { readManifestField, readManifestFile } from '../manifest.js';
import type { About } from '../plan/record.js';
import type { Source } from '../plan/source.js';
import { manifestTools, type PluginState } from '../plan/state.js';
import { type Grant, granted, ungranted } from './grant.js';
import { requireSandbox } from './sandbox.js';

/** A plugin that is to run isolated: what its entry grants, and the words that say where to grant more. */
export interface Isolation {
  grant: Grant;
  /** E.g. `"grant" of plugins[1] in toolshed.config.json`. */
  where: string;
}

type PackageSource = Extract<Source, { kind: 'package' }>;

/**
 * Plan an installed plugin that is to run isolated, without running any of its code: its
 * manifest (required: the tools must be known, and their annotations decided, by the host), its
 * permissions filled in from its options and checked against the grant, and the sandbox found.
 * Throws a PluginError naming what is missing: it never runs unisolated instead.
 */
export async function isolatedSource(
  source: PackageSource,
  options: Record<string, unknown> | undefined,
  about: About,
  isolation: Isolation,
  context: { cwd: string; env: Readonly<Record<string, string | undefined>>; log?: (line: string) => void },
): Promise<Omit<Extract<PluginState, { status: 'planned' }>, 'status'>> {
  about.isolated = true;
  const { dir, pkg } = source;
  const field = pkg.toolshed === undefined ? undefined : readManifestField(pkg.toolshed);
  if (!field?.manifest) {
    throw new PluginError(
      { phase: 'validate', field: 'toolshed.manifest' },
      'it is to run isolated, which needs its tools known before its code runs, but its package.json "toolshed" field names no generated manifest; rebuild it with toolshed-manifest, or set "isolate": false in its entry.',
    );
  }
  about.offered = [...field.tools];
  const asked = resolvePermissions(field.permissions, options);
  about.permissions = asked;
  const missing = ungranted(asked, isolation.grant, context.cwd, isolation.where);
  if (missing.length > 0) throw new PluginError({ phase: 'validate', field: 'toolshed.permissions' }, `${missing.join('; ')}.`);
  await requireSandbox(context.cwd);
  const manifest = readManifestFile(dir, { ...field, manifest: field.manifest }).tools;
  const env = Object.fromEntries(asked.env.map((name) => [name, context.env[name]]));
  return {
    source: { kind: 'isolated', dir, pkg, permissions: granted(asked, context.cwd), env, ...(context.log ? { log: context.log } : {}) },
    manifest,
    tools: manifestTools(manifest),
  };
}
