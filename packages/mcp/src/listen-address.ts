export interface ListenAddress {
  /** Absent when the text named only a port. */
  host?: string;
  port: number;
}

const FORM = 'use PORT or HOST:PORT, e.g. 3000, 127.0.0.1:3000 or [::1]:3000';

/** Read `[HOST:]PORT` as a user types it on a command line. */
export function parseListenAddress(text: string): ListenAddress {
  const match = /^(?:(?:\[([^\]]+)\]|([^:[\]]+)):)?(\d+)$/.exec(text.trim());
  if (!match) throw new Error(`Cannot read the address ${JSON.stringify(text)}: ${FORM}.`);
  const [, ipv6, name, digits] = match;
  const port = Number(digits);
  if (port > 65535) throw new Error(`Cannot read the address ${JSON.stringify(text)}: the port must be 0 to 65535.`);
  const host = ipv6 ?? name;
  return host === undefined ? { port } : { host, port };
}
