// The heavy half of a mount, imported when a server is first started: the MCP SDK lives here.
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { STDIO_DEFAULT_MAX_BUFFER_SIZE } from '@modelcontextprotocol/sdk/shared/stdio.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, McpError, ResultSchema, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Progress } from '@toolshed/core';
import type { McpServerConfig } from './api.js';
import { safeUrl, urlCredentials } from './config.js';
import { boundedFetch } from './bounded-fetch.js';
import { isServerTool, type ServerTool } from './definitions.js';
import { GUARD_SOURCE } from './guard.js';
import type { CallResult } from './result.js';

// @toolshed/providers' MCP_CALL_ID_META (what serveStdio reads), written here so the mount loads no adapter.
const CALL_ID_META = 'toolshed/callId';

/** How long a server may take to answer `initialize` (and `tools/list`) unless its config says otherwise. */
export const START_TIMEOUT_MS = 30_000;
/**
 * The same for a first start (no cached tools for the entry yet): a server run by `npx -y` on a
 * cold npm cache installs its package first, which can take far longer than a start.
 */
export const FIRST_START_TIMEOUT_MS = 120_000;
/** How long a start runs before the mount says it is waiting (MountContext.progress). */
export const SLOW_START_MS = 5_000;
// The registry owns call timeouts (through the call's signal); the SDK's own 60 s default would cut in first.
const NO_SDK_TIMEOUT = 2_147_483_647;
const STDERR_LINES = 10;
const MAX_PAGES = 100;
/**
 * The most one message from a server may hold, on every transport: the SDK's stdio transport
 * holds this much of one line, and the HTTP transport is given a fetch that counts each body.
 */
export const MAX_MESSAGE_BYTES = STDIO_DEFAULT_MAX_BUFFER_SIZE;

function mebibytes(bytes: number): string {
  return `${Math.round(bytes / (1024 * 1024))} MiB`;
}

export interface ConnectionEvents {
  /** The connection ended without close(): the child exited, the stream broke, or the server wrote garbage. */
  closed(reason: string): void;
  toolsChanged(): void;
  log(line: string): void;
}

export interface Connection {
  readonly pid: number | undefined;
  listTools(): Promise<ServerTool[]>;
  /** `callId` goes in `_meta["toolshed/callId"]`, so a server that keeps a ledger (send_email, isolated) answers a retry from it. */
  callTool(name: string, input: unknown, signal: AbortSignal, report: (progress: Progress) => void, callId: string): Promise<CallResult>;
  /** What ended the connection, when a fault did. */
  fault(): string | undefined;
  /** Signal the child at once (process exit, signals); no waiting. */
  killNow(): void;
  close(): Promise<void>;
}

export function describeError(error: unknown): string {
  // Only the status of an HTTP refusal: its body is the server's, and servers echo the headers
  // they were sent (a token from "headers") into it.
  if (error instanceof StreamableHTTPError && (error.code ?? 0) > 0) {
    const advice = error.code === 401 || error.code === 403 ? '; check the credentials in its "headers"' : '';
    return `HTTP ${error.code}${advice}`;
  }
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause;
    const code = typeof cause === 'object' && cause !== null ? (cause as { code?: unknown }).code : undefined;
    return `${error.message}${typeof code === 'string' ? ` (${code})` : ''}`;
  }
  return String(error);
}

/** A stdout line that is not JSON, or JSON that is no JSON-RPC message: the transport parses it and fails. */
function isGarbage(error: unknown): boolean {
  return error instanceof SyntaxError || (error instanceof Error && error.name === 'ZodError');
}

/**
 * The SDK's stdio transport holds at most 10 MB of one unfinished line (then drops it and
 * closes); its error is recognised by its words, as it has no class of its own.
 */
function oversizedLine(error: unknown): string | undefined {
  const match = error instanceof Error ? /ReadBuffer exceeded maximum size of (\d+) bytes/.exec(error.message) : null;
  return match ? mebibytes(Number(match[1])) : undefined;
}

/**
 * Runs `task` with an abort signal of its own that follows `signal`: the SDK leaves its abort
 * listener on the signal it is given, so each request gets one that is dropped with it.
 */
async function withOwnSignal<T>(signal: AbortSignal | undefined, task: (own: AbortSignal) => Promise<T>): Promise<T> {
  const own = new AbortController();
  const forward = () => own.abort(signal?.reason);
  if (signal?.aborted) forward();
  else signal?.addEventListener('abort', forward, { once: true });
  try {
    return await task(own.signal);
  } finally {
    signal?.removeEventListener('abort', forward);
  }
}

