import type { IncomingMessage } from 'node:http';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

export function isLoopback(host: string): boolean {
  return LOOPBACK.has(host) || host.startsWith('127.');
}

/**
 * A server on a loopback address answers only requests addressed to a loopback
 * name. Otherwise a web page could point its own host name at 127.0.0.1 (DNS
 * rebinding) and call our tools from the user's browser.
 */
export function hostHeaderAllowed(req: IncomingMessage): boolean {
  const header = req.headers.host;
  if (!header) return false;
  let hostname: string;
  try {
    hostname = new URL(`http://${header}`).hostname;
  } catch {
    return false;
  }
  return isLoopback(hostname);
}
