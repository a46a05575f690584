// The light entry of core: no valibot at import (the host imports this module for `toolshed list`).
import {
  describeThrown,
  isToolError,
  jsonSchemaInput,
  type JsonSchemaProblem,
  type Redact,
  redactDeep,
  redactor,
  ToolError,
  PART_TYPES,
  withParts,
} from '@toolshed/core/contract';
import type { AnyTool, ToolContext, ToolDefinition } from '@toolshed/core';
import type { McpMount, McpServerConfig, McpServerState, MountContext, ToolsChangedListener } from './api.js';
import { cacheFile, configHash, readCache, writeCache } from './cache.js';
import { checkServerConfig, urlCredentials } from './config.js';
import type { Connection } from './connection.js';
import { mountTools, type Mounted, type ServerTool } from './definitions.js';
import { forget, remember, track, untrack } from './lifecycle.js';
import { redactPart } from './redact-part.js';

/** Wait before start attempt n+1 after n failures in a row: at once, then 0.5 s doubling to 30 s. */
export function backoffMs(failures: number): number {
  return failures <= 1 ? 0 : Math.min(30_000, 500 * 2 ** (failures - 2));
}

/** The heavy half (the MCP SDK, ajv), imported when a server first starts or a tool is first validated. */
type Heavy = typeof import('./connection.js') & typeof import('./result.js') & typeof import('./validate.js');
let heavy: Promise<Heavy> | undefined;
function loadHeavy(): Promise<Heavy> {
  // A failed import is not kept: the next start tries again.
  heavy ??= Promise.all([import('./connection.js'), import('./result.js'), import('./validate.js')]).then(
    ([connection, result, validate]) => ({ ...connection, ...result, ...validate }),
    (error: unknown) => {
      heavy = undefined;
      throw error;
    },
  );
  return heavy;
}

/**
 * After a `tools/list_changed`, the tools are listed again at most once in this long; the
 * notifications that arrive meanwhile make one listing, after the last of them. A server may
 * send them as fast as it likes: each listing reads, checks and caches every tool.
 */
export const RELIST_INTERVAL_MS = 1000;

function copy<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

class ServerMount implements McpMount {
  readonly name: string;
  readonly #config: McpServerConfig;
  readonly #ctx: MountContext;
  readonly #file: string;
  #hash: string | undefined;
  #mounted: Mounted | undefined;
  #state: McpServerState = { status: 'idle' };
  #connection: Connection | undefined;
  #connecting: Promise<Connection> | undefined;
  #failures = 0;
  #listeners = new Set<ToolsChangedListener>();
  /** A re-listing asked for by list_changed and not begun yet; the one under way; when the last began. */
  #relistWanted = false;
  #relisting: Promise<void> | undefined;
  #relistedAt = -Infinity;
  #closing: Promise<void> | undefined;
  /** Aborted by close(), so a start under way (a server that hangs at start) gives up at once. */
  readonly #shutdown = new AbortController();
  /** Removes the entry's secrets from everything that leaves the mount (see MountContext.secrets). */
  readonly #redact: Redact;

  constructor(config: McpServerConfig, ctx: MountContext) {
    this.#config = checkServerConfig(config, `MCP server ${JSON.stringify((config as { name?: unknown })?.name)}`);
    this.name = this.#config.name;
    this.#ctx = ctx;
    this.#redact = redactor([...(ctx.secrets ?? []), ...configSecrets(this.#config)]);
    this.#file = cacheFile(ctx.cacheDir, this.name);
    remember(this);
  }

