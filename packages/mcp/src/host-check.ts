import type { IncomingMessage } from 'node:http';
import { isIPv4 } from 'node:net';

/** Whether a host name or address stays on this machine. */
export function isLoopback(host: string): boolean {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  // Only a real IPv4 address counts as 127.x: `127.example.com` is a name anyone can point anywhere.
  return bare === 'localhost' || bare === '::1' || (isIPv4(bare) && bare.startsWith('127.'));
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
