// An MCP server's entry and state are core's (@toolshed/mcp speaks of them too), so host's
// types need no @toolshed/mcp, an optional peer, installed.
import type {
  AnyPlugin,
  AnySchema,
  EnvReference,
  Exposure,
  McpServerEntry,
  McpServerState,
  Plugin,
  PluginPhase,
  RegistryOptions,
  ToolDefinition,
  ToolRegistry,
} from '@toolshed/core';
import type { ResolvedPermissions } from '@toolshed/core/contract';
import type { InferInput } from 'valibot';
import type { Grant } from './isolate/grant.js';

/**
 * Where a plugin came from: handed over in code, named in the config file, found among the
 * project's dependencies, or an MCP server mounted from `mcpServers` (in the config or in code).
 */
export type PluginSource = 'code' | 'config' | 'dependency' | 'mcp';

export type { EnvReference, McpServerEntry, McpServerState, PluginPhase };

/**
 * `loaded`: its tools are registered (its code may still be waiting for the first call, see `imported`).
 * `skipped`: left out because of the error shown: found only by discovery, or an MCP server
 *   that could not be listed (no cached manifest, and it would not start); the others load.
 * `failed`: named by the user and broken.
 */
export type PluginStatus = 'loaded' | 'skipped' | 'failed';

/** Why a plugin failed: the phase, and the tool and field at fault when there is one (read these; do not parse `message`). */
export interface PluginFailure {
  phase: PluginPhase;
  message: string;
  /** The tool at fault (its name in the plugin's code). */
  tool?: string;
  /** The field at fault: an option path (`smtp.password`), a tool field (`input`) or a manifest field (`toolshed.tools`). */
  field?: string;
}

/** A plugin whose package.json peer range for @toolshed/core does not admit the core the host runs with. */
export interface CoreMismatch {
  /** The plugin's `peerDependencies["@toolshed/core"]`. */
  range: string;
  /** The version of @toolshed/core the host runs with. */
  running: string;
}

/** One plugin as the host saw it. Plain data: safe to print or serialise. */
export interface PluginReport {
  name: string;
  version?: string;
  source: PluginSource;
  /** How it was named: the config entry, the dependency name, or the plugin name in code. */
  spec: string;
  /** The package directory or module file, when it came from disk. */
  path?: string;
  /** Tool names as the model sees them (after renames). */
  tools: string[];
  status: PluginStatus;
  /** Whether the plugin's module has been imported; plugins with a static manifest wait for their first call. */
  imported: boolean;
  /** Advice about a plugin that works (no manifest, core peer range); a skipped or failed plugin's cause is `error`. */
  warnings: string[];
  /**
   * What it declares it needs (package.json `"toolshed.permissions"`), values from its options
   * filled in when they could be; none for a plugin without a manifest or handed over in code.
   */
  permissions?: ResolvedPermissions;
  /** Whether it runs isolated: in its own process under the OS sandbox, with only `permissions`. */
  isolated: boolean;
  /** Set when its peer range for @toolshed/core does not admit the running core (also one of `warnings`). */
  coreMismatch?: CoreMismatch;
  error?: PluginFailure;
  /** Set for an MCP server (source `mcp`): how it is reached and where it is now. */
  server?: McpServerReport;
}

export interface McpServerReport {
  transport: 'stdio' | 'http';
  state: McpServerState;
  /** Whether its tools came from the cached manifest (so nothing was started to list them). */
  cached: boolean;
}

/** One entry of `mcpServers` with stdio's fields (see McpServerEntry). */
export type McpStdioServerEntry = Extract<McpServerEntry, { command: string }>;

/** One entry of `mcpServers` with Streamable HTTP's fields (see McpServerEntry). */
export type McpHttpServerEntry = Extract<McpServerEntry, { url: string }>;

/** An entry of the object form, keyed by its name (`name` may be left out, or must equal the key). */
export type McpNamedServerEntry =
  | (Omit<McpStdioServerEntry, 'name'> & { name?: string })
  | (Omit<McpHttpServerEntry, 'name'> & { name?: string });

