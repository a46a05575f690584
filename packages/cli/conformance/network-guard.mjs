// Preloaded (node --import) into the conformance tool: every TCP connection it opens must go to
// loopback. Any other is refused, and noted in $NETWORK_GUARD_LOG for the test to read.
import { appendFileSync } from 'node:fs';
import net from 'node:net';

const log = process.env.NETWORK_GUARD_LOG;
const loopback = (host) =>
  host === undefined || host === 'localhost' || host === '::1' || host === '[::1]' || /^(::ffff:)?127\.\d+\.\d+\.\d+$/.test(host);
const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function (...args) {
  // net.connect passes [options, callback] as one normalized array; others pass (options) or (port, host).
  const first = Array.isArray(args[0]) ? args[0][0] : args[0];
  const options =
    typeof first === 'object' && first !== null ? first : { port: first, host: typeof args[1] === 'string' ? args[1] : undefined };
  if (options.path === undefined && !loopback(options.host)) {
    if (log) appendFileSync(log, `${options.host}:${options.port}\n`);
    throw new Error(`network-guard: a connection to ${options.host}:${options.port} (outside loopback) was refused`);
  }
  return connect.apply(this, args);
};
