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
const { constants } = require('node:os');
const [command, ...args] = process.argv.slice(1);
const parent = process.ppid;
let ending = false;
const child = spawn(command, args, { stdio: 'inherit', detached: true });
const signalGroup = (signal) => { try { process.kill(-child.pid, signal); } catch {} };
const end = () => {
  if (ending) return;
  ending = true;
  signalGroup('SIGTERM');
  setTimeout(() => { signalGroup('SIGKILL'); process.exit(1); }, 2000).unref();
};
child.on('error', (error) => {
  process.stderr.write('cannot start ' + JSON.stringify(command) + ': ' + error.message + '\n');
  process.exit(127);
});
child.on('exit', (code, signal) => {
  clearInterval(watch);
  if (!ending) process.stderr.write('[toolshed] the server process exited ' + (signal ? 'on ' + signal : 'with code ' + code) + '\n');
  signalGroup('SIGKILL');
  process.exit(code ?? 128 + (constants.signals[signal] ?? 0));
});
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(signal, end);
const watch = setInterval(() => { if (process.ppid !== parent) end(); }, 200);
`;
