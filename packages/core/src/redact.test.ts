import { describe, expect, it } from 'vitest';
import { REDACTED, redactDeep, redactor } from './redact.js';

// Each spelling written here from its definition (Buffer, the URL and JSON built-ins), not
// from the code under test, so a spelling the redactor forgets fails here.
const hexOf = (text: string) => Buffer.from(text, 'utf8').toString('hex');
const SPELLINGS: Record<string, (secret: string) => string> = {
  raw: (s) => s,
  upper: (s) => s.toUpperCase(),
  lower: (s) => s.toLowerCase(),
  uriComponent: (s) => encodeURIComponent(s),
  uriComponentLower: (s) => encodeURIComponent(s).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()),
  form: (s) => new URLSearchParams({ p: s }).toString().slice(2),
  percentEvery: (s) => hexOf(s).replace(/(..)/g, '%$1'),
  percentEveryUpper: (s) => hexOf(s).replace(/(..)/g, '%$1').toUpperCase(),
  hex: (s) => hexOf(s),
  hexUpper: (s) => hexOf(s).toUpperCase(),
  base64: (s) => Buffer.from(s).toString('base64'),
  base64Unpadded: (s) => Buffer.from(s).toString('base64').replace(/=+$/, ''),
  base64url: (s) => Buffer.from(s).toString('base64url'),
  // The secret inside a longer base64 text, at each of the three alignments.
  basicAuthAsUser: (s) => Buffer.from(`${s}:pw`).toString('base64'),
  basicAuthAsPassword1: (s) => Buffer.from(`u:${s}`).toString('base64'),
  basicAuthAsPassword2: (s) => Buffer.from(`us:${s}`).toString('base64'),
  basicAuthAsPassword3: (s) => Buffer.from(`usr:${s}`).toString('base64'),
  json: (s) => JSON.stringify(s).slice(1, -1),
  jsonInJson: (s) => JSON.stringify(JSON.stringify(s)).slice(1, -1),
  jsonUnicode: (s) => [...s].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
};

// Letters, digits, the characters each encoding treats specially (space, %, ", \, + / =),
// non-ASCII letters, and a line break (a token read with $(cat file) from a two-line file).
const SECRETS = ['tok-3f9a1c-secret', 'p@ss w%rd+/="\\x', 'çlé-密码-ÜñÖ', 'line-one-abc\nline-two-xyz', 'Zm9vYmFyYmF6'];

describe('redactor', () => {
  for (const secret of SECRETS) {
    for (const [name, spell] of Object.entries(SPELLINGS)) {
      it(`removes ${JSON.stringify(secret)} spelled ${name}, keeping the words around it`, () => {
        const text = `fetch failed: header "Authorization: Bearer ${spell(secret)}" is invalid`;
        const out = redactor([secret])(text);
        for (const form of Object.values(SPELLINGS)) expect(out).not.toContain(form(secret));
        expect(out).toContain('fetch failed: header "Authorization: Bearer ');
        expect(out).toContain(REDACTED);
      });
    }
  }

  it('finds each line of a two-line secret quoted apart', () => {
    const out = redactor(['line-one-abc\nline-two-xyz'])('got "line-one-abc" and then "line-two-xyz"');
    expect(out).toBe(`got "${REDACTED}" and then "${REDACTED}"`);
  });

  it('leaves text without a secret, and secrets too short to mean anything, as they are', () => {
    const text = 'the server answered 1 and json';
    expect(redactor([])(text)).toBe(text);
    expect(redactor(['1', 'json', ''])(text)).toBe(text);
    expect(redactor(['sk-long-secret'])(text)).toBe(text);
  });

  it('treats a secret as text, never as a pattern', () => {
    expect(redactor(['.*.*.*.*'])('nothing here')).toBe('nothing here');
    expect(redactor(['(a+)+$x'])('aaaa (a+)+$x')).toBe(`aaaa ${REDACTED}`);
  });
});

describe('redactDeep', () => {
  it('redacts every string of a JSON value, keys included, and returns an untouched value itself', () => {
    const redact = redactor(['sk-deep-9981']);
    const value = { content: [{ type: 'text', text: 'key sk-deep-9981' }], 'sk-deep-9981': 1, n: 2, ok: true, none: null };
    expect(redactDeep(value, redact)).toEqual({
      content: [{ type: 'text', text: `key ${REDACTED}` }],
      [REDACTED]: 1,
      n: 2,
      ok: true,
      none: null,
    });
    const clean = { a: ['b', { c: 'd' }] };
    expect(redactDeep(clean, redact)).toBe(clean);
  });

  it('keeps a "__proto__" key a key, never the prototype', () => {
    const value = JSON.parse('{"__proto__": {"polluted": "sk-deep-9981"}}') as Record<string, unknown>;
    const out = redactDeep(value, redactor(['sk-deep-9981']));
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.hasOwn(out, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