/** The entry's `startTimeoutMs`, else the default for a first start or a later one. */
export function startTimeoutOf(config: McpServerConfig, firstStart: boolean): number {
  return config.startTimeoutMs ?? (firstStart ? FIRST_START_TIMEOUT_MS : START_TIMEOUT_MS);
}

/**
 * fetch refuses a URL with credentials (and its error quotes the URL): they go as
 * `Authorization: Basic`, as curl sends them, unless the entry gives its own Authorization.
 */
export function httpTarget(given: string, headers: Record<string, string> = {}): { url: URL; headers: Record<string, string> } {
  const url = new URL(given);
  const out = { ...headers };
  const credentials = urlCredentials(url);
  if (credentials) {
    const { user, password } = credentials;
    url.username = '';
    url.password = '';
    if (!Object.keys(out).some((name) => name.toLowerCase() === 'authorization')) {
      out.Authorization = `Basic ${Buffer.from(`${user}:${password}`, 'utf8').toString('base64')}`;
    }
  }
  return { url, headers: out };
}

/** `signal` gives up a start under way (the mount was closed): the child is ended at once. */
export async function connect(
  config: McpServerConfig,
  cwd: string,
  events: ConnectionEvents,
  signal?: AbortSignal,
  firstStart = false,
): Promise<Connection> {
  const startTimeout = startTimeoutOf(config, firstStart);
  const stderrTail: string[] = [];
  let fault: string | undefined;
  let closing = false;
  let transport: Transport;
  let stdio: StdioClientTransport | undefined;
  // Set once the client exists; a body can only overflow after connect() has begun.
  let stop = (_reason: string) => {};
  if ('command' in config) {
    const dir = resolve(cwd, config.cwd ?? '.');
    // Checked here: a missing directory would otherwise read as "spawn node ENOENT".
    if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) {
      throw new Error(`could not start: its working directory ${dir} (from "cwd") is not a directory`);
    }
    stdio = new StdioClientTransport({
      command: process.execPath,
      args: ['-e', GUARD_SOURCE, '--', config.command, ...(config.args ?? [])],
      // The SDK adds its getDefaultEnvironment() (PATH, HOME, ...) to this and nothing else.
      env: { ...config.env },
      cwd: dir,
      stderr: 'pipe',
    });
    let partial = '';
    stdio.stderr?.on('data', (chunk: Buffer) => {
      const lines = (partial + chunk.toString('utf8')).split('\n');
      partial = lines.pop() ?? '';
      if (partial.length > 2000) partial = partial.slice(0, 2000);
      for (const line of lines) {
        if (line.trim() === '') continue;
        stderrTail.push(line.length > 500 ? `${line.slice(0, 500)}...` : line);
        if (stderrTail.length > STDERR_LINES) stderrTail.shift();
        events.log(`[mcp ${config.name}] ${line}`);
      }
    });
    transport = stdio;
  } else {
    const { url, headers } = httpTarget(config.url, config.headers);
    const options = {
      requestInit: { headers },
      fetch: boundedFetch(MAX_MESSAGE_BYTES, (cap) =>
        stop(`sent a message of over ${mebibytes(cap)} (the most one message may hold); it was disconnected`),
      ),
    };
    transport = config.transport === 'sse' ? new SSEClientTransport(url, options) : new StreamableHTTPClientTransport(url, options);
  }
  const signalChild = () => {
    const pid = stdio?.pid;
    if (pid === undefined || pid === null) return;
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      // Already gone.
    }
  };
  const lastWords = () => (stderrTail.length > 0 ? `; its last words on stderr: ${stderrTail.slice(-3).join(' | ')}` : '');
  const client = new Client({ name: 'toolshed', version: '1.0.0' }, { capabilities: {} });
  // A server that breaks the framing or the cap cannot be trusted with the next message: it is
  // stopped at once, and every request in flight fails with the reason.
  stop = (reason: string) => {
    if (closing || fault !== undefined) return;
    fault = reason;
    events.log(`[mcp ${config.name}] ${fault}`);
    signalChild();
    void client.close().catch(() => {});
  };
  client.onerror = (error) => {
    if (closing || fault !== undefined) return;
    const oversized = oversizedLine(error);
    if (oversized !== undefined) {
      stop(`wrote a message of over ${oversized} to its stdout (a line without an end, or an answer too large to take); it was stopped`);
    } else if (isGarbage(error)) {
      stop(
        `wrote something that is not an MCP message to its stdout (${describeError(error).slice(0, 200)}); a stdio server may write only MCP messages there (logs go to stderr)`,
      );
    } else events.log(`[mcp ${config.name}] ${describeError(error)}`);
  };
  let connected = false;
  client.onclose = () => {
    // Before the handshake is done, connect() itself reports why it failed.
    if (closing || !connected) return;
    fault ??= stdio ? `exited${lastWords()}` : 'closed the connection';
    events.closed(fault);
  };
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => events.toolsChanged());
  try {
    // With a signal of its own, or the SDK would send notifications/cancelled for the
    // long-finished initialize when `signal` fires.
    await withOwnSignal(signal, (own) => client.connect(transport, { timeout: startTimeout, signal: own }));
  } catch (error) {
    closing = true;
    signalChild();
    await client.close().catch(() => {});
    const where = stdio ? '' : ` at ${safeUrl((config as { url: string }).url)}`;
    const why =
      fault ??
      (error instanceof McpError && error.code === ErrorCode.ConnectionClosed && stdio
        ? 'its process exited before it answered'
        : error instanceof McpError && error.code === ErrorCode.RequestTimeout
          ? `it did not answer initialize within ${startTimeout} ms (raise "startTimeoutMs" if it is only slow)`
          : describeError(error));
    throw new Error(`could not ${stdio ? 'start' : 'connect'}${where}: ${why}${lastWords()}`);
  }
  connected = true;
  return {
    pid: stdio?.pid ?? undefined,
    async listTools() {
      const tools: ServerTool[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < MAX_PAGES; page++) {
        // Read loosely, not with client.listTools(): its schema fails the whole list for one tool out
        // of spec (a server's other tools would be lost with it), and it compiles output schemas
        // for the SDK's own check with JavaScript's backtracking regexps. Each tool is judged
        // by mountTools() instead, and outputs are checked by the mount (RE2).
        const result = await client.request({ method: 'tools/list', params: cursor === undefined ? {} : { cursor } }, ResultSchema, {
          timeout: startTimeout,
        });
        const listed = (result as { tools?: unknown }).tools;
        if (!Array.isArray(listed)) throw new Error(`its tools/list answer has no "tools" list (out of spec)`);
        for (const [index, tool] of listed.entries()) {
          if (isServerTool(tool)) tools.push(tool);
          else
            events.log(
              `MCP server "${config.name}": tools/list entry ${index} is left out: it is not a tool with a string "name" (out of spec).`,
            );
        }
        const next = (result as { nextCursor?: unknown }).nextCursor;
        if (typeof next !== 'string') break;
        cursor = next;
      }
      return tools;
    },
    callTool(name, input, signal, report, callId) {
      // A signal of its own per call: a registry hands every call without a timeout the same never-aborting one.
      return withOwnSignal(signal, async (own) => {
        const params = { name, arguments: input as Record<string, unknown>, _meta: { [CALL_ID_META]: callId } };
        return (await client.callTool(params, undefined, {
          signal: own,
          timeout: NO_SDK_TIMEOUT,
          onprogress: (progress) => {
            const out: Progress = { progress: progress.progress };
            if (progress.total !== undefined) out.total = progress.total;
            if (progress.message !== undefined) out.message = progress.message;
            report(out);
          },
        })) as CallResult;
      });
    },
    fault: () => fault,
    killNow() {
      closing = true;
      signalChild();
    },
    async close() {
      closing = true;
      signalChild();
      await client.close().catch(() => {});
    },
  };
}

/**
 * Whether a request failed in the transport rather than in the server's answer: the HTTP
 * server is gone or refused the request (its session expired, it restarted). The
 * connection is then dropped, so the next call connects again.
 */
export function isTransportFailure(error: unknown): boolean {
  return error instanceof StreamableHTTPError || (error instanceof TypeError && /fetch failed/i.test(error.message));
}

/** Whether an error from a request means the connection went away under it. */
export function isConnectionClosed(error: unknown): boolean {
  return error instanceof McpError && error.code === ErrorCode.ConnectionClosed;
}

/** An error the server sent (a JSON-RPC error response), as opposed to a broken answer. */
export function serverError(error: unknown): { code: number; message: string } | undefined {
  if (error instanceof McpError && error.code !== ErrorCode.ConnectionClosed && error.code !== ErrorCode.RequestTimeout) {
    return { code: error.code, message: error.message };
  }
  return undefined;
}