/**
 * `mcpServers` as a list of entries with `name`, or as an object keyed by name, the way Claude
 * Desktop, Cursor and Claude Code write it (`{"github": {"command": ...}}`).
 */
export type McpServerEntries = McpServerEntry[] | Record<string, McpNamedServerEntry>;

/** Options, with `{"env": "NAME"}` objects standing for environment variables. */
export type PluginOptionsInput = Record<string, unknown>;

/** A plugin named in code or config: a package name or path (or, in code, a plugin object), with options and renames. */
export type PluginEntry<TSpec = string> =
  | TSpec
  | readonly [TSpec, PluginOptionsInput?]
  | { plugin: TSpec; options?: PluginOptionsInput; rename?: Record<string, string>; isolate?: boolean; grant?: Grant };

/**
 * The options a plugin object takes in code, typed from its own `options` schema (what the
 * schema accepts, before defaults). `undefined` for a plugin without options; untyped
 * (`PluginOptionsInput`) for a plugin whose type is not known, such as `AnyPlugin`.
 */
export type PluginOptionsOf<TPlugin> =
  TPlugin extends Plugin<infer TSchema>
    ? 0 extends 1 & TSchema
      ? PluginOptionsInput
      : TSchema extends AnySchema
        ? InferInput<TSchema>
        : undefined
    : PluginOptionsInput;

// Keys the schema does not know become a type error that reads like the host's runtime one.
type NoUnknownOptions<TGiven, TOptions> = TGiven extends object
  ? TOptions extends undefined
    ? TOptions
    : 0 extends 1 & TOptions
      ? TOptions
      : TOptions & { [K in Exclude<keyof TGiven, keyof NonNullable<TOptions>>]: `unknown option "${K & string}"` }
  : TOptions;

// The host validates `options ?? {}`: a plugin needs options when its schema refuses `{}`.
// biome-ignore lint/complexity/noBannedTypes: `{} extends T` asks whether an empty object satisfies the options type
type NeedsOptions<TOptions> = [TOptions] extends [undefined] ? false : {} extends NonNullable<TOptions> ? false : true;

/**
 * One entry of `createHost({plugins})`, its options checked against the plugin's schema: no
 * option of the wrong type, none the schema does not name, and none left out that it requires
 * (a plugin that needs options cannot be handed over bare).
 */
export type CheckedEntry<TEntry> = TEntry extends string
  ? TEntry
  : TEntry extends readonly [infer TPlugin, (infer TGiven)?]
    ? [TPlugin] extends [string]
      ? readonly [TPlugin, PluginOptionsInput?]
      : NeedsOptions<PluginOptionsOf<TPlugin>> extends true
        ? readonly [TPlugin, NoUnknownOptions<TGiven, PluginOptionsOf<TPlugin>>]
        : readonly [TPlugin, NoUnknownOptions<TGiven, PluginOptionsOf<TPlugin>>?]
    : TEntry extends { plugin: infer TPlugin; options?: infer TGiven }
      ? [TPlugin] extends [string]
        ? TEntry
        : NeedsOptions<PluginOptionsOf<TPlugin>> extends true
          ? { plugin: TPlugin; options: NoUnknownOptions<TGiven, PluginOptionsOf<TPlugin>>; rename?: Record<string, string> }
          : { plugin: TPlugin; options?: NoUnknownOptions<TGiven, PluginOptionsOf<TPlugin>>; rename?: Record<string, string> }
      : NeedsOptions<PluginOptionsOf<TEntry>> extends true
        ? readonly [TEntry, PluginOptionsOf<TEntry>]
        : TEntry;

/** Every entry of `createHost({plugins})` checked against its plugin's options schema. */
export type CheckedEntries<TEntries extends readonly unknown[]> = { readonly [K in keyof TEntries]: CheckedEntry<TEntries[K]> };