  get #server(): string {
    return `MCP server "${this.name}"`;
  }

  /** What a call gets once close() has begun. */
  #closedError(): ToolError {
    return new ToolError('execution_failed', `${this.#server} is closed (the host is shutting down); its tools cannot run.`);
  }

  #key(): string {
    this.#hash ??= configHash(this.#config, this.#ctx.cwd, this.#ctx.fromEnv);
    return this.#hash;
  }

  #write(tools: ServerTool[]): void {
    try {
      writeCache(this.#file, this.#key(), this.name, tools);
    } catch (error) {
      this.#log(`${this.#server}: could not write its manifest cache ${this.#file}: ${describeThrown(error)}`);
    }
  }

  #log(line: string): void {
    this.#ctx.log?.(this.#redact(line));
  }

  /** A failure as it may leave the mount: its message without the entry's secrets, its kind kept. */
  #clean(error: unknown): unknown {
    if (!(error instanceof Error)) return error;
    const message = this.#redact(error.message);
    if (message === error.message) return error;
    return isToolError(error) ? new ToolError(error.code, message) : new Error(message);
  }

  /** `adopt`: tool() serves these from now on (refresh, or the cache read first); not for list_changed. */
  #use(serverTools: readonly ServerTool[], adopt = true): Mounted {
    const mounted = mountTools(serverTools, this.#config);
    for (const notice of mounted.notices) this.#log(notice);
    if (adopt) this.#mounted = mounted;
    return mounted;
  }

  #definitions(mounted: Mounted): ToolDefinition[] {
    return [...mounted.tools.values()].map((tool) => copy(tool.definition));
  }

  cached(): ToolDefinition[] | undefined {
    const tools = readCache(this.#file, this.#key());
    if (!tools) return undefined;
    return this.#definitions(this.#mounted ?? this.#use(tools));
  }

  notices(): string[] {
    return [...(this.#mounted?.notices ?? [])];
  }

  async refresh(): Promise<ToolDefinition[]> {
    try {
      const connection = await this.#connect();
      return this.#definitions(await this.#list(connection));
    } catch (error) {
      throw this.#clean(error);
    }
  }

  async #list(connection: Connection, adopt = true): Promise<Mounted> {
    let listed: ServerTool[];
    try {
      // A server that echoes its token into a description would put it in the cache and before a model.
      listed = redactDeep(await connection.listTools(), this.#redact);
    } catch (error) {
      const { describeError } = await loadHeavy();
      throw new Error(`${this.#server} could not list its tools: ${connection.fault() ?? describeError(error)}`);
    }
    // A schema ajv cannot compile could never check a call: such a tool is left out, and said so.
    // A compiler of this check's own, dropped with everything it compiled once the check is done.
    const compileSchema = (await loadHeavy()).schemaCompiler();
    const usable = listed.map((tool): ServerTool => {
      // A server's own "toolshed/unusable" is not taken: only the mount's check says so.
      const { 'toolshed/unusable': _claimed, ...listedTool } = tool;
      try {
        if (tool.inputSchema && typeof tool.inputSchema === 'object') compileSchema(tool.inputSchema);
        if (tool.outputSchema && typeof tool.outputSchema === 'object') compileSchema(tool.outputSchema);
        return listedTool;
      } catch (error) {
        return {
          ...listedTool,
          'toolshed/unusable': `its schema cannot be compiled (${describeThrown(error)})`,
        };
      }
    });
    this.#failures = 0;
    const mounted = this.#use(usable, adopt);
    this.#write(usable);
    return mounted;
  }

  tool(name: string): AnyTool {
    const mounted = this.#mounted ?? (this.cached() ? this.#mounted : undefined);
    const entry = mounted?.tools.get(name);
    if (!entry) {
      const known = mounted ? [...mounted.tools.keys()].join(', ') || 'none' : 'unknown until refresh() or a cached manifest';
      throw new Error(`${this.#server} has no tool "${name}"; its tools: ${known}.`);
    }
    const { definition, serverName, listed } = entry;
    return {
      name: definition.name,
      description: definition.description,
      parts: PART_TYPES,
      input: jsonSchemaInput(definition.inputSchema, validator(listed.inputSchema, this.#server, 'input', mounted!)),
      run: (input: unknown, ctx: ToolContext) =>
        this.#call(definition.name, serverName, input, ctx).catch((error: unknown) => {
          throw this.#clean(error);
        }),
      ...(definition.outputSchema
        ? { output: jsonSchemaInput(definition.outputSchema, validator(listed.outputSchema!, this.#server, 'output', mounted!)) }
        : {}),
      ...(definition.annotations ? { annotations: { ...definition.annotations } } : {}),
      ...(this.#config.timeoutMs !== undefined ? { timeoutMs: this.#config.timeoutMs } : {}),
    };
  }

  async #call(tool: string, serverName: string, input: unknown, ctx: ToolContext): Promise<unknown> {
    const connection = await this.#connect();
    const h = await loadHeavy();
    let result;
    try {
      result = await connection.callTool(serverName, input, ctx.signal, (progress) => ctx.report(progress), ctx.callId);
    } catch (error) {
      if (ctx.signal.aborted) throw error; // the registry has already reported the timeout or the abort
      const fault = connection.fault();
      if (h.isConnectionClosed(error) || fault !== undefined) {
        throw new ToolError(
          'execution_failed',
          `${tool} failed: ${this.#server} ${fault ?? 'closed the connection'} during the call; it may or may not have taken effect. ${'url' in this.#config ? 'It is connected again' : 'The server is restarted'} on the next call.`,
        );
      }
      if (h.isTransportFailure(error)) {
        const reason = `could not be reached during the call (${h.describeError(error).slice(0, 300)})`;
        this.#drop(connection, reason);
        throw new ToolError('execution_failed', `${tool} failed: ${this.#server} ${reason}. It is connected again on the next call.`);
      }
      const sent = h.serverError(error);
      if (sent)
        throw new ToolError('execution_failed', `${tool} failed: ${this.#server} answered with error ${sent.code}: ${sent.message}`);
      throw new ToolError(
        'execution_failed',
        `${tool} failed: ${this.#server} answered tools/call out of spec (${h.describeError(error).slice(0, 500)}).`,
      );
    }
    this.#failures = 0;
    // toOutput first: it refuses an answer nested too deeply to walk, which redacting walks.
    const { output, parts } = h.toOutput(result, tool, this.name);
    const redacted = redactDeep(output, this.#redact);
    // Base64 is never searched for secrets (a match would only corrupt the bytes); every text field is.
    return parts.length === 0
      ? redacted
      : withParts(
          redacted,
          parts.map((part) => redactPart(part, this.#redact)),
        );
  }

  #connect(): Promise<Connection> {
    if (this.#state.status === 'closed') {
      return Promise.reject(this.#closedError());
    }
    // A connection stopped for a fault (garbage on stdout) is closing but may not have said so yet.
    const fault = this.#connection?.fault();
    if (fault !== undefined) this.#drop(this.#connection!, fault);
    if (this.#connection) return Promise.resolve(this.#connection);
    if (this.#connecting) return this.#connecting;
    const state = this.#state;
    if (state.status === 'failed' && state.retryAt !== undefined && state.retryAt > Date.now()) {
      const seconds = Math.max(1, Math.ceil((state.retryAt - Date.now()) / 1000));
      return Promise.reject(new ToolError('execution_failed', `${state.message} It is tried again in ${seconds} s; retry then.`));
    }
    this.#connecting = this.#start().finally(() => {
      this.#connecting = undefined;
    });
    return this.#connecting;
  }

  async #start(): Promise<Connection> {
    const shutdown = this.#shutdown;
    this.#state = { status: 'starting', attempt: this.#failures + 1 };
    let connection: Connection;
    let h: Heavy;
    try {
      h = await loadHeavy();
    } catch (error) {
      // Not the server's fault: the state stays as it was, and the next call tries again.
      this.#state = { status: 'idle' };
      throw new ToolError(
        'execution_failed',
        `${this.#server} was not started: the MCP client could not be loaded (${describeThrown(error)}); reinstall @toolshed/mcp.`,
      );
    }
    // A stdio entry with no tools cached: the server may never have run here (`npx -y` installs first).
    const firstStart = 'command' in this.#config && this.#mounted === undefined && readCache(this.#file, this.#key()) === undefined;
    const slow = this.#sayWhenSlow(firstStart, h.startTimeoutOf(this.#config, firstStart), h.SLOW_START_MS);
    try {
      connection = await h.connect(
        this.#config,
        this.#ctx.cwd,
        {
          closed: (reason) => this.#lost(connection, reason),
          toolsChanged: () => void this.#toolsChanged(connection),
          log: (line) => this.#log(line),
        },
        shutdown.signal,
        firstStart,
      );
    } catch (error) {
      if (shutdown.signal.aborted) throw this.#closedError();
      const message = this.#redact(`${this.#server} ${describeThrown(error)}.`);
      this.#fail(message);
      throw new ToolError('execution_failed', message);
    } finally {
      clearTimeout(slow);
    }
    if ((this.#state as McpServerState).status === 'closed') {
      await connection.close();
      throw this.#closedError();
    }
    this.#connection = connection;
    // state() copies it through JSON, which leaves out a pid that is undefined (an HTTP server's).
    this.#state = { status: 'connected', since: Date.now(), pid: connection.pid };
    track(this);
    return connection;
  }

  /** Tells MountContext.progress, once, when this start has run `afterMs`. */
  #sayWhenSlow(firstStart: boolean, timeoutMs: number, afterMs: number): ReturnType<typeof setTimeout> | undefined {
    const progress = this.#ctx.progress;
    if (!progress) return undefined;
    const why = firstStart ? ' (its first start here, no cached tools yet: a server run by `npx -y` may be installing its package)' : '';
    return setTimeout(
      () => progress(`${this.#server} is still starting${why}; waiting up to ${Math.round(timeoutMs / 1000)} s, its "startTimeoutMs".`),
      afterMs,
    );
  }

  #fail(message: string): void {
    this.#failures += 1;
    this.#state = {
      status: 'failed',
      message: this.#redact(message),
      attempts: this.#failures,
      retryAt: Date.now() + backoffMs(this.#failures),
    };
    this.#log(message);
  }

  /** Give up a connection that still looks open but no longer works. */
  #drop(connection: Connection, reason: string): void {
    if (this.#connection !== connection) return;
    this.#lost(connection, reason);
    void connection.close();
  }

  #lost(connection: Connection, reason: string): void {
    if (this.#connection !== connection) return;
    this.#connection = undefined;
    untrack(this);
    if (this.#state.status === 'closed') return;
    this.#fail(`${this.#server} ${reason}.`);
  }

  /** list_changed: coalesced and rate-limited (see RELIST_INTERVAL_MS). */
  #toolsChanged(connection: Connection): void {
    if (this.#connection !== connection) return;
    this.#relistWanted = true;
    this.#relisting ??= this.#relist(connection).finally(() => {
      this.#relisting = undefined;
    });
  }

  async #relist(connection: Connection): Promise<void> {
    while (this.#relistWanted && this.#connection === connection) {
      const wait = this.#relistedAt + RELIST_INTERVAL_MS - Date.now();
      // Unref'd: a pending re-listing does not keep the host alive.
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait).unref());
      if (this.#connection !== connection) return;
      // Cleared before listing: a change the server makes while this listing runs lists again.
      this.#relistWanted = false;
      this.#relistedAt = Date.now();
      await this.#relistOnce(connection);
    }
  }

  async #relistOnce(connection: Connection): Promise<void> {
    let mounted: Mounted;
    try {
      // A registry is sealed with the tools a model was shown: tool() keeps serving those,
      // and the new list waits in the cache for the next start (or refresh()).
      mounted = await this.#list(connection, false);
    } catch (error) {
      this.#log(`${this.#server} said its tools changed, but listing them failed: ${describeThrown(error)}`);
      return;
    }
    this.#log(`${this.#server}: its tools changed; the manifest cache is rewritten.`);
    for (const listener of this.#listeners) {
      try {
        listener(this.#definitions(mounted));
      } catch (error) {
        this.#log(`${this.#server}: a tools-changed listener threw: ${describeThrown(error)}`);
      }
    }
  }

  state(): McpServerState {
    return copy(this.#state);
  }

  onToolsChanged(listener: ToolsChangedListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  killNow(): void {
    this.#connection?.killNow();
  }

  close(): Promise<void> {
    this.#closing ??= (async () => {
      this.#state = { status: 'closed' };
      this.#shutdown.abort();
      forget(this);
      const connecting = this.#connecting;
      if (connecting) await connecting.catch(() => undefined);
      const connection = this.#connection;
      this.#connection = undefined;
      untrack(this);
      await connection?.close();
    })();
    return this.#closing;
  }
}

/**
 * An output schema checked by the mount's ajv (loaded on the first check) against a JSON Schema of
 * type "object" from somewhere other than a server's listing: an isolated plugin's manifest, which
 * the host reads before any of the plugin's code runs. `source` names it in a fault.
 */
export function jsonSchemaOutput(schema: { [key: string]: unknown }, source: string): NonNullable<AnyTool['output']> {
  return jsonSchemaInput(schema, validator(schema, source, 'output', {}));
}

/** `source` names where the schema came from (`MCP server "files"`), for a schema that does not compile. */
function validator(schema: { [key: string]: unknown }, source: string, which: 'input' | 'output', schemas: Pick<Mounted, 'compile'>) {
  let compiled: import('ajv').ValidateFunction | undefined;
  return async (value: unknown): Promise<JsonSchemaProblem[]> => {
    const { schemaCompiler, toProblems } = await loadHeavy();
    try {
      compiled ??= (schemas.compile ??= schemaCompiler())(schema);
    } catch (error) {
      return [
        {
          path: [],
          kind: 'check',
          message: `cannot be checked: ${source} gave this tool an ${which} schema that does not compile (${describeThrown(error)})`,
        },
      ];
    }
    let valid: boolean;
    try {
      valid = compiled(value) as boolean;
    } catch (error) {
      // ajv recurses with the value: input nested some thousands deep (a recursive $ref lets it) overflows the stack.
      const reason = error instanceof RangeError ? 'it is nested too deeply to check' : `the check failed (${String(error)})`;
      return [{ path: [], kind: 'check', message: `cannot be checked: ${reason}; send a flatter ${which}` }];
    }
    return valid ? [] : toProblems(compiled.errors ?? [], value);
  };
}

/**
 * The secrets an entry holds whoever resolved it: each header value and the credentials in it
 * (`Bearer <token>`: a message may quote the token alone), and the URL's user and password
 * (alone, and as `user:pass`, which `Basic` sends in base64).
 */
function configSecrets(config: McpServerConfig): string[] {
  if ('command' in config) return [];
  const secrets = Object.values(config.headers ?? {}).flatMap((value) => [value, value.replace(/^\S+\s+/, '')]);
  const credentials = urlCredentials(new URL(config.url));
  if (credentials) secrets.push(credentials.user, credentials.password, `${credentials.user}:${credentials.password}`);
  return secrets;
}

/** A mount for one server; starts nothing until a tool runs or `refresh()` is called. */
export function mountServer(config: McpServerConfig, ctx: MountContext): McpMount {
  return new ServerMount(config, ctx);
}
