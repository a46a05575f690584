import { isRecord, type ResolvedPermissions, splitHostPort } from '@toolshed/core/contract';
const { isAbsolute, relative, resolve } = process.getBuiltinModule('node:path');

/**
 * What the user allows an isolated plugin or MCP server, in its entry's `"grant"`: the same
 * shape as a plugin's declared permissions, every value written out. Paths are relative to
 * the project (or absolute).
 */
export interface Grant {
  read?: string[];
  write?: string[];
  /** `host:port`. */
  net?: string[];
  env?: string[];
  spawn?: boolean;
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;
const MAX_ENTRIES = 64;

/** What is wrong with a `"grant"` written at `at`; none when it is one. */
export function grantProblems(value: unknown, at: string): string[] {
  if (!isRecord(value))
    return [`${at} must be an object like {"read": ["docs"], "net": ["smtp.example.com:587"], "env": ["SMTP_PASSWORD"]}`];
  const problems: string[] = [];
  for (const [key, list] of Object.entries(value)) {
    const where = `${at}.${key}`;
    if (key === 'spawn') {
      if (typeof list !== 'boolean') problems.push(`${where} must be true or false`);
      continue;
    }
    if (!['read', 'write', 'net', 'env'].includes(key)) {
      problems.push(`${at} has unknown key ${JSON.stringify(key)}; use read, write, net, env, spawn`);
      continue;
    }
    if (!Array.isArray(list) || list.length > MAX_ENTRIES) {
      problems.push(`${where} must be a list of at most ${MAX_ENTRIES} entries`);
      continue;
    }
    list.forEach((item, index) => {
      const bad =
        typeof item !== 'string' ||
        item === '' ||
        item.includes('\0') ||
        (key === 'net' && !splitHostPort(item)) ||
        (key === 'env' && !ENV_NAME.test(item));
      if (bad) {
        const rule = key === 'net' ? '"host:port"' : key === 'env' ? 'an environment variable name' : 'a path';
        problems.push(`${where}[${index}] must be ${rule}; got ${JSON.stringify(item)?.slice(0, 80)}`);
      }
    });
  }
  return problems;
}

function inside(path: string, folder: string): boolean {
  const rel = relative(folder, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/**
 * The declared permissions the grant does not cover, each in words naming the permission and
 * the line that would grant it (`where`: e.g. `"grant" of plugins[1] in toolshed.config.json`).
 * A read is covered by a granted read or write of that path or a folder above it.
 */
export function ungranted(asked: ResolvedPermissions, grant: Grant, cwd: string, where: string): string[] {
  const absolute = (path: string) => resolve(cwd, path);
  const covered = (path: string, lists: (string[] | undefined)[]) =>
    lists.some((list) => (list ?? []).some((granted) => inside(absolute(path), absolute(granted))));
  const missing: string[] = [];
  const add = (what: string, key: string, value: string) =>
    missing.push(`${what}, which is not granted: add ${JSON.stringify(value)} to "${key}" in ${where}`);
  for (const path of asked.read) if (!covered(path, [grant.read, grant.write])) add(`it asks to read ${path}`, 'read', path);
  for (const path of asked.write) if (!covered(path, [grant.write])) add(`it asks to write ${path}`, 'write', path);
  const net = new Set((grant.net ?? []).map((entry) => entry.toLowerCase()));
  for (const target of asked.net) if (!net.has(target)) add(`it asks to connect to ${target}`, 'net', target);
  for (const name of asked.env) if (!(grant.env ?? []).includes(name)) add(`it asks for the environment variable ${name}`, 'env', name);
  if (asked.spawn && grant.spawn !== true) missing.push(`it asks to start processes, which is not granted: set "spawn": true in ${where}`);
  return missing;
}

/** Declared permissions narrowed to what is granted (after `ungranted` found nothing missing, the same set). */
export function granted(asked: ResolvedPermissions, cwd: string): ResolvedPermissions {
  const absolute = (path: string) => resolve(cwd, path);
  return { ...asked, read: asked.read.map(absolute), write: asked.write.map(absolute) };
}
