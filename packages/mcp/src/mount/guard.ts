/**
 * A stdio server runs under this small guard (`node -e GUARD_SOURCE -- command ...args`):
 * the server inherits the guard's stdin/stdout, so messages take no extra hop, and the
 * guard ends the server's whole process group when the host goes away by any road:
 * SIGTERM/SIGINT/SIGHUP to the guard, or the host dying outright (even by SIGKILL),
 * which the guard sees as its parent changing. A server that ignores stdin EOF and
 * keeps timers alive would otherwise outlive the host.
 */
export const GUARD_SOURCE = String.raw`
const { spawn } = require('node:child_process');
const { readdirSync, readFileSync } = require('node:fs');
const { constants } = require('node:os');
const [command, ...args] = process.argv.slice(1);
const parent = process.ppid;
let ending = false;
// Not detached: a new session would put the server in a scheduling group of its own
// (Linux autogroup), which slows every exchange with it under load. Its process tree
// is found through /proc instead, while it is still alive.
const child = spawn(command, args, { stdio: 'inherit' });
function tree(root) {
  const children = new Map();
  try {
    for (const name of readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      try {
        const stat = readFileSync('/proc/' + name + '/stat', 'utf8');
        const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        if (!children.has(ppid)) children.set(ppid, []);
        children.get(ppid).push(Number(name));
      } catch {}
    }
  } catch {}
  const out = [root];
  for (let i = 0; i < out.length; i++) out.push(...(children.get(out[i]) || []));
  return out;
}
let doomed = [];
const signalAll = (signal) => { for (const pid of doomed) { try { process.kill(pid, signal); } catch {} } };
const end = () => {
  if (ending) return;
  ending = true;
  doomed = tree(child.pid);
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
  // What the server started and left behind when told to end goes with it.
  signalAll('SIGKILL');
  process.exit(code ?? 128 + (constants.signals[signal] ?? 0));
});
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(signal, end);
const watch = setInterval(() => { if (process.ppid !== parent) end(); }, 200);
`;
