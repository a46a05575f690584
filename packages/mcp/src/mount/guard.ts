/** The variable the guard marks its server's environment with; every process the server starts inherits it. */
export const GUARD_MARK = 'TOOLSHED_MCP_GUARD';

/**
 * A stdio server runs under this small guard (`node -e GUARD_SOURCE -- command ...args`):
 * the server inherits the guard's stdin/stdout, so messages take no extra hop, and the
 * guard ends the server and every process it started when the server exits or crashes, and
 * when the host goes away by any road: SIGTERM/SIGINT/SIGHUP to the guard, or the host dying
 * outright (even by SIGKILL), which the guard sees as its parent changing.
 *
 * What the server started is found in two ways, so a helper it left behind is found too:
 * the server's process tree (while it is alive), and every process whose environment carries
 * this guard's mark (GUARD_MARK=<guard pid>-<random>), which children inherit even when they
 * leave the tree (`sh -c "helper &"`, a double fork) and after the server has died. Not a
 * process group: on Linux a group of its own needs a session of its own (Node has no setpgid),
 * and a new session is a scheduling group of its own (autogroup), which slowed every exchange
 * with the server under load. Without /proc (macOS) there is no other way to find them, so there
 * the server gets a session, and so a process group, of its own, and the group is ended.
 */
export const GUARD_SOURCE = String.raw`
const { spawn } = require('node:child_process');
const { readdirSync, readFileSync, statSync } = require('node:fs');
const { constants } = require('node:os');
const [command, ...args] = process.argv.slice(1);
const parent = process.ppid;
const value = process.pid + '-' + Math.random().toString(36).slice(2);
const mark = '${GUARD_MARK}=' + value;
const proc = statSync('/proc/self/environ', { throwIfNoEntry: false }) !== undefined;
let ending = false;
const child = spawn(command, args, {
  stdio: 'inherit',
  env: { ...process.env, ${GUARD_MARK}: value },
  detached: !proc,
});
const root = child.pid;
function pids() {
  try {
    return readdirSync('/proc').filter((name) => /^\d+$/.test(name)).map(Number);
  } catch {
    return [];
  }
}
// The server and its descendants, while the server is alive.
function tree(all) {
  const children = new Map();
  for (const pid of all) {
    try {
      const stat = readFileSync('/proc/' + pid + '/stat', 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid).push(pid);
    } catch {}
  }
  const out = [root];
  for (let i = 0; i < out.length; i++) out.push(...(children.get(out[i]) || []));
  return out;
}
// Every process that carries the mark, wherever it now hangs in the tree.
function marked(all) {
  const needle = '\0' + mark + '\0';
  return all.filter((pid) => {
    try {
      return ('\0' + readFileSync('/proc/' + pid + '/environ', 'latin1')).includes(needle);
    } catch {
      return false;
    }
  });
}
let doomed = [];
// Without /proc, the server's process group (a negative pid signals the group).
function find(serverAlive) {
  if (!proc) return [-root];
  const all = pids();
  const found = [...doomed, ...(serverAlive ? tree(all) : []), ...marked(all)];
  // A server already reaped has a pid the system may give out again.
  return [...new Set(found)].filter((pid) => pid !== process.pid && (serverAlive || pid !== root));
}
const signalAll = (signal) => { for (const pid of doomed) { try { process.kill(pid, signal); } catch {} } };
const end = () => {
  if (ending) return;
  ending = true;
  doomed = find(true);
  signalAll('SIGTERM');
  setTimeout(() => { signalAll('SIGKILL'); process.exit(1); }, 2000).unref();
};
child.on('error', (error) => {
  process.stderr.write('cannot start ' + JSON.stringify(command) + ': ' + error.message + '\n');
  process.exit(127);
});
child.on('exit', (code, signal) => {
  clearInterval(watch);
  if (!ending) process.stderr.write('[toolshed] the server process exited ' + (signal ? 'on ' + signal : 'with code ' + code) + '\n');
  // What the server started and left behind goes with it, whether it was told to end or crashed.
  doomed = find(false);
  signalAll('SIGKILL');
  process.exit(code ?? 128 + (constants.signals[signal] ?? 0));
});
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(signal, end);
const watch = setInterval(() => { if (process.ppid !== parent) end(); }, 200);
`;
