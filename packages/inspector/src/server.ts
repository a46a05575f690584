import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ASSETS, readAsset } from './assets.js';
import { parseCallRequest, parseCancelRequest, RunningCalls, streamCall } from './call.js';
import { checkRequest, guardFor, isLoopback } from './guard.js';
import type { Inspected } from './inspected.js';
import { Session } from './session.js';
import { contextView, isContextFormat, pluginsView, searchView, toolsView } from './views.js';

export interface InspectorOptions {
  /** Where to listen: 127.0.0.1 unless told otherwise. */
  host?: string;
  /** 0 (the default) picks a free port. */
  port?: number;
}

export interface Inspector {
  /** The URL to open, with its one-time token. */
  readonly url: string;
  readonly host: string;
  readonly port: number;
  /** Whether other machines can reach it. */
  readonly loopback: boolean;
  close(): Promise<void>;
}

const MAX_BODY = 1024 * 1024;

// The page runs only its own files: no inline script, nothing from elsewhere, never in a frame.
const PAGE_HEADERS = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; media-src data:; connect-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

function send(response: ServerResponse, status: number, type: string, body: string | Buffer, headers: Record<string, string> = {}): void {
  response.writeHead(status, { ...PAGE_HEADERS, 'content-type': type, ...headers });
  response.end(body);
}

function sendJson(response: ServerResponse, status: number, value: unknown): void {
  send(response, status, 'application/json; charset=utf-8', JSON.stringify(value));
}

function refuse(response: ServerResponse, status: number, message: string): void {
  send(response, status, 'text/plain; charset=utf-8', `${message}\n`);
}

async function readJson(request: IncomingMessage): Promise<{ ok: true; value: unknown } | { ok: false; message: string }> {
  if (!(request.headers['content-type'] ?? '').startsWith('application/json')) {
    return { ok: false, message: 'Send the body as application/json.' };
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) return { ok: false, message: `The body is over ${MAX_BODY} bytes.` };
    chunks.push(chunk as Buffer);
  }
  try {
    return { ok: true, value: JSON.parse(Buffer.concat(chunks).toString('utf8')) };
  } catch (error) {
    return { ok: false, message: `The body is not valid JSON (${(error as Error).message}).` };
  }
}

function positiveInteger(text: string | null): number | undefined {
  if (text === null || text === '') return undefined;
  const value = Number(text);
  return Number.isInteger(value) && value > 0 ? value : undefined;
}

async function api(
  inspected: Inspected,
  running: RunningCalls,
  url: URL,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const route = `${request.method} ${url.pathname}`;
  switch (route) {
    case 'GET /api/plugins':
      return sendJson(response, 200, pluginsView(inspected));
    case 'GET /api/tools':
      return sendJson(response, 200, toolsView(inspected));
    case 'GET /api/context': {
      const format = url.searchParams.get('format') ?? 'openai';
      if (!isContextFormat(format)) return sendJson(response, 400, { error: `Unknown format ${JSON.stringify(format)}.` });
      return sendJson(response, 200, await contextView(inspected, format, positiveInteger(url.searchParams.get('window'))));
    }
    case 'GET /api/search':
      return sendJson(
        response,
        200,
        await searchView(inspected, url.searchParams.get('q') ?? '', positiveInteger(url.searchParams.get('limit')) ?? 10),
      );
    case 'POST /api/call': {
      const body = await readJson(request);
      if (!body.ok) return sendJson(response, 400, { error: body.message });
      const call = parseCallRequest(body.value);
      if (!call.ok) return sendJson(response, 400, { error: call.message });
      return streamCall(inspected, running, call.call, response);
    }
    case 'POST /api/cancel': {
      const body = await readJson(request);
      if (!body.ok) return sendJson(response, 400, { error: body.message });
      const cancel = parseCancelRequest(body.value);
      if (!cancel.ok) return sendJson(response, 400, { error: cancel.message });
      const cancelled = running.cancel(cancel.callId, 'the person using toolshed inspect pressed Cancel');
      // The call's own stream carries its aborted outcome; a call that already ended has its outcome there too.
      return sendJson(response, cancelled ? 202 : 404, cancelled ? { cancelled: true } : { error: `No running call ${cancel.callId}.` });
    }
    default:
      return sendJson(response, 404, { error: `No ${route} here.` });
  }
}

async function handle(
  inspected: Inspected,
  running: RunningCalls,
  session: Session,
  guard: ReturnType<typeof guardFor>,
  request: IncomingMessage,
  response: ServerResponse,
) {
  const refusal = checkRequest(request, guard);
  if (refusal) return refuse(response, refusal.status, refusal.message);
  const url = new URL(request.url ?? '/', 'http://inspector');
  const token = url.searchParams.get('token');
  if (request.method === 'GET' && url.pathname === '/' && token !== null) {
    const cookie = session.exchange(token);
    if (cookie) return send(response, 303, 'text/plain; charset=utf-8', '', { location: '/', 'set-cookie': cookie });
    if (!session.admits(request)) {
      return refuse(response, 401, 'This link was used already or is wrong. Start toolshed inspect again and open the URL it prints.');
    }
    return send(response, 303, 'text/plain; charset=utf-8', '', { location: '/' });
  }
  if (!session.admits(request)) {
    return refuse(
      response,
      401,
      'Open the URL that toolshed inspect printed (it holds a one-time token); this browser has no session yet.',
    );
  }
  if (url.pathname.startsWith('/api/')) return api(inspected, running, url, request, response);
  const file = ASSETS[url.pathname];
  if (request.method !== 'GET' || file === undefined) return refuse(response, 404, `No ${request.method} ${url.pathname} here.`);
  const asset = await readAsset(file);
  return send(response, 200, asset.type, asset.body);
}

/** Serve the inspector page for a host's plugins and tools until `close()`. */
export async function startInspector(inspected: Inspected, options: InspectorOptions = {}): Promise<Inspector> {
  const session = new Session();
  const running = new RunningCalls();
  const host = options.host ?? '127.0.0.1';
  let guard = guardFor(host, 0);
  const server = createServer((request, response) => {
    handle(inspected, running, session, guard, request, response).catch((error: unknown) => {
      if (!response.headersSent) sendJson(response, 500, { error: (error as Error).message });
      else response.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  guard = guardFor(host, port);
  const shown = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shown === '0.0.0.0' || shown === '[::]' ? '127.0.0.1' : shown}:${port}/?token=${session.token}`,
    host,
    port,
    loopback: isLoopback(host),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
