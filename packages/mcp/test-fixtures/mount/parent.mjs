// A host process for the lifecycle tests: mounts a fault server that ignores stdin EOF
// (so only the guard can end it) and starts a process of its own and a helper by `sh -c "... &"`,
// starts it, prints "ready", then does what `mode` says:
//   wait      stay alive until killed           own-handler  handle SIGTERM itself and stay alive
//   exit      process.exit(0) without close()   close        close() and let the event loop run dry
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { mountServer } from '../../dist/mount/index.js';

const [mode, cacheDir, pidfile] = process.argv.slice(2);
const here = path.dirname(fileURLToPath(import.meta.url));
const mount = mountServer(
  {
    name: 'child',
    command: process.execPath,
    args: [path.join(here, 'fault-server.mjs'), 'ok'],
    env: { PIDFILE: pidfile, GRANDCHILD_PIDFILE: `${pidfile}.grandchild`, HELPER_PIDFILE: `${pidfile}.helper` },
  },
  { cwd: here, cacheDir },
);
await mount.refresh();
if (mode === 'own-handler') process.on('SIGTERM', () => process.stdout.write('handled\n'));
process.stdout.write('ready\n');
if (mode === 'exit') process.exit(0);
if (mode === 'close') {
  await mount.close();
  process.stdout.write('closed\n');
} else setInterval(() => {}, 1 << 30);
