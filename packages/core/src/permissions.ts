import { PluginError } from './plugin-error.js';
import { isRecord } from './record.js';

/**
 * A value in a plugin's declared permissions: written out, or taken from one of its options
 * (`{"option": "smtp.host"}`, a dotted path), with a `default` for when the option is not given.
 * An option that is not given and has no default asks for nothing.
 */
export type PermissionValue<T extends string | number = string> = T | { option: string; default?: T };

/** One network destination: `"host:port"`, or host and port each written out or taken from an option. */
export type NetPermission = string | { host: PermissionValue; port: PermissionValue<number> };

/**
 * What a plugin needs, declared in its package.json `"toolshed.permissions"` so it can be read
 * (and granted) before any of its code runs. Paths are relative to the project or absolute.
 */
export interface Permissions {
  /** Files and folders it reads (a folder grants everything under it). */
  read: PermissionValue[];
  /** Files and folders it writes (and reads). */
  write: PermissionValue[];
  /** TCP destinations it connects to. */
  net: NetPermission[];
  /** Environment variables it reads; its process gets these and no other of the host's. */
  env: string[];
  /** Whether it starts child processes. */
  spawn: boolean;
}

/** Permissions with every option filled in: what the sandbox is asked for. */
export interface ResolvedPermissions {
  read: string[];
  write: string[];
  /** `host:port`. */
  net: string[];
  env: string[];
  spawn: boolean;
}

export const NO_PERMISSIONS: Permissions = Object.freeze({ read: [], write: [], net: [], env: [], spawn: false }) as Permissions;

const MAX_ENTRIES = 64;
const MAX_TEXT = 1024;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;
const OPTION_PATH = /^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*){0,7}$/;
const HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$|^\[[0-9a-fA-F:.]+\]$/;

const isHost = (value: unknown): value is string => typeof value === 'string' && HOST.test(value);
const fail = (field: string, message: string) => new PluginError({ phase: 'validate', field }, message);

function isText(value: unknown): value is string {
  return typeof value === 'string' && value !== '' && value.length <= MAX_TEXT && !value.includes('\0');
}

function isPort(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= 65_535;
}

/** `host:port` split, or undefined when it is not one (a bracketed IPv6 host keeps its brackets). */
export function splitHostPort(value: string): { host: string; port: number } | undefined {
  const at = value.lastIndexOf(':');
  if (at <= 0) return undefined;
  const host = value.slice(0, at);
  const port = Number(value.slice(at + 1));
  return isHost(host) && isPort(port) && /^\d+$/.test(value.slice(at + 1)) ? { host: host.toLowerCase(), port } : undefined;
}

/** The first key of `value` not among `keys` fails, naming what to `use` instead. */
function checkKeys(value: Record<string, unknown>, at: string, keys: readonly string[], use: string): void {
  const unknown = Object.keys(value).find((key) => !keys.includes(key));
  if (unknown !== undefined) throw fail(at, `"${at}" has unknown key ${JSON.stringify(unknown).slice(0, 80)}; use ${use}.`);
}

function checkValue<T extends string | number>(
  value: unknown,
  at: string,
  ok: (value: unknown) => value is T,
  what: string,
): PermissionValue<T> {
  if (ok(value)) return value;
  if (isRecord(value) && typeof value.option === 'string') {
    if (!OPTION_PATH.test(value.option))
      throw fail(at, `"${at}.option" must be an option path such as "smtp.host"; got ${JSON.stringify(value.option).slice(0, 80)}.`);
    checkKeys(value, at, ['option', 'default'], '"option" and "default"');
    if (value.default !== undefined && !ok(value.default)) throw fail(at, `"${at}.default" must be ${what}.`);
    return value.default === undefined ? { option: value.option } : { option: value.option, default: value.default };
  }
  throw fail(at, `"${at}" must be ${what}, or {"option": "name"} to take it from the plugin's options.`);
}

function checkList<T>(value: unknown, at: string, each: (item: unknown, at: string) => T): T[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw fail(at, `"${at}" must be a list.`);
  if (value.length > MAX_ENTRIES) throw fail(at, `"${at}" lists ${value.length} entries; at most ${MAX_ENTRIES} are allowed.`);
  return value.map((item, index) => each(item, `${at}[${index}]`));
}

const PATH_RULE = 'a path (relative to the project, or absolute)';

