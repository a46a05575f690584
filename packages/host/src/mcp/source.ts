import type { ToolDefinition } from '@toolshed/core';
import { describeThrown, isEnvReference, isRecord, PluginError, resolveEnvReferences } from '@toolshed/core/contract';
import type { PlanEntry } from '../plan/entry.js';
import { failedState, newAbout, type About, type PluginRecord } from '../plan/record.js';
import type { Source } from '../plan/source.js';
import type { PlannedTool, PluginState } from '../plan/state.js';
import {
  cacheDir,
  type FromEnv,
  INSTALL_MCP,
  type ListingRuntime,
  loadListingRuntime,
  loadMountRuntime,
  type McpMount,
  type MountRuntime,
  type ResolvedServerConfig,
} from './runtime.js';

/** One `mcpServers` entry as given, with where it was written (for errors). */
export interface ServerEntry {
  entry: Record<string, unknown> & { name: string };
  /** Where the entry is: `toolshed.config.json mcpServers[1] "files"`. */
  where: string;
  /** What the user edits to change it: the config file's name, or "the createHost options". */
  configName: string;
}

export interface McpPlanContext {
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  /** Refresh every server's cache even when it has one (`toolshed plugins --refresh`). */
  refresh: boolean;
  /** Server stderr lines and the runtime's notices. */
  log?: (line: string) => void;
  /** Said while a server's start takes a while (see HostOptions.progress). */
  progress?: (line: string) => void;
  /**
   * Planning for a listing (inspectPlugins), which loads nothing: a server whose mount kept a
   * listing for its entry is planned from that, and the mount is loaded only for the others.
   */
  listing?: boolean;
}

/** A server's record before it has a state: the state is what planning it gives. */
function serverRecordParts(server: ServerEntry): Omit<PluginRecord, 'state'> {
  const entry: PlanEntry = { named: 'mcp', spec: server.entry, label: server.entry.name, explicit: true, rename: {} };
  const about: About = newAbout(entry);
  about.server = { transport: 'url' in server.entry ? 'http' : 'stdio', cached: false };
  return { entry, about };
}

/**
 * `{"env": NAME}` is resolved in the two fields that carry secrets: a stdio server's `env` and an
 * HTTP server's `headers`. `fromEnv` names, for each entry resolved so, its variable: the runtime
 * keys its cache on these names, never on the values (secrets), which it only runs with.
 */
