import { isEnvReference, isRecord, resolveEnvReferences } from '@toolshed/core/contract';
import type { FromEnv } from '@toolshed/mcp/mount';
import type { ServerEntry } from './entries.js';
import { expandReferences } from './expand.js';

export interface Resolved {
  resolved: Record<string, unknown>;
  fromEnv: FromEnv;
  /** Every value read from the environment for this entry: kept out of every message. */
  secrets: string[];
}

/**
 * The entry with what it reads from the environment filled in: `{"env": NAME}` in `env` and
 * `headers` values, and `${NAME}` references (see expandReferences) in `env`, `args`, `url` and
 * `headers`. `fromEnv` says, for each value so filled, what was written (the variable's name, or
 * the text with its references): the runtime keys its cache on that, never on the values
 * (secrets), which it only runs with and keeps out of what it says.
 */
export function resolveSecrets(server: ServerEntry, ctx: { cwd: string; env: Readonly<Record<string, string | undefined>> }): Resolved {
  const { entry, configName } = server;
  const resolved: Record<string, unknown> = { ...entry };
  const fromEnv: FromEnv = {};
  const secrets: string[] = [];
  const expand = (text: string, field: string) => {
    const expansion = expandReferences(text, field, { env: ctx.env, cwd: ctx.cwd, configName });
    secrets.push(...expansion.secrets);
    return expansion;
  };
  for (const field of ['env', 'headers'] as const) {
    const given = entry[field];
    if (!isRecord(given)) continue;
    const written: [string, string][] = [];
    resolved[field] = Object.fromEntries(
      Object.entries(given).map(([key, value]) => {
        if (isEnvReference(value)) {
          const read = resolveEnvReferences(value, ctx.env, configName, [field, key]);
          if (typeof value.env === 'string') written.push([key, value.env]);
          if (typeof read === 'string') secrets.push(read);
          return [key, read];
        }
        if (typeof value !== 'string') return [key, value];
        const expansion = expand(value, `${field}.${key}`);
        if (expansion.fromEnv) written.push([key, value]);
        return [key, expansion.value];
      }),
    );
    if (written.length > 0) fromEnv[field] = Object.fromEntries(written);
  }
  if (Array.isArray(entry.args)) {
    const written: [string, string][] = [];
    resolved.args = entry.args.map((arg: unknown, index) => {
      if (typeof arg !== 'string') return arg;
      const expansion = expand(arg, `args[${index}]`);
      if (expansion.fromEnv) written.push([String(index), arg]);
      return expansion.value;
    });
    if (written.length > 0) fromEnv.args = Object.fromEntries(written);
  }
  if (typeof entry.url === 'string') {
    const expansion = expand(entry.url, 'url');
    resolved.url = expansion.value;
    if (expansion.fromEnv) fromEnv.url = entry.url;
  }
  return { resolved, fromEnv, secrets };
}
