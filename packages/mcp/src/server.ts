import { randomUUID } from 'node:crypto';
import type { DispatchOptions, Outcome, ToolCall, ToolDefinition, ToolRegistry } from '@toolshed/core';
import { mcp as mcpFormat } from '@toolshed/providers';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { callIdOf } from './call-id.js';
import { guardParams } from './params-gate.js';
import { progressSender } from './progress.js';

export interface McpServerOptions {
  /** The name clients show for this server. Default `toolshed`. */
  name?: string;
  /** The version clients show for this server. Default `1.0.0`. */
  version?: string;
  /** Told to the client at initialization, e.g. when to use these tools. */
  instructions?: string;
  /**
   * Makes a tool search for each server (each session), such as `@toolshed/context`'s
   * `() => createToolSearch(registry)`: `tools/list` then lists what it says to send now,
   * `tools/call` goes through it, and `notifications/tools/list_changed` follows each
   * search that made more tools available.
   */
  toolSearch?: () => McpToolSearch | Promise<McpToolSearch>;
}

/** What the server needs of a tool search (the shape of `@toolshed/context`'s ToolSearch). */
export interface McpToolSearch {
  tools(): ToolDefinition[];
  dispatch(call: ToolCall, options?: DispatchOptions): Promise<Outcome>;
  onToolsChanged(listener: () => void): () => void;
}

/** The SDK's server, with malformed `tools/call` and `initialize` params answered -32602 on every transport. */
class ToolshedServer extends Server {
  readonly #onClosed: (() => void)[] = [];

  /** Runs `stop` once the connection closes (the SDK's `onclose` belongs to whoever serves). */
  whenClosed(stop: () => void): void {
    this.#onClosed.push(stop);
  }

  override async connect(transport: Transport): Promise<void> {
    // Between the SDK installing its message handler and the transport starting to read,
    // so that not even a message already waiting in the input passes ungated.
    const start = transport.start.bind(transport);
    transport.start = () => {
      guardParams(transport);
      return start();
    };
    await super.connect(transport);
    const closed = transport.onclose;
    transport.onclose = () => {
      closed?.();
      for (const stop of this.#onClosed.splice(0)) stop();
    };
  }
}

/**
 * A JSON-RPC error as the SDK sends it: its `code`, and its message as is (the
 * SDK's McpError would prefix "MCP error -32602: " to what the client shows).
 */
function protocolError(code: number, message: string): Error & { code: number } {
  return Object.assign(new Error(message), { code });
}

/**
 * An MCP server (the SDK's low-level `Server`) whose tools are the registry's:
 * `tools/list` reads the registry and `tools/call` dispatches to it. Connect it
 * to any SDK transport; `serveStdio` and `serveHttp` do that for you.
 */
export function createMcpServer(registry: ToolRegistry, options: McpServerOptions = {}): Server {
  const server = new ToolshedServer(
    { name: options.name ?? 'toolshed', version: options.version ?? '1.0.0' },
    {
      capabilities: { tools: options.toolSearch ? { listChanged: true } : {} },
      ...(options.instructions !== undefined && { instructions: options.instructions }),
    },
  );
  // One search per server, so that what one session found is listed to that session only.
  const search = options.toolSearch
    ? Promise.resolve(options.toolSearch()).then((made) => {
        // A notice to a client already gone is dropped; a search shared by many sessions (or
        // a registry that changes) keeps no listener of a closed one.
        server.whenClosed(made.onToolsChanged(() => void server.sendToolListChanged().catch(() => {})));
        return made;
      })
    : undefined;
  // Settled now, so that a factory that fails is reported by the first request, not as an unhandled rejection.
  search?.catch(() => {});

  // The same listing as `toolshed schema --format mcp`: our JSON Schemas, unchanged.
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: mcpFormat.tools(search ? (await search).tools() : registry) as Tool[],
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name, arguments: args } = request.params;
    const named = callIdOf(request.params._meta, () => `call_${randomUUID()}`);
    if ('problem' in named) throw protocolError(ErrorCode.InvalidParams, named.problem);
    const { callId } = named;
    const progressToken = request.params._meta?.progressToken;
    const options: DispatchOptions = { signal: extra.signal };
    if (progressToken !== undefined) options.onProgress = progressSender(progressToken, extra.sendNotification);
    // `arguments` is optional in MCP; a tool with required fields then names the missing one.
    const dispatcher = search ? await search : registry;
    const outcome = await dispatcher.dispatch({ name, input: args ?? {}, callId }, options);
    // MCP lists an unknown tool among protocol errors (-32602), unlike a call the model can correct.
    if (!outcome.ok && outcome.error.code === 'unknown_tool') throw protocolError(ErrorCode.InvalidParams, outcome.error.message);
    return mcpFormat.results([outcome])[0]!;
  });
  return server;
}
