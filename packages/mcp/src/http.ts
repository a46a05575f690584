import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ToolRegistry } from '@toolshed/core';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { RequestId } from '@modelcontextprotocol/sdk/types.js';
import { hostHeaderAllowed, isLoopback } from './host-check.js';
import { originAllowed, readAllowedOrigins } from './origin-check.js';
import { invalidParams } from './params-gate.js';
import { readMessage } from './read-body.js';
import { createMcpServer, type McpServerOptions } from './server.js';

export interface HttpOptions extends McpServerOptions {
  /** Default `127.0.0.1`. Any other address exposes the tools to the network, without authentication. */
  host?: string;
  /** Default 0: a free port, which `url` then tells. */
  port?: number;
  /** Default `/mcp`. */
  path?: string;
  /**
   * Web origins allowed to call besides this machine's own (`http://localhost:*`,
   * `http://127.0.0.1:*`, `http://[::1]:*`), e.g. `['https://app.example']`. A
   * request whose `Origin` header names any other origin gets 403. Clients that
   * are not browsers send no `Origin` and are not affected. Default: none.
   */
  allowedOrigins?: readonly string[];
  /**
   * Serve every POST on its own, without sessions (no `mcp-session-id`), so that
   * replicas can stand behind any load balancer without session affinity.
   * Default false.
   */
  stateless?: boolean;
  /** A session with no request open for this long is closed; its id then gets 404. Default 30 minutes. */
  sessionIdleTimeoutMs?: number;
  /** Open sessions at most; an `initialize` beyond that gets 503. Default 1000. */
  maxSessions?: number;
}

export interface HttpService {
  /** Where clients connect, e.g. `http://127.0.0.1:3000/mcp`. */
  url: string;
  host: string;
  port: number;
  /** MCP sessions open now (always 0 when stateless). */
  readonly sessionCount: number;
  /** Ends every session (aborting calls in flight) and stops listening. */
  close(): Promise<void>;
}

export const DEFAULT_SESSION_IDLE_TIMEOUT_MS = 30 * 60_000;
export const DEFAULT_MAX_SESSIONS = 1000;
// setTimeout fires at once for anything longer.
const LONGEST_TIMER_MS = 2 ** 31 - 1;

interface Session {
  server: Server;
  transport: StreamableHTTPServerTransport;
  /** HTTP requests of this session still open, a client's GET stream included: such a session is not idle. */
  open: number;
  idleTimer?: NodeJS.Timeout;
  closed: boolean;
}

function sendError(
  res: ServerResponse,
  status: number,
  message: string,
  code = -32000,
  headers: Record<string, string> = {},
  id: RequestId | null = null,
): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id }));
}

function urlHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

function positiveInteger(name: string, value: number, max: number): number {
  if (!Number.isInteger(value) || value < 1 || value > max) {
    throw new Error(`${name} must be a whole number from 1 to ${max}; got ${String(value)}.`);
  }
  return value;
}

function minutes(ms: number): string {
  return ms % 60_000 === 0 ? `${ms / 60_000} min` : `${ms} ms`;
}

/**
 * Serve a registry over MCP's Streamable HTTP transport, one MCP session per
 * client (so that cancellations and progress reach the right call), or one
 * short-lived server per POST when `stateless`.
 */
