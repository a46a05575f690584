import { request } from 'node:http';
import type { Socket } from 'node:net';
import { Duplex } from 'node:stream';

/**
 * A stream that reaches `host:port` through an HTTP CONNECT proxy, for the `pg` client's `stream`
 * option (pg has no proxy support): pg calls `connect(port, host)` on it and waits for `connect`,
 * then speaks to it as to a socket (TLS included: pg wraps it as it would a socket).
 */
export class TunnelStream extends Duplex {
  readonly #proxy: URL;
  #socket: Socket | undefined;
  #noDelay = false;

  constructor(proxy: string) {
    super();
    this.#proxy = new URL(proxy);
  }

  connect(port: number, host: string): this {
    const target = `${host.includes(':') ? `[${host}]` : host}:${port}`;
    const { username, password, hostname, port: proxyPort } = this.#proxy;
    const auth = username ? `${decodeURIComponent(username)}:${decodeURIComponent(password)}` : undefined;
    const asking = request({
      host: hostname,
      port: Number(proxyPort) || 80,
      method: 'CONNECT',
      path: target,
      headers: { host: target, ...(auth ? { 'proxy-authorization': `Basic ${Buffer.from(auth).toString('base64')}` } : {}) },
    });
    asking.once('connect', (response, socket, head) => {
      if (response.statusCode !== 200) {
        socket.destroy();
        // The proxy's own words stay out: its status says enough (403: not a granted host:port).
        this.destroy(
          Object.assign(new Error(`the proxy refused a connection to ${target} (HTTP ${response.statusCode})`), { code: 'ECONNREFUSED' }),
        );
        return;
      }
      this.#socket = socket;
      socket.setNoDelay(this.#noDelay);
      if (head.length > 0) this.push(head);
      socket.on('data', (chunk: Buffer) => {
        if (!this.push(chunk)) socket.pause();
      });
      socket.on('end', () => this.push(null));
      socket.on('error', (error) => this.destroy(error));
      socket.on('close', () => this.destroy());
      this.emit('connect');
    });
    asking.once('error', (error) => this.destroy(error));
    asking.end();
    return this;
  }

  override _read(): void {
    this.#socket?.resume();
  }

  override _write(chunk: Buffer, encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    if (this.#socket) this.#socket.write(chunk, encoding, done);
    else done(new Error('the tunnel is not connected yet'));
  }

  override _final(done: (error?: Error | null) => void): void {
    if (this.#socket) this.#socket.end(done);
    else done();
  }

  override _destroy(error: Error | null, done: (error?: Error | null) => void): void {
    this.#socket?.destroy();
    done(error);
  }

  setNoDelay(noDelay = true): this {
    this.#noDelay = noDelay;
    this.#socket?.setNoDelay(noDelay);
    return this;
  }

  setKeepAlive(enable?: boolean, delay?: number): this {
    this.#socket?.setKeepAlive(enable, delay);
    return this;
  }

  ref(): this {
    this.#socket?.ref();
    return this;
  }

  unref(): this {
    this.#socket?.unref();
    return this;
  }
}