/** The shape of toolshed.config.json. */
export interface HostConfig {
  plugins?: PluginEntry[];
  /** Rename tools from any plugin: `{"read_file": "fs_read"}`. */
  rename?: Record<string, string>;
  /** Set to false to load only the plugins named here, not those found among the dependencies. */
  discover?: boolean;
  /** Which tool definitions a model is sent up front (see `Exposure` in @toolshed/core); the registry's option wins. */
  exposure?: Exposure;
  /** MCP servers whose tools join the registry beside the plugins' (needs @toolshed/mcp installed). */
  mcpServers?: McpServerEntries;
  /** VS Code's name for `mcpServers` (`.vscode/mcp.json`), object form; give one of the two. */
  servers?: Record<string, McpNamedServerEntry>;
  /** VS Code's prompted inputs: accepted so its file can be pasted, never read (`${input:...}` is refused where used). */
  inputs?: unknown[];
  /**
   * Run every installed plugin isolated (its own process under the OS sandbox, with only the
   * permissions it declares and its entry's `grant` allows); an entry's own `isolate` wins.
   */
  isolate?: boolean;
}

export interface HostOptions {
  /**
   * The project root: where toolshed.config.json, package.json and node_modules are looked up.
   * Default: the nearest folder from process.cwd() upward with a package.json, node_modules or
   * toolshed.config.json (see findProjectRoot). Given, it is used as it is.
   */
  cwd?: string;
  /**
   * Plugins handed over in code. When given, the config file and discovery are off unless
   * `config` / `discover` turn them on: a harness composed in code gets exactly what it names.
   */
  plugins?: readonly PluginEntry<AnyPlugin | string>[];
  /** MCP servers mounted in code; like `plugins`, giving them turns the config file and discovery off unless asked for. */
  mcpServers?: readonly McpServerEntry[] | Readonly<Record<string, McpNamedServerEntry>>;
  /**
   * Start (or connect to) every MCP server once and rewrite its cached manifest, even when
   * one is cached (`toolshed plugins --refresh`). Left out, cached manifests are used as they are.
   */
  refreshServers?: boolean;
  /** A config file path (relative to cwd), a config object, or false for none. Default: toolshed.config.json if present. */
  config?: string | HostConfig | false;
  /** Load plugins found among package.json dependencies/devDependencies. */
  discover?: boolean;
  /** Run every installed plugin isolated (see HostConfig.isolate); wins over the config's. */
  isolate?: boolean;
  /** Renames applied on top of the config's. */
  rename?: Record<string, string>;
  /** Where `{"env": "NAME"}` references are looked up. Default: process.env. */
  env?: Record<string, string | undefined>;
  /** Options for the host's ToolRegistry (approval hook, logger, default timeout). */
  registry?: RegistryOptions;
  /**
   * For a person waiting (the `toolshed` command prints it on stderr): a line when an MCP server's
   * start is taking a while, naming it and saying whether it is its first start (an `npx -y` server
   * may be installing its package) and how long the host waits for it.
   */
  progress?: (line: string) => void;
}

/** What the host knows without running plugin code (for listings). */
export interface Inspection {
  cwd: string;
  /** The config file read, if any. */
  configFile?: string;
  plugins: PluginReport[];
  /** Every registered tool's model-facing definition, in plugin order. */
  tools: ToolDefinition[];
  /** The config file's exposure setting, when it has one. */
  exposure?: Exposure;
  /** Problems not tied to one plugin (e.g. a rename that matches no tool). */
  warnings: string[];
}

export interface Host {
  readonly cwd: string;
  /** Sealed: every plugin's tools are in it. */
  readonly registry: ToolRegistry;
  /** A fresh snapshot of every plugin's report; load failures on first call show up here. */
  readonly plugins: PluginReport[];
  readonly warnings: string[];
  /** Import every plugin whose code is still waiting for its first call, and return the report. */
  loadAll(): Promise<PluginReport[]>;
  /**
   * A mounted MCP server changed its tools while connected (`tools/list_changed`): the listener
   * gets a new sealed registry of every plugin, that server's tools as it lists them now.
   * `registry` keeps the tools it was sealed with. Returns the function that stops listening.
   */
  onRegistryChanged(listener: (registry: ToolRegistry) => void): () => void;
  /**
   * Release what loaded tools hold (pooled connections, open files): calls each tool's `close()` if it
   * has one, and closes every mounted MCP server (a stdio server's process has exited when this resolves).
   */
  close(): Promise<void>;
}
