// Imports @toolshed/mcp/mount the way the host does for `toolshed list` (mount, read the
// cache) and prints every module this process loaded, ESM (by a resolve hook) and CommonJS.
import { createRequire, register } from 'node:module';
import { MessageChannel } from 'node:worker_threads';

const { port1, port2 } = new MessageChannel();
const resolved = [];
port1.on('message', (url) => resolved.push(url));
port1.unref();
register(
  `data:text/javascript,${encodeURIComponent(`let port; export function initialize(data) { port = data.port; }
export async function resolve(specifier, context, next) { const result = await next(specifier, context); port.postMessage(result.url); return result; }`)}`,
  { data: { port: port2 }, transferList: [port2] },
);
const { mountServer } = await import('../../dist/mount/index.js');
const [cacheDir] = process.argv.slice(2);
const mount = mountServer({ name: 'child', command: 'node', args: ['server.js'] }, { cwd: process.cwd(), cacheDir });
const cached = mount.cached();
await new Promise((resolve) => setTimeout(resolve, 100));
process.stdout.write(JSON.stringify({ cached: cached?.length, esm: resolved, cjs: Object.keys(createRequire(import.meta.url).cache) }));