function checkNet(item: unknown, at: string): NetPermission {
  if (typeof item === 'string') {
    if (!splitHostPort(item))
      throw fail(at, `"${at}" must be "host:port", e.g. "smtp.example.com:587"; got ${JSON.stringify(item).slice(0, 80)}.`);
    return item;
  }
  if (isRecord(item)) {
    checkKeys(item, at, ['host', 'port'], '"host" and "port"');
    return {
      host: checkValue(item.host, `${at}.host`, isHost, 'a host name or address'),
      port: checkValue(item.port, `${at}.port`, isPort, 'a port number (1-65535)'),
    };
  }
  throw fail(at, `"${at}" must be "host:port" or {"host": ..., "port": ...}.`);
}

/**
 * Check a package.json's `"toolshed.permissions"` (untrusted: any package may write anything
 * there). Left out, a plugin asks for nothing. Throws a validate-phase PluginError naming the field.
 */
export function checkPermissions(value: unknown, at = 'toolshed.permissions'): Permissions {
  if (value === undefined) return NO_PERMISSIONS;
  if (!isRecord(value))
    throw fail(at, `"${at}" must be an object like {"read": ["data"], "net": ["smtp.example.com:587"], "env": [], "spawn": false}.`);
  checkKeys(value, at, ['read', 'write', 'net', 'env', 'spawn'], 'read, write, net, env, spawn');
  const path = (item: unknown, where: string) => checkValue(item, where, isText, PATH_RULE);
  const env = (item: unknown, where: string) => {
    if (typeof item !== 'string' || !ENV_NAME.test(item))
      throw fail(where, `"${where}" must be an environment variable name such as "SMTP_PASSWORD".`);
    return item;
  };
  if (value.spawn !== undefined && typeof value.spawn !== 'boolean') throw fail(`${at}.spawn`, `"${at}.spawn" must be true or false.`);
  return {
    read: checkList(value.read, `${at}.read`, path),
    write: checkList(value.write, `${at}.write`, path),
    net: checkList(value.net, `${at}.net`, checkNet),
    env: checkList(value.env, `${at}.env`, env),
    spawn: value.spawn === true,
  };
}

function optionAt(options: Record<string, unknown> | undefined, path: string): unknown {
  let value: unknown = options;
  for (const key of path.split('.')) value = isRecord(value) && Object.hasOwn(value, key) ? value[key] : undefined;
  return value;
}

/** `scheme://…` parsed, or undefined when the text is not such a URL. */
function connectionUrl(text: string): URL | undefined {
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(text)) return undefined;
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

/**
 * Fill in the values a plugin's permissions take from its (resolved) options. A network host or
 * port may come from an option holding a URL: its host, and its port (or the entry's default). An option of the
 * wrong kind is an options-phase PluginError naming it: the plugin would ask for something unreadable.
 */
export function resolvePermissions(permissions: Permissions, options: Record<string, unknown> | undefined): ResolvedPermissions {
  const take = <T extends string | number>(
    value: PermissionValue<T>,
    ok: (value: unknown) => value is T,
    what: string,
    fromUrl?: (url: URL) => T | undefined,
  ): T | undefined => {
    if (typeof value !== 'object') return value;
    const given = optionAt(options, value.option);
    if (given === undefined) return value.default;
    // A connection URL (send_email's ledger.url, postgres://user@db.example.com:5432/app) names its host and port.
    const url = fromUrl && typeof given === 'string' ? connectionUrl(given) : undefined;
    if (url) return fromUrl!(url) ?? value.default;
    // An option given as an object (send_email's {"kind": "file", "path"}) is named field by field by other entries.
    if (isRecord(given) && ok === (isText as unknown)) return undefined;
    if (!ok(given))
      throw new PluginError(
        { phase: 'options', field: value.option },
        `option ${value.option} must be ${what}: the plugin's permissions take it from there.`,
      );
    return given;
  };
  const paths = (list: PermissionValue[]) => list.flatMap((item) => take(item, isText, PATH_RULE) ?? []);
  const net = permissions.net.flatMap((item) => {
    if (typeof item === 'string') return [item.toLowerCase()];
    const host = take(item.host, isHost, 'a host name or address', (url) => (isHost(url.hostname) ? url.hostname : undefined));
    const port = take(item.port, isPort, 'a port number (1-65535)', (url) => (url.port ? Number(url.port) : undefined));
    return host === undefined || port === undefined ? [] : [`${host.toLowerCase()}:${port}`];
  });
  return { read: paths(permissions.read), write: paths(permissions.write), net, env: [...permissions.env], spawn: permissions.spawn };
}
