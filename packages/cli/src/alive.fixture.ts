import { readFileSync } from 'node:fs';

/**
 * Whether a process runs: signal 0 checks without signalling. A zombie (dead, waiting for its new
 * parent to reap it, as a server whose guard has exited does for a moment) does not run.
 */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat[stat.lastIndexOf(')') + 2] !== 'Z';
  } catch {
    return true;
  }
}
