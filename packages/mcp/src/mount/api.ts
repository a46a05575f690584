/**
 * The public shape of `@toolshed/mcp/mount`: one MCP server mounted as a source
 * of Toolshed tools. This entry is light: importing it loads neither the MCP SDK
 * nor ajv; they load when a server is first started or a tool first validated.
 *
 * Stability: this file only grows (new optional fields, new members); nothing in
 * it is renamed or removed.
 */
import type { AnyTool, ToolAnnotations, ToolDefinition } from '@toolshed/core';

/** Marks for a server's tools, in Toolshed's words (`readOnly`, not `readOnlyHint`). */
export type ToolMarks = ToolAnnotations;

interface CommonServerConfig {
  /** The server's name in reports, states and outcome messages (`^[a-zA-Z0-9_-]{1,64}$`). */
  name: string;
  /**
   * Only these tools, by the server's own tool names (before `rename`). Left out,
   * every tool. A name listed here that the server does not offer is reported.
   */
  include?: string[];
  /** Never these tools, by the server's own tool names. */
  exclude?: string[];
  /**
   * Toolshed names for server tools: `{ "read_text_file": "fs_read" }`. Keys are
   * the server's names; a tool not listed keeps its own name.
   */
  rename?: Record<string, string>;
  /**
   * The server's tools (by its own names, before `rename`) that you trust to be read-only:
   * they are mounted `readOnly`, not destructive and not open-world, so they run without
   * approval. Every other tool is destructive and open-world whatever the server's hints say
   * (MCP: a client must treat a server's annotations as untrusted). A name the server does not
   * offer is reported in `notices()`.
   */
  readOnlyTools?: string[];
  /**
   * Marks in your words, keyed by the server's tool name, or `"*"` for every tool of this
   * server (a tool's own key wins over `"*"`). They win over `readOnlyTools` and the defaults.
   */
  annotations?: Record<string, ToolMarks>;
  /** Default timeout of a call to this server's tools (the registry's applies when left out). */
  timeoutMs?: number;
  /**
   * How long the server may take to start (or accept the connection) and answer
   * `initialize` and `tools/list`, in ms; past it the start counts as failed. Default 30,000,
   * or 120,000 for a stdio server's first start (no cached tools for this entry yet: a server run
   * by `npx -y` may be installing its package).
   */
  startTimeoutMs?: number;
}

/** `{"env": "NAME"}`: the value of an environment variable, read when the host starts. */
export interface EnvReference {
  env: string;
}

/**
 * A server started as a child process, speaking MCP over its stdin/stdout. `Value` is what an
 * `env` value may be: a string once the host has resolved the entry (what `checkServerConfig`
 * takes), or also an `EnvReference` in an entry as written (see McpServerEntry).
 */
export interface StdioServerConfig<Value = string> extends CommonServerConfig {
  /** The program to run, looked up on PATH when not a path. */
  command: string;
  /** As other clients write it; with `command`, only `"stdio"`. */
  type?: 'stdio';
  /** `${NAME}`, `${NAME:-default}`, `${env:NAME}`, `${workspaceFolder}` and `${userHome}` are expanded in each by the host. */
  args?: string[];
  /**
   * The child's only environment besides what it needs to run (PATH, HOME, ...,
   * the MCP SDK's `getDefaultEnvironment()`): the host's own environment is not passed on.
   * Written as text (with `${NAME}` references, as in `args`) or `{"env": "NAME"}`.
   */
  env?: Record<string, Value>;
  /** Working directory of the child, relative to the mount's `cwd` (the project root). Defaults to it. */
  cwd?: string;
}

/** A server reached over MCP's Streamable HTTP transport (or the older HTTP+SSE one). */
export interface HttpServerConfig<Value = string> extends CommonServerConfig {
  /** `http:` or `https:` URL of the server's MCP endpoint, with `${NAME}` references as in `args`. */
  url: string;
  /** As other clients write it: `"http"` (or `"streamable-http"`) or `"sse"`, the same as `transport`. */
  type?: 'http' | 'streamable-http' | 'streamableHttp' | 'sse';
  /**
   * Sent with every request (e.g. `Authorization`), never written to the cache; written as text
   * (`"Bearer ${TOKEN}"`) or `{"env": "NAME"}`. Each value is one line: a line break or other
   * control character is refused when checked.
   */
  headers?: Record<string, Value>;
  /**
   * `"sse"`: the HTTP+SSE transport of MCP before 2025-03-26, for servers that offer only that.
   * Left out (or `"http"`), Streamable HTTP. Credentials in the URL (`https://user:pass@host/`)
   * are sent as `Authorization: Basic` (unless `headers` has one), never in the URL.
   */
  transport?: 'http' | 'sse';
}

/** A checked entry, as a mount takes it: discriminated by `command` (stdio) versus `url` (HTTP); exactly one is present. */
export type McpServerConfig = StdioServerConfig | HttpServerConfig;

/**
 * One entry of `mcpServers` as written, in toolshed.config.json or `createHost({mcpServers})`:
 * `env` and `headers` values may be `{"env": "NAME"}`, which the host resolves (with the
 * `${NAME}` references) before `checkServerConfig`.
 */
export type McpServerEntry = StdioServerConfig<string | EnvReference> | HttpServerConfig<string | EnvReference>;