function resolveSecrets(server: ServerEntry, env: McpPlanContext['env']): { resolved: Record<string, unknown>; fromEnv: FromEnv } {
  const resolved: Record<string, unknown> = { ...server.entry };
  const fromEnv: FromEnv = {};
  for (const field of ['env', 'headers'] as const) {
    const given = server.entry[field];
    if (!isRecord(given)) continue;
    resolved[field] = resolveEnvReferences(given, env, server.configName, [field]);
    const names = Object.entries(given).flatMap(([key, value]) =>
      isEnvReference(value) && typeof value.env === 'string' ? [[key, value.env] as const] : [],
    );
    if (names.length > 0) fromEnv[field] = Object.fromEntries(names);
  }
  return { resolved, fromEnv };
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

/** A config the runtime refused: its message names where and the field; the field is kept for callers. */
function configFailure(error: unknown): PluginError {
  const field = (error as { field?: unknown })?.field;
  const message = error instanceof Error ? error.message : describeThrown(error);
  return new PluginError({ phase: 'validate', ...(typeof field === 'string' ? { field } : {}) }, message, { cause: error });
}

/** The state planning a server gives: its tools (from the cache, or listed by the server), or why it failed. */
async function planOne(server: ServerEntry, runtime: MountRuntime, ctx: McpPlanContext, about: About): Promise<PluginState> {
  let secrets: ReturnType<typeof resolveSecrets>;
  try {
    secrets = resolveSecrets(server, ctx.env);
  } catch (error) {
    // An options-phase PluginError naming the field and the variable (never a value).
    return failedState(about, error, undefined, 'startup');
  }
  let config: ResolvedServerConfig;
  try {
    config = runtime.checkServerConfig(secrets.resolved, server.where);
  } catch (error) {
    return failedState(about, configFailure(error), undefined, 'startup');
  }
  const mount = runtime.mountServer(config, {
    cwd: ctx.cwd,
    cacheDir: cacheDir(ctx.cwd),
    fromEnv: secrets.fromEnv,
    written: server.entry,
    ...(ctx.log ? { log: ctx.log } : {}),
    ...(ctx.progress ? { progress: ctx.progress } : {}),
  });
  about.server = { ...about.server!, mount };
  const cached = ctx.refresh ? undefined : mount.cached();
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
  about.warnings.push(...(mount.notices?.() ?? []));
  const state = plannedState(definitions, config.timeoutMs, { kind: 'mcp', mount }, about);
  watchChanges(about, mount, about.offered);
  return state;
}

/** A server's tools as planned: each definition with the server's timeout, by the name the server gives it. */
export function plannedState(definitions: ToolDefinition[], timeout: unknown, source: Source, about: About): PluginState {
  const timeoutMs = typeof timeout === 'number' ? { timeoutMs: timeout } : {};
  const manifest = definitions.map((definition) => ({ definition, ...timeoutMs }));
  const tools: PlannedTool[] = manifest.map((tool) => ({ original: tool.definition.name, ...tool }));
  about.offered = tools.map((tool) => tool.original);
  return { status: 'planned', source, manifest, tools };
}

/**
 * The state a server's kept listing gives (see ListingRuntime), or undefined when its mount
 * kept none for this entry as written: then planOne plans it with the mount, which keeps one.
 * The entry passed the mount's check when its listing was kept, and the listing is keyed on all
 * of it, so its timeout is read from it as written.
 */
function listedState(server: ServerEntry, listing: ListingRuntime, ctx: McpPlanContext, about: About): PluginState | undefined {
  try {
    // A variable the entry names must be set now too; without it planOne says which.
    resolveSecrets(server, ctx.env);
  } catch {
    return undefined;
  }
  const kept = listing.readListing(server.entry, { cwd: ctx.cwd, cacheDir: cacheDir(ctx.cwd) });
  if (!kept) return undefined;
  about.server = { ...about.server!, cached: true };
  about.warnings.push(...kept.notices);
  return plannedState(kept.definitions, server.entry.timeoutMs, { kind: 'mcp-listing' }, about);
}

/** For a listing: each server's state from its kept listing, where there is one. */
async function listedStates(servers: ServerEntry[], abouts: About[], ctx: McpPlanContext): Promise<(PluginState | undefined)[]> {
  // Any fault in loading it leaves every server to the mount, which shows a broken install as it is.
  const listing = await loadListingRuntime(ctx.cwd).catch(() => undefined);
  return listing ? servers.map((server, index) => listedState(server, listing, ctx, abouts[index]!)) : [];
}

/** One record per server, in the order given; a broken entry fails only its own record. */
export async function planMcpServers(servers: ServerEntry[], ctx: McpPlanContext): Promise<PluginRecord[]> {
  if (servers.length === 0) return [];
  const parts = servers.map(serverRecordParts);
  // A listing of servers whose mounts all kept one loads neither the mount nor @toolshed/core/contract with it.
  const listed =
    ctx.listing && !ctx.refresh
      ? await listedStates(
          servers,
          parts.map((part) => part.about),
          ctx,
        )
      : [];
  if (servers.every((_, index) => listed[index] !== undefined)) return parts.map((part, index) => ({ ...part, state: listed[index]! }));
  const runtime = await loadMountRuntime(ctx.cwd);
  if (!runtime)
    return parts.map((part) => ({
      ...part,
      state: failedState(part.about, new PluginError({ phase: 'resolve' }, `${INSTALL_MCP}.`), undefined, 'startup'),
    }));
  // Servers start at once, not one after another: a cold start is one server's wait, not the sum.
  const states = await Promise.all(
    servers.map((server, index) => {
      const { about } = parts[index]!;
      const kept = listed[index];
      if (kept) return kept;
      // Whatever goes wrong with one server is its own failure, never the whole plan's.
      return planOne(server, runtime, ctx, about).catch((error: unknown) => failedState(about, error, undefined, 'startup'));
    }),
  );
  return parts.map((part, index) => ({ ...part, state: states[index]! }));
}

/** Close every mount (a server started to list its tools, or by a call); one that fails does not keep the others open. */
export async function closeMounts(records: readonly PluginRecord[]): Promise<void> {
  await Promise.allSettled(records.map((record) => record.about.server?.mount?.close()));
}
