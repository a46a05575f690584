/**
 * The proxy the host's sandbox lets network connections out through, when send_email runs
 * isolated (`"isolate": true`): an `http://` URL taking HTTP CONNECT to the granted `host:port`s.
 * The host's isolated child sets it; unisolated it is unset and connections go direct.
 */
export function sandboxProxy(): string | undefined {
  return process.env.TOOLSHED_PROXY || undefined;
}
