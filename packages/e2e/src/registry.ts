import { mkdirSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

export interface LocalRegistry {
  url: string;
  /** A token for the user the registry was started with: publishing needs one. */
  token: string;
  stop(): Promise<void>;
}

/**
 * Verdaccio in this process on 127.0.0.1 at a free port, storage and users in
 * `dir`, and no uplinks: it serves only what is published to it, so an
 * install that needs anything else fails instead of reaching the internet.
 * It runs in this process so that nothing outlives the test; every child
 * process the test starts must therefore be awaited asynchronously.
 */
export async function startRegistry(dir: string): Promise<LocalRegistry> {
  const storage = path.join(dir, 'storage');
  mkdirSync(storage, { recursive: true });
  const { runServer } = (await import('verdaccio')) as unknown as {
    runServer(config: unknown): Promise<Server>;
  };
  const server = await runServer({
    self_path: path.join(dir, 'config.yaml'),
    config_path: path.join(dir, 'config.yaml'),
    storage,
    auth: { htpasswd: { file: path.join(dir, 'htpasswd'), max_users: 10 } },
    uplinks: {},
    packages: {
      '**': { access: '$all', publish: '$authenticated', unpublish: '$authenticated' },
    },
    web: { enable: false },
    log: { type: 'stdout', format: 'pretty', level: 'error' },
    max_body_size: '200mb',
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  const stop = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections?.();
      server.close(() => resolve());
    });
  try {
    // npm adduser's request: creates the user and returns its token.
    const response = await fetch(`${url}/-/user/org.couchdb.user:e2e`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'e2e', password: 'e2e-local-only', type: 'user', roles: [] }),
    });
    const body = (await response.json()) as { token?: string; error?: string };
    if (!response.ok || !body.token) throw new Error(`could not create the registry user: ${response.status} ${body.error ?? ''}`);
    return { url, token: body.token, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
