import type { ToolDefinition } from '@toolshed/core';
import {
  describeThrown,
  isEnvReference,
  isRecord,
  PluginError,
  type Redact,
  redactor,
  resolveEnvReferences,
} from '@toolshed/core/contract';
import { expandReferences } from './expand.js';
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

interface Resolved {
  resolved: Record<string, unknown>;
  fromEnv: FromEnv;
  /** Every value read from the environment for this entry: kept out of every message. */
  secrets: string[];
}

/**
 * The entry with what it reads from the environment filled in: `{"env": NAME}` in `env` and
 * `headers` values, and `${NAME}` references (see expandReferences) in `env`, `args`, `url` and
 * `headers`. `fromEnv` says, for each value so filled, what was written (the variable's name, or
 * the text with its references): the runtime keys its cache on that, never on the values
 * (secrets), which it only runs with and keeps out of what it says.
 */
function resolveSecrets(server: ServerEntry, ctx: Pick<McpPlanContext, 'env' | 'cwd'>): Resolved {
  const { entry, configName } = server;
  const resolved: Record<string, unknown> = { ...entry };
  const fromEnv: FromEnv = {};
  const secrets: string[] = [];
  const expand = (text: string, field: string) => {
    const expansion = expandReferences(text, field, { env: ctx.env, cwd: ctx.cwd, configName });
    secrets.push(...expansion.secrets);
    return expansion;
  };
  for (const field of ['env', 'headers'] as const) {
    const given = entry[field];
    if (!isRecord(given)) continue;
    const written: [string, string][] = [];
    resolved[field] = Object.fromEntries(
      Object.entries(given).map(([key, value]) => {
        if (isEnvReference(value)) {
          const read = resolveEnvReferences(value, ctx.env, configName, [field, key]);
          if (typeof value.env === 'string') written.push([key, value.env]);
          if (typeof read === 'string') secrets.push(read);
          return [key, read];
        }
        if (typeof value !== 'string') return [key, value];
        const expansion = expand(value, `${field}.${key}`);
        if (expansion.fromEnv) written.push([key, value]);
        return [key, expansion.value];
      }),
    );
    if (written.length > 0) fromEnv[field] = Object.fromEntries(written);
  }
  if (Array.isArray(entry.args)) {
    const written: [string, string][] = [];
    resolved.args = entry.args.map((arg: unknown, index) => {
      if (typeof arg !== 'string') return arg;
      const expansion = expand(arg, `args[${index}]`);
      if (expansion.fromEnv) written.push([String(index), arg]);
      return expansion.value;
    });
    if (written.length > 0) fromEnv.args = Object.fromEntries(written);
  }
  if (typeof entry.url === 'string') {
    const expansion = expand(entry.url, 'url');
    resolved.url = expansion.value;
    if (expansion.fromEnv) fromEnv.url = entry.url;
  }
  return { resolved, fromEnv, secrets };
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
function configFailure(error: unknown, redact: Redact): PluginError {
  const field = (error as { field?: unknown })?.field;
  const message = redact(error instanceof Error ? error.message : describeThrown(error));
  return new PluginError({ phase: 'validate', ...(typeof field === 'string' ? { field } : {}) }, message);
}

/** The state planning a server gives: its tools (from the cache, or listed by the server), or why it failed. */
async function planOne(server: ServerEntry, runtime: MountRuntime, ctx: McpPlanContext, about: About): Promise<PluginState> {
  let secrets: Resolved;
  try {
    secrets = resolveSecrets(server, ctx);
  } catch (error) {
    // An options-phase PluginError naming the field and the variable (never a value).
    return failedState(about, error, undefined, 'startup');
  }
  // The runtime keeps secrets out of what it says; this host does too, for a runtime that does not.
  const redact = redactor(secrets.secrets);
  let config: ResolvedServerConfig;
  try {
    config = runtime.checkServerConfig(secrets.resolved, server.where);
  } catch (error) {
    return failedState(about, configFailure(error, redact), undefined, 'startup');
  }
  const mount = runtime.mountServer(config, {
    cwd: ctx.cwd,
    cacheDir: cacheDir(ctx.cwd),
    fromEnv: secrets.fromEnv,
    secrets: secrets.secrets,
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
      new PluginError({ phase: 'import' }, `could not list its tools: ${redact(describeThrown(error))}`),
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
    resolveSecrets(server, ctx);
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
