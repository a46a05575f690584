import type { ToolDefinition } from '@toolshed/core';
import { describeThrown, PluginError, type Redact, redactor } from '@toolshed/core/contract';
import type { McpMount } from '@toolshed/mcp/mount';
import type { ServerEntry } from '../mcp/entries.js';
import { cacheDir, INSTALL_MCP, type MountRuntime } from '../mcp/runtime.js';
import { resolveSecrets } from '../mcp/secrets.js';
import { isolateServer, removingFolder } from '../isolate/server.js';
import { removePrivateFolder } from '../isolate/sandbox.js';
import { failedState, type About, type PluginRecord } from './record.js';
import type { Source } from './source.js';
import { manifestTools, type PluginState } from './state.js';

export type ServerSource = Extract<Source, { kind: 'mcp' }>;

/** What finding a server needs: the project, where `{"env": NAME}` is read, and the mount runtime (undefined: not installed). */
export interface ServerContext {
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  runtime: Promise<MountRuntime | undefined>;
  /** Server stderr lines and the runtime's notices. */
  log?: (line: string) => void;
  /** Said while a server's start takes a while (see HostOptions.progress). */
  progress?: (line: string) => void;
  /** The project's `isolate`: every stdio server without an `isolate` of its own runs isolated. */
  isolateAll?: boolean;
}

/** A config the runtime refused: its message names where and the field; the field is kept for callers. */
function configFailure(error: unknown, redact: Redact): PluginError {
  const field = (error as { field?: unknown })?.field;
  const message = redact(error instanceof Error ? error.message : describeThrown(error));
  return new PluginError({ phase: 'validate', ...(typeof field === 'string' ? { field } : {}) }, message);
}

/**
 * A server found: its entry with what it reads from the environment filled in, checked by the
 * runtime and mounted (nothing starts yet). Throws a PluginError saying what is wrong: no
 * @toolshed/mcp, a variable not set, a field the runtime refuses.
 */
export async function locateServer(server: ServerEntry, ctx: ServerContext): Promise<ServerSource> {
  const runtime = await ctx.runtime;
  if (!runtime) throw new PluginError({ phase: 'resolve' }, `${INSTALL_MCP}.`);
  const { resolved: given, fromEnv, secrets } = resolveSecrets(server, ctx);
  const { resolved, isolated, folder } = await isolateServer(given, fromEnv, server.where, ctx);
  let config: ServerSource['config'];
  try {
    config = runtime.checkServerConfig(resolved, server.where);
  } catch (error) {
    if (folder) removePrivateFolder(folder);
    // The runtime keeps secrets out of what it says; this says none either.
    throw configFailure(error, redactor(secrets));
  }
  const mounted = runtime.mountServer(config, {
    cwd: ctx.cwd,
    cacheDir: cacheDir(ctx.cwd),
    fromEnv,
    secrets,
    ...(ctx.log ? { log: ctx.log } : {}),
    ...(ctx.progress ? { progress: ctx.progress } : {}),
  });
  const mount = folder ? removingFolder(mounted, folder) : mounted;
  return { kind: 'mcp', mount, config, ...(isolated ? { isolated } : {}) };
}

/**
 * Watch `tools/list_changed`: the registry is sealed, so the tools a model was shown stay as
 * they are until the host starts again (the runtime has already rewritten the cache for that);
 * the report says what changed, so `toolshed plugins` and `host.plugins` show it.
 */
function watchChanges(about: About, mount: McpMount, listed: string[]): void {
  mount.onToolsChanged((definitions) => {
    const now = definitions.map((definition) => definition.name);
    const added = now.filter((name) => !listed.includes(name));
    const removed = listed.filter((name) => !now.includes(name));
    const parts = [added.length > 0 ? `added ${added.join(', ')}` : '', removed.length > 0 ? `removed ${removed.join(', ')}` : ''].filter(
      Boolean,
    );
    const warning =
      `the server changed its tool list while connected (${parts.join('; ') || 'definitions changed'}); ` +
      'this host keeps the tools it started with, and the next start uses the new list (the cache is updated).';
    about.warnings = [...about.warnings.filter((line) => !line.startsWith('the server changed its tool list')), warning];
  });
}

/** The state planning a server gives: its tools (from the cache, or listed by the server), or why it failed. */
export async function prepareServer(source: ServerSource, about: About, refresh: boolean): Promise<PluginState> {
  const { mount } = source;
  about.server = { ...about.server!, mount };
  if (source.isolated) {
    about.isolated = true;
    about.permissions = source.isolated;
  }
  const cached = refresh ? undefined : mount.cached();
  let definitions: ToolDefinition[];
  try {
    definitions = cached ?? (await mount.refresh());
  } catch (error) {
    // Its own fault: its tools are left out and every other source still loads.
    return failedState(
      about,
      new PluginError({ phase: 'import' }, `could not list its tools: ${describeThrown(error)}`),
      undefined,
      'connect',
    );
  }
  about.server.cached = cached !== undefined;
  // Tools the server offers that cannot be mounted: said where `toolshed plugins` shows the server.
  about.warnings.push(...mount.notices());
  const state = plannedState(definitions, source, about);
  watchChanges(about, mount, about.offered);
  return state;
}

/** A server's tools as planned: each definition with the server's timeout, by the name the server gives it. */
export function plannedState(
  definitions: ToolDefinition[],
  source: ServerSource,
  about: About,
): Extract<PluginState, { status: 'planned' }> {
  const { timeoutMs } = source.config;
  const manifest = definitions.map((definition) => ({ definition, ...(timeoutMs !== undefined ? { timeoutMs } : {}) }));
  const tools = manifestTools(manifest);
  about.offered = tools.map((tool) => tool.original);
  return { status: 'planned', source, manifest, tools };
}

/** Close every mount (a server started to list its tools, or by a call); one that fails does not keep the others open. */
export async function closeMounts(records: readonly PluginRecord[]): Promise<void> {
  await Promise.allSettled(records.map((record) => record.about.server?.mount?.close()));
}
