/** What a secret is replaced with. */
export const REDACTED = '[redacted]';

/**
 * Shorter values are not looked for: replacing every "1" or "json" in a message would wreck it,
 * and a value that short guards nothing.
 */
export const MIN_SECRET_LENGTH = 6;

/**
 * The base64 characters that hold only the secret's bits, for each of the three offsets it can
 * start at inside a longer base64 text (`Basic user:pass`, an AUTH PLAIN blob): the characters
 * that also hold a neighbour's bits differ with the neighbour, so they are left off.
 */
function base64Cores(bytes: Buffer): string[] {
  const cores: string[] = [];
  for (let offset = 0; offset < 3; offset++) {
    const text = Buffer.concat([Buffer.alloc(offset), bytes])
      .toString('base64')
      .replace(/=+$/, '');
    const first = Math.ceil((offset * 8) / 6);
    const last = Math.floor(((offset + bytes.length) * 8) / 6);
    const core = text.slice(first, last);
    if (core.length >= MIN_SECRET_LENGTH) cores.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return cores;
}

/**
 * The ways a secret is spelled in text that reaches a person or a model: as it is, URL-encoded
 * (as a component, as a form, every byte), base64 (standard and URL-safe, at any alignment, so
 * inside `Basic base64(user:pass)` too), hex, and JSON-escaped (as JSON.stringify writes it, once and
 * twice, and every character as `\uXXXX`). Matched without regard to letter case.
 */
export function secretSpellings(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const json = JSON.stringify(secret).slice(1, -1);
  const forms = new Set([
    secret,
    encodeURIComponent(secret),
    new URLSearchParams({ s: secret }).toString().slice(2),
    bytes.toString('hex').replace(/(..)/g, '%$1'),
    bytes.toString('hex'),
    json,
    // Escaped twice: a JSON text quoted inside another (an error that quotes a request body).
    JSON.stringify(json).slice(1, -1),
    [...secret].map((char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
    ...base64Cores(bytes),
  ]);
  return [...forms].filter((form) => form.length >= MIN_SECRET_LENGTH);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Replaces every spelling of the given secrets in a text; returns the text as it is when there are none. */
export type Redact = (text: string) => string;

/**
 * A function that replaces every spelling of these secrets (see `secretSpellings`) with
 * `[redacted]`. For text that crosses out of a boundary where secrets live (an MCP server's
 * error, its stderr, a fetch error quoting a header): the secrets are the values read from the
 * environment and the credentials of the config, never anything a model sends. Values shorter
 * than `MIN_SECRET_LENGTH` are not looked for. A secret's line breaks are also looked for each
 * line alone, as a message may quote the lines apart.
 */
export function redactor(secrets: Iterable<string>): Redact {
  const forms = new Set<string>();
  for (const secret of secrets) {
    for (const part of [secret, ...secret.split(/[\r\n]+/)]) {
      if (part.length >= MIN_SECRET_LENGTH) for (const form of secretSpellings(part)) forms.add(form);
    }
  }
  if (forms.size === 0) return (text) => text;
  // Longest first, so a spelling that holds a shorter one is replaced whole.
  const pattern = new RegExp(
    [...forms]
      .sort((a, b) => b.length - a.length)
      .map(escapeRegExp)
      .join('|'),
    'giu',
  );
  return (text) => text.replace(pattern, REDACTED);
}

/** A JSON value with every string (keys included) passed through `redact`; the value itself when nothing changed. */
export function redactDeep<T>(value: T, redact: Redact): T {
  if (typeof value === 'string') return redact(value) as T;
  if (Array.isArray(value)) {
    const items = value.map((item) => redactDeep(item, redact));
    return (items.some((item, index) => item !== value[index]) ? items : value) as T;
  }
  if (typeof value === 'object' && value !== null) {
    let changed = false;
    // Object.fromEntries defines each key as its own: a "__proto__" key stays a key.
    const out = Object.fromEntries(
      Object.entries(value).map(([key, item]) => {
        const newKey = redact(key);
        const newItem = redactDeep(item, redact);
        if (newKey !== key || newItem !== item) changed = true;
        return [newKey, newItem];
      }),
    );
    return (changed ? out : value) as T;
  }
  return value;
}