export async function serveHttp(registry: ToolRegistry, options: HttpOptions = {}): Promise<HttpService> {
  const {
    host = '127.0.0.1',
    port = 0,
    path = '/mcp',
    allowedOrigins = [],
    stateless = false,
    sessionIdleTimeoutMs = DEFAULT_SESSION_IDLE_TIMEOUT_MS,
    maxSessions = DEFAULT_MAX_SESSIONS,
    ...serverOptions
  } = options;
  const origins = readAllowedOrigins(allowedOrigins);
  const idleMs = positiveInteger('sessionIdleTimeoutMs', sessionIdleTimeoutMs, LONGEST_TIMER_MS);
  const cap = positiveInteger('maxSessions', maxSessions, Number.MAX_SAFE_INTEGER);
  const checkHost = isLoopback(host);
  const sessions = new Map<string, Session>();
  // Sessions whose initialize is being answered: counted against the cap so that a burst cannot overshoot it.
  let opening = 0;
  // Stateless servers of the POSTs being answered, so that close() can end them.
  const unbound = new Set<Server>();

  function keepOpen(session: Session, res: ServerResponse): void {
    session.open += 1;
    clearTimeout(session.idleTimer);
    res.once('close', () => {
      session.open -= 1;
      if (session.open > 0 || session.closed) return;
      session.idleTimer = setTimeout(() => void session.server.close(), idleMs);
      // An idle session must not keep the process alive.
      session.idleTimer.unref();
    });
  }

  async function openSession(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (sessions.size + opening >= cap) {
      return sendError(
        res,
        503,
        `Too many sessions: this server keeps at most ${cap} open. End a session you no longer use (DELETE it), or try again once idle ones expire.`,
        -32000,
        { 'retry-after': '60' },
      );
    }
    // Counted from here, before any wait, so that a burst of initializes cannot all pass the check above.
    opening += 1;
    let session: Session | undefined;
    try {
      session = await initialize(req, res);
    } finally {
      opening -= 1;
    }
    // Anything but a valid `initialize` was refused: nothing to keep.
    if (session && session.transport.sessionId === undefined) await session.server.close();
  }

  async function initialize(req: IncomingMessage, res: ServerResponse): Promise<Session | undefined> {
    // The transport takes a malformed initialize for some other request ("Server not initialized"):
    // read the body first, so that its params get -32602 naming the field.
    const body = await readMessage(req);
    if (!body.ok) return void sendError(res, body.status, body.message, body.code, {}, body.id);
    const invalid = invalidParams(body.value);
    if (invalid) return void sendError(res, 400, invalid.message, invalid.code, {}, (body.value as { id: RequestId }).id);
    const server = createMcpServer(registry, serverOptions);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void sessions.set(id, session),
    });
    const session: Session = { server, transport, open: 0, closed: false };
    server.onclose = () => {
      session.closed = true;
      clearTimeout(session.idleTimer);
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    keepOpen(session, res);
    await server.connect(transport);
    await transport.handleRequest(req, res, body.value);
    return session;
  }

  async function serveOnce(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // Without a session there is no stream to push to later and nothing to delete.
    if (req.method !== 'POST') {
      return sendError(res, 405, `Method not allowed: this server is stateless and answers only POST (got ${req.method}).`, -32000, {
        allow: 'POST',
      });
    }
    const body = await readMessage(req);
    if (!body.ok) return sendError(res, body.status, body.message, body.code, {}, body.id);
    const server = createMcpServer(registry, serverOptions);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    unbound.add(server);
    // When the response ends, or the client goes away before it does, the server ends and aborts its calls.
    res.once('close', () => {
      unbound.delete(server);
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body.value);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { pathname } = new URL(req.url ?? '/', 'http://localhost');
    if (pathname !== path) return sendError(res, 404, `Not found: the MCP endpoint of this server is ${path}.`);
    if (checkHost && !hostHeaderAllowed(req)) {
      return sendError(
        res,
        403,
        `Forbidden: this server answers only requests addressed to localhost, 127.0.0.1 or [::1] (Host was ${JSON.stringify(req.headers.host ?? '')}).`,
      );
    }
    if (!originAllowed(req, origins)) {
      return sendError(
        res,
        403,
        `Forbidden: requests from the web origin ${JSON.stringify(req.headers.origin)} are not allowed. The server's operator can allow it (allowedOrigins, or --allow-origin for toolshed serve).`,
      );
    }
    if (stateless) return serveOnce(req, res);
    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const session = sessions.get(sessionId);
      if (!session) {
        return sendError(
          res,
          404,
          `Session not found: it was closed, idle for over ${minutes(idleMs)}, or the server restarted. Start a new session with initialize.`,
          -32001,
        );
      }
      keepOpen(session, res);
      // A POST's body is read here, not by the transport, to refuse a batch before any of it runs.
      if (req.method !== 'POST') return session.transport.handleRequest(req, res);
      const body = await readMessage(req);
      if (!body.ok) return sendError(res, body.status, body.message, body.code, {}, body.id);
      return session.transport.handleRequest(req, res, body.value);
    }
    if (req.method !== 'POST')
      return sendError(res, 400, 'Bad request: no mcp-session-id header. Start a session with an initialize POST first.');
    return openSession(req, res);
  }

  const http = createServer((req, res) => {
    handle(req, res).catch((error: unknown) =>
      sendError(res, 500, `Internal error: ${error instanceof Error ? error.message : String(error)}`, -32603),
    );
  });
  await new Promise<void>((resolve, reject) => {
    const fail = (error: NodeJS.ErrnoException) => {
      const why =
        error.code === 'EADDRINUSE'
          ? 'the port is already in use; choose another port'
          : error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND'
            ? `${host} is not an address of this machine`
            : error.code === 'EACCES'
              ? 'permission denied; choose a port above 1023'
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
    get sessionCount() {
      return sessions.size;
    },
    async close() {
      await Promise.all([...sessions.values(), ...[...unbound].map((server) => ({ server }))].map(({ server }) => server.close()));
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      });
    },
  };
}
