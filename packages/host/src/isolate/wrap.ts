import type { ResolvedPermissions } from '@toolshed/core/contract';
import { makeMissing, privateFolder, type Sandbox, sandboxSettings, writeSettings } from './sandbox.js';

/** A command as the sandbox runs it: Node running the sandbox's CLI with this process's settings. */
export interface Wrapped {
  command: string;
  args: string[];
  /** HOME and TMPDIR: its private folder (the sandbox's proxy socket is made there). */
  env: Record<string, string>;
  /** Its private folder, removed when it is done with. */
  folder: string;
  /** The index in `args` of the settings file, whose path differs every start (kept out of cache keys). */
  settingsArg: number;
}

/**
 * Wrap `command args` in the OS sandbox, granted `permissions` and able to read the `code` folders
 * (and the node_modules they import from). `name` names its private folder. Granted write paths
 * that do not exist yet are made first.
 */
export function wrapInSandbox(
  name: string,
  command: string,
  args: readonly string[],
  permissions: ResolvedPermissions,
  code: readonly string[],
  sandbox: Sandbox,
): Wrapped {
  makeMissing(permissions.write);
  const folder = privateFolder(name);
  const file = writeSettings(folder, sandboxSettings(permissions, code, sandbox, folder));
  return {
    command: process.execPath,
    args: [sandbox.cli, '--settings', file, '--', command, ...args],
    env: { HOME: folder, TMPDIR: folder },
    folder,
    settingsArg: 2,
  };
}
