import type { ToolAnnotations } from './tool.js';

// An MCP server's entry in `mcpServers` and its state, as host and @toolshed/mcp both speak of
// them: declared here, the package both depend on, so that @toolshed/host's types need no
// @toolshed/mcp installed (an optional peer). @toolshed/mcp/mount re-exports them.

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
