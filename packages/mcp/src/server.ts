import { randomUUID } from 'node:crypto';
import type { ToolRegistry } from '@toolshed/core';
import { toMcpTools } from '@toolshed/providers';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { forwardProgress } from './progress.js';
import { errorResult, successResult } from './results.js';

export interface McpServerOptions {
  /** The name clients show for this server. Default `toolshed`. */
  name?: string;
  /** The version clients show for this server. Default `1.0.0`. */
  version?: string;
  /** Told to the client at initialization, e.g. when to use these tools. */
  instructions?: string;
}

/**
 * An MCP server (the SDK's low-level `Server`) whose tools are the registry's:
 * `tools/list` reads the registry and `tools/call` dispatches to it. Connect it
 * to any SDK transport; `serveStdio` and `serveHttp` do that for you.
 */
export function createMcpServer(registry: ToolRegistry, options: McpServerOptions = {}): Server {
  const server = new Server(
    { name: options.name ?? 'toolshed', version: options.version ?? '1.0.0' },
    { capabilities: { tools: {} }, ...(options.instructions !== undefined && { instructions: options.instructions }) },
  );

  // The same listing as `toolshed schema --format mcp`: our JSON Schemas, unchanged.
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: toMcpTools(registry) as Tool[] }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name, arguments: args } = request.params;
    const callId = `call_${randomUUID()}`;
    const progressToken = request.params._meta?.progressToken;
    const stopProgress =
      progressToken === undefined ? undefined : forwardProgress(registry, callId, progressToken, extra.sendNotification);
    try {
      // `arguments` is optional in MCP; a tool with required fields then names the missing one.
      const outcome = await registry.dispatch({ name, input: args ?? {}, callId }, { signal: extra.signal });
      return outcome.ok ? successResult(name, outcome.output) : errorResult(outcome.error.message);
    } finally {
      stopProgress?.();
    }
  });
  return server;
}
