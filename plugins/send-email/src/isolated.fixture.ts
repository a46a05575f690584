import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Outcome } from '@toolshed/core';
import { createHost, type Host } from '@toolshed/host';
import { makeTempDir } from './harness.fixture.js';

const PLUGIN_DIR = fileURLToPath(new URL('..', import.meta.url));
export const PLUGIN = '@toolshed/tool-send-email';

/** What the user grants send_email in its config entry (`"grant"`). */
export interface Grant {
  read?: string[];
  write?: string[];
  net?: string[];
  env?: string[];
}

/** A project folder with this package (its build in dist/) installed, as a user's project has it. */
export async function makeProject(): Promise<string> {
  const dir = await makeTempDir();
  mkdirSync(join(dir, 'node_modules', '@toolshed'), { recursive: true });
  symlinkSync(PLUGIN_DIR, join(dir, 'node_modules', '@toolshed', 'tool-send-email'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'project', private: true }));
  return dir;
}

/** send_email as the real host loads it from toolshed.config.json, run isolated (its own sandboxed process) with `grant`. */
export async function isolatedHost(
  cwd: string,
  options: Record<string, unknown>,
  grant: Grant,
  env: Record<string, string> = {},
): Promise<{ host: Host; send(input: unknown, callId: string, timeoutMs?: number): Promise<Outcome> }> {
  writeFileSync(join(cwd, 'toolshed.config.json'), JSON.stringify({ plugins: [{ plugin: PLUGIN, options, isolate: true, grant }] }));
  const host = await createHost({ cwd, env, registry: { approve: 'allow-all' } });
  return {
    host,
    send: (input, callId, timeoutMs) =>
      host.registry.dispatch({ name: 'send_email', callId, input }, timeoutMs === undefined ? {} : { timeoutMs }),
  };
}
