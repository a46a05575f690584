import type { Readable, Writable } from 'node:stream';
import type { ToolRegistry } from '@toolshed/core';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { createMcpServer, type McpServerOptions } from './server.js';
import { LineTransport } from './stdio-transport.js';

export interface StdioOptions extends McpServerOptions {
  /** Default `process.stdin`. */
  stdin?: Readable;
  /** Default `process.stdout`: nothing else may write to it while serving. */
  stdout?: Writable;
  /** Where lines that are not JSON-RPC are reported. Default `process.stderr`. */
  stderr?: Writable;
}

export interface StdioService {
  server: Server;
  /** Settles when the client closes the input (or `close()` is called). */
  closed: Promise<void>;
  close(): Promise<void>;
}

/**
 * Serve a registry to the MCP client at the other end of stdin/stdout, the way
 * Claude Desktop and Cursor start local servers. Calls still running when the
 * client goes away are aborted.
 */
export async function serveStdio(registry: ToolRegistry, options: StdioOptions = {}): Promise<StdioService> {
  const { stdin = process.stdin, stdout = process.stdout, stderr = process.stderr, ...serverOptions } = options;
  const server = createMcpServer(registry, serverOptions);
  const closed = new Promise<void>((resolve) => (server.onclose = resolve));
  await server.connect(new LineTransport(stdin, stdout, stderr));
  return { server, closed, close: () => server.close() };
}
