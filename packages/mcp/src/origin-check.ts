import type { IncomingMessage } from 'node:http';
import { isLoopback } from './host-check.js';

/**
 * Reads an origin as a browser sends it in its `Origin` header (scheme, host
 * and port), e.g. `http://localhost:6274`, and returns it in that header's
 * form, so that `HTTP://LOCALHOST:80` matches the `http://localhost` a browser sends.
 */
export function parseOrigin(text: string): string {
  const url = URL.canParse(text) ? new URL(text) : undefined;
  // A path or query here would never match a browser's header: refuse it rather than never match.
  if (!url || url.origin === 'null' || url.pathname !== '/' || url.search || url.hash || url.username) {
    throw new Error(
      `${JSON.stringify(text)} is not an origin; write it as a browser sends it, scheme, host and port, e.g. http://localhost:6274.`,
    );
  }
  return url.origin;
}

export function readAllowedOrigins(origins: readonly string[]): ReadonlySet<string> {
  return new Set(
    origins.map((text) => {
      try {
        return parseOrigin(text);
      } catch (error) {
        throw new Error(`allowedOrigins: ${(error as Error).message}`);
      }
    }),
  );
}

/**
 * MCP requires servers to refuse (403) a present `Origin` they do not allow:
 * a browser sends it with every cross-site request, so a web page on another
 * site cannot call the tools of a server the user runs (DNS rebinding). Pages
 * served from this machine (a loopback origin, such as the MCP inspector's) are
 * allowed, as by the SDK's own localhost protection; others only when listed.
 * Clients that are not browsers send no `Origin`.
 */
export function originAllowed(req: IncomingMessage, allowed: ReadonlySet<string>): boolean {
  const header = req.headers.origin;
  if (header === undefined) return true;
  // `null` (sandboxed frames, file: pages) and garbage are never allowed.
  if (!URL.canParse(header)) return false;
  const url = new URL(header);
  if (allowed.has(url.origin)) return true;
  return (url.protocol === 'http:' || url.protocol === 'https:') && isLoopback(url.hostname);
}
