import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Owner } from './call-record.js';

export const THIS_PROCESS: Owner = { host: hostname(), pid: process.pid, run: randomUUID() };

/**
 * Whether the process that made a claim has certainly stopped. Only a process on
 * this machine can be checked; one elsewhere is taken to be alive.
 */
export function ownerStopped(owner: Owner | undefined): boolean {
  // A claim without an owner is one whose maker stopped before writing it.
  if (owner === undefined) return true;
  if (owner.host !== THIS_PROCESS.host) return false;
  try {
    process.kill(owner.pid, 0);
    return false;
  } catch (error) {
    // EPERM: a process with that pid runs under another user.
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