/** Where a mount lives. */
export interface MountContext {
  /** The project directory: a stdio server's relative `cwd` resolves from here. */
  cwd: string;
  /** Directory of manifest cache files, one per server (e.g. `<project>/node_modules/.cache/toolshed/mcp`). */
  cacheDir: string;
  /**
   * Receives the server's stderr lines and the mount's notices (restarts, tools
   * changed). Left out, a server's stderr is discarded.
   */
  log?: (line: string) => void;
  /**
   * For a person waiting: called once when a server's start is taking a while, with a line naming
   * the server, whether it is its first start (no cached tools: `npx -y` may be installing its
   * package) and how long the mount waits. Left out, nothing is said.
   */
  progress?: (line: string) => void;
  /**
   * The `env` and `headers` entries the host filled in from `{"env": NAME}`, by key, with the
   * variable's name. The cache key takes the name for these, never the value: nothing derived
   * from a secret, not even a hash someone could test guesses against, is written to the cache.
   * Left out, every value enters the key (hashed).
   */
  fromEnv?: FromEnv;
  /**
   * Values the host read from the environment for this entry (`{"env": NAME}`, `${NAME}`). The
   * mount removes each, in every spelling (see `redactor` in `@toolshed/core/contract`), from what
   * leaves it: outcomes, its state, log lines (the server's stderr too), the cache,
   * and the server's results and tool definitions. Header values and URL credentials are
   * removed whether given here or not.
   */
  secrets?: readonly string[];
}

/**
 * What of an entry was read from the environment, as written: keys of `env` and `headers`, each
 * with the variable's name (`{"env": NAME}`) or the value as written (`"Bearer ${TOKEN}"`);
 * indexes of `args` the same way; and `url` as written when it names a variable.
 */
export interface FromEnv {
  env?: Record<string, string>;
  headers?: Record<string, string>;
  args?: Record<string, string>;
  url?: string;
}

/** Where a server is, as a discriminated union a host can show (`toolshed plugins`). */
export type McpServerState =
  /** Not started (or not connected) in this process. */
  | { status: 'idle' }
  /** Spawning or connecting; `attempt` counts from 1 since the last success. */
  | { status: 'starting'; attempt: number }
  /** Connected; `pid` for a stdio child. */
  | { status: 'connected'; since: number; pid?: number }
  /**
   * The last start failed or the server went away. `attempts` failed starts in a row;
   * the next call after `retryAt` (epoch ms) tries again; calls before then fail at
   * once with `message`.
   */
  | { status: 'failed'; message: string; attempts: number; retryAt?: number }
  /** `close()` was called; calls fail and nothing restarts. */
  | { status: 'closed' };

/** Called with the new definitions after the server says its tool list changed. */
export type ToolsChangedListener = (definitions: ToolDefinition[]) => void;

/** One MCP server as a source of Toolshed tools. */
export interface McpMount {
  /** The config's `name`. */
  readonly name: string;
  /**
   * The definitions from the cache file whose key is this config's hash (include,
   * exclude, rename and marks applied). Undefined when there is no such file, it is
   * torn, or it was written for another config. Starts no server and loads no SDK.
   */
  cached(): ToolDefinition[] | undefined;
  /** Starts or connects, lists the server's tools, rewrites the cache and returns the definitions. */
  refresh(): Promise<ToolDefinition[]>;
  /**
   * What the last `cached()` or `refresh()` left out and why, one line each naming the server and
   * the tool (a name model APIs refuse, a schema out of spec or that does not compile, a name in
   * `include` or `readOnlyTools` the server does not offer), and one line naming the tools the
   * server calls read-only that still need approval (its hints are not trusted). Read from the
   * cache as well, so a start that starts nothing says it too.
   */
  notices(): string[];
  /**
   * A core Tool for a Toolshed name (after rename), from the latest definitions
   * (`refresh()` or the cache). Its input is validated against the server's JSON
   * Schema (ajv) before anything is sent; `run` starts the server if needed and
   * sends `tools/call`. Throws when the name is not one of this mount's tools.
   */
  tool(name: string): AnyTool;
  state(): McpServerState;
  /**
   * `notifications/tools/list_changed` while connected: the tools are listed again (at once, then
   * at most once a second however many notifications come), the cache is rewritten, then
   * listeners run. `tool()` keeps serving the definitions it had (a sealed registry keeps the tools a model
   * was shown) until `refresh()` is called.
   */
  onToolsChanged(listener: ToolsChangedListener): () => void;
  /** Ends the connection and the child process (waiting for it to exit); idempotent. */
  close(): Promise<void>;
}

/**
 * The entry's functions (implemented in this folder, exported from `@toolshed/mcp/mount`):
 *
 * `checkServerConfig(value, where)`: checks one server entry (from `toolshed.config.json`
 * or `createHost`) and returns it typed, or throws a `TypeError` naming `where` and the
 * field, e.g. `toolshed.config.json mcpServers[1] "files": "args" must be an array of strings`.
 *
 * `mountServer(config, ctx)`: a mount for a checked config; starts nothing until a
 * tool runs or `refresh()` is called.
 *
 * `closeAllMounts()`: closes every open mount of this process (the entry also does so
 * on SIGINT/SIGTERM and when the process exits).
 */
export type CheckServerConfig = (value: unknown, where: string) => McpServerConfig;
export type MountServer = (config: McpServerConfig, ctx: MountContext) => McpMount;
export type CloseAllMounts = () => Promise<void>;
