/**
 * Children never outlive the host: every mount with a live connection is listed here,
 * and while any is, the process's exit and SIGINT/SIGTERM/SIGHUP signal the children at
 * once (the guard of each ends its server's process group). The host dying by SIGKILL is
 * covered by the guard itself (see guard.ts).
 */
export interface Closable {
  killNow(): void;
  close(): Promise<void>;
}

const live = new Set<Closable>();
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
let installed = false;

function killAll(): void {
  for (const mount of live) mount.killNow();
}

function onSignal(signal: NodeJS.Signals): void {
  killAll();
  // Alone on this signal, we keep its default meaning (end the process); a harness
  // with its own handler decides for itself.
  if (process.listenerCount(signal) === 1) {
    uninstall();
    process.kill(process.pid, signal);
  }
}

function install(): void {
  if (installed) return;
  installed = true;
  process.on('exit', killAll);
  for (const signal of SIGNALS) process.on(signal, onSignal);
}

function uninstall(): void {
  if (!installed) return;
  installed = false;
  process.off('exit', killAll);
  for (const signal of SIGNALS) process.off(signal, onSignal);
}

export function track(mount: Closable): void {
  live.add(mount);
  install();
}

export function untrack(mount: Closable): void {
  live.delete(mount);
  if (live.size === 0) uninstall();
}

const every = new Set<Closable>();

export function remember(mount: Closable): void {
  every.add(mount);
}

export function forget(mount: Closable): void {
  every.delete(mount);
}

/** Close every mount of this process that is not closed yet. */
export async function closeAllMounts(): Promise<void> {
  await Promise.all([...every].map((mount) => mount.close()));
}
