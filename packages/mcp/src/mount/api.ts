/**
 * The public shape of `@toolshed/mcp/mount`: one MCP server mounted as a source
 * of Toolshed tools. This entry is light: importing it loads neither the MCP SDK
 * nor ajv; they load when a server is first started or a tool first validated.
 *
 * Stability: this file only grows (new optional fields, new members); nothing in
 * it is renamed or removed.
 */
import type { AnyTool, McpServerState, ToolDefinition } from '@toolshed/core';

export type {
  EnvReference,
  HttpServerConfig,
  McpServerConfig,
  McpServerEntry,
  McpServerState,
  StdioServerConfig,
  ToolMarks,
} from '@toolshed/core';

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
