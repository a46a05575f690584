import { connect, createServer, type Socket } from 'node:net';

/** A TCP proxy between the `pg` client and a PostgreSQL server, which loses what a test tells it to. */
export interface PgProxy {
  /** The server's connection string, through the proxy. */
  url: string;
  /**
   * Arm the proxy: the next statement whose message holds every one of `parts` (its SQL, a
   * parameter such as the call id) goes to the server, which runs it
   * and answers; the answer is never forwarded, and that connection is cut (as when a proxy, a
   * PgBouncer or a failover drops it). Resolves once it has been cut.
   */
  loseReplyTo(...parts: string[]): Promise<void>;
  /** The same, but the statement never reaches the server. */
  loseStatement(...parts: string[]): Promise<void>;
  /** Stop listening and cut every connection: the database is gone (a new connection is refused). */
  close(): Promise<void>;
}

type Trap = { parts: string[]; forward: boolean; cut: () => void };

export async function startPgProxy(target: string): Promise<PgProxy> {
  const to = new URL(target);
  const sockets = new Set<Socket>();
  let trap: Trap | undefined;
  const server = createServer((client) => {
    const upstream = connect(Number(to.port), to.hostname);
    sockets.add(client).add(upstream);
    let sprung: Trap | undefined;
    const cut = () => {
      client.destroy();
      upstream.destroy();
      sprung?.cut();
    };
    client.on('data', (chunk: Buffer) => {
      if (trap?.parts.every((part) => chunk.includes(part))) {
        sprung = trap;
        trap = undefined;
        if (!sprung.forward) return cut();
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => (sprung ? cut() : client.write(chunk)));
    for (const socket of [client, upstream]) {
      socket.on('error', cut);
      socket.on('close', () => {
        sockets.delete(socket);
        cut();
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const url = new URL(target);
  url.port = String(port);
  const arm = (parts: string[], forward: boolean) => new Promise<void>((cut) => (trap = { parts, forward, cut: () => cut() }));
  return {
    url: url.href,
    loseReplyTo: (...parts) => arm(parts, true),
    loseStatement: (...parts) => arm(parts, false),
    async close() {
      const closed = new Promise((resolve) => server.close(resolve));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}
