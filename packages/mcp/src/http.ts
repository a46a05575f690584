import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ToolRegistry } from '@toolshed/core';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { hostHeaderAllowed, isLoopback } from './host-check.js';
import { createMcpServer, type McpServerOptions } from './server.js';

export interface HttpOptions extends McpServerOptions {
  /** Default `127.0.0.1`. Any other address exposes the tools to the network, without authentication. */
  host?: string;
  /** Default 0: a free port, which `url` then tells. */
  port?: number;
  /** Default `/mcp`. */
  path?: string;
}

export interface HttpService {
  /** Where clients connect, e.g. `http://127.0.0.1:3000/mcp`. */
  url: string;
  host: string;
  port: number;
  /** Ends every session (aborting calls in flight) and stops listening. */
  close(): Promise<void>;
}

interface Session {
  server: Server;
  transport: StreamableHTTPServerTransport;
}

function sendError(res: ServerResponse, status: number, message: string): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

function urlHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

/**
 * Serve a registry over MCP's Streamable HTTP transport, one MCP session per
 * client (so that cancellations and progress reach the right call).
 */
export async function serveHttp(registry: ToolRegistry, options: HttpOptions = {}): Promise<HttpService> {
  const { host = '127.0.0.1', port = 0, path = '/mcp', ...serverOptions } = options;
  const checkHost = isLoopback(host);
  const sessions = new Map<string, Session>();

  async function openSession(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const server = createMcpServer(registry, serverOptions);
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void sessions.set(id, { server, transport }),
    });
    server.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    await transport.handleRequest(req, res);
    // Anything but a valid `initialize` was refused by the transport: nothing to keep.
    if (transport.sessionId === undefined) await server.close();
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { pathname } = new URL(req.url ?? '/', 'http://localhost');
    if (pathname !== path) return sendError(res, 404, `Not found: the MCP endpoint of this server is ${path}.`);
    if (checkHost && !hostHeaderAllowed(req)) {
      return sendError(res, 403, `Forbidden: this server answers only requests addressed to localhost, 127.0.0.1 or [::1] (Host was ${JSON.stringify(req.headers.host ?? '')}).`);
    }
    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const session = sessions.get(sessionId);
      if (!session) return sendError(res, 404, 'Session not found: it was closed or the server restarted. Start a new session with initialize.');
      return session.transport.handleRequest(req, res);
    }
    if (req.method !== 'POST') return sendError(res, 400, 'Bad request: no mcp-session-id header. Start a session with an initialize POST first.');
    return openSession(req, res);
  }

  const http = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => sendError(res, 500, `Internal error: ${error instanceof Error ? error.message : String(error)}`));
  });
  await new Promise<void>((resolve, reject) => {
    const fail = (error: NodeJS.ErrnoException) => {
      const why =
        error.code === 'EADDRINUSE' ? 'the port is already in use; choose another port'
        : error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND' ? `${host} is not an address of this machine`
        : error.code === 'EACCES' ? 'permission denied; choose a port above 1023'
        : error.message;
      reject(new Error(`Cannot serve MCP on ${urlHost(host)}:${port}: ${why}.`));
    };
    http.once('error', fail);
    http.listen(port, host, () => {
      http.off('error', fail);
      resolve();
    });
  });
  const bound = (http.address() as AddressInfo).port;
  return {
    url: `http://${urlHost(host)}:${bound}${path}`,
    host,
    port: bound,
    async close() {
      await Promise.all([...sessions.values()].map(({ server }) => server.close()));
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      });
    },
  };
}
