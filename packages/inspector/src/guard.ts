import type { IncomingMessage } from 'node:http';

/** Why a request is refused: its HTTP status and a sentence for the person who sent it. */
export interface Refusal {
  status: number;
  message: string;
}

/** The names this server answers to and the origins its own page has, for one port. */
export interface Guard {
  hosts: ReadonlySet<string>;
  origins: ReadonlySet<string>;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

export function isLoopback(host: string): boolean {
  return LOOPBACK.has(host) || host.startsWith('127.');
}

/** `[::1]` in a Host header and a URL, `::1` where the socket was bound. */
function hostPart(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

/**
 * The loopback names, and the bound address itself: a page served under any other name
 * (a DNS name rebound to 127.0.0.1 by someone's site) is refused before anything else.
 */
export function guardFor(bound: string, port: number): Guard {
  const names = new Set([hostPart(bound), '127.0.0.1', 'localhost', '[::1]']);
  const hosts = new Set([...names].map((name) => `${name}:${port}`));
  return { hosts, origins: new Set([...hosts].map((host) => `http://${host}`)) };
}

/**
 * The Host header must name this server (DNS rebinding), and any request that could change
 * something (every method but GET and HEAD) must come from this server's own page: a browser
 * sends Origin on those, and a page of another site cannot forge it.
 */
export function checkRequest(request: IncomingMessage, guard: Guard): Refusal | undefined {
  const host = request.headers.host ?? '';
  if (!guard.hosts.has(host.toLowerCase())) {
    return {
      status: 421,
      message: `This inspector answers only at ${[...guard.hosts].join(' or ')}; the request named ${JSON.stringify(host)}. Open the URL that toolshed inspect printed.`,
    };
  }
  if (request.method === 'GET' || request.method === 'HEAD') return undefined;
  const origin = request.headers.origin;
  if (origin === undefined || !guard.origins.has(origin.toLowerCase())) {
    return {
      status: 403,
      message: `Only the inspector's own page may send ${request.method} requests; the request came from ${origin === undefined ? 'no Origin' : JSON.stringify(origin)}.`,
    };
  }
  return undefined;
}
