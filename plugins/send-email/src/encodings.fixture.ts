import fc from 'fast-check';

/**
 * The ways a careless SMTP server (or anything between) could spell a password back:
 * each is written here from its definition, not taken from the code under test.
 */

const hexOf = (text: string) => Buffer.from(text, 'utf8').toString('hex');
const percentAll = (text: string) => hexOf(text).replace(/(..)/g, '%$1');

export const CASES = {
  asIs: (s: string) => s,
  upper: (s: string) => s.toUpperCase(),
  lower: (s: string) => s.toLowerCase(),
  swapped: (s: string) => [...s].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join(''),
} as const;

export const ENCODERS = {
  base64: (s: string) => Buffer.from(s).toString('base64'),
  base64Unpadded: (s: string) => Buffer.from(s).toString('base64').replace(/=+$/, ''),
  base64url: (s: string) => Buffer.from(s).toString('base64url'),
  uriComponent: (s: string) => encodeURIComponent(s),
  uriComponentLower: (s: string) => encodeURIComponent(s).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()),
  percentUpper: (s: string) => percentAll(s).toUpperCase(),
  percentLower: (s: string) => percentAll(s),
  form: (s: string) => new URLSearchParams({ p: s }).toString().slice(2),
  hexLower: (s: string) => hexOf(s),
  hexUpper: (s: string) => hexOf(s).toUpperCase(),
  json: (s: string) => JSON.stringify(s).slice(1, -1),
  jsonUnicode: (s: string) => [...s].map((c) => [...c].map((u) => `\\u${u.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')).join(''),
  // AUTH PLAIN as nodemailer sends it, and AUTH LOGIN's base64 of the password alone.
  authPlain: (s: string) => Buffer.from(`\0agent@example.com\0${s}`).toString('base64'),
} as const;

export type CaseName = keyof typeof CASES;
export type EncoderName = keyof typeof ENCODERS;

/** How one test spells the password: a letter case, then one or two encodings applied in turn. */
export interface Spelling {
  letterCase: CaseName;
  encoders: EncoderName[];
}

export function spell(password: string, spelling: Spelling): string {
  return spelling.encoders.reduce((text, name) => ENCODERS[name](text), CASES[spelling.letterCase](password));
}

/** Every single-step form of the password, to look for in what left the plugin. */
export function simpleForms(password: string): string[] {
  const forms = new Set<string>();
  for (const letterCase of Object.values(CASES)) {
    const cased = letterCase(password);
    forms.add(cased);
    for (const encode of Object.values(ENCODERS)) forms.add(encode(cased));
  }
  return [...forms];
}

// Letters (with case), digits, symbols that each encoding treats specially (space for form
// encoding, % for percent, " and \ for JSON, + / = for base64) and a few non-ASCII letters.
const PASSWORD_CHARS = [
  ...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789',
  ...' !"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~',
  'é',
  'Ü',
  'ñ',
  '密',
];

export const passwordArb = fc.array(fc.constantFrom(...PASSWORD_CHARS), { minLength: 8, maxLength: 20 }).map((chars) => chars.join(''));

export const spellingArb: fc.Arbitrary<Spelling> = fc.record({
  letterCase: fc.constantFrom(...(Object.keys(CASES) as CaseName[])),
  encoders: fc.array(fc.constantFrom(...(Object.keys(ENCODERS) as EncoderName[])), { minLength: 0, maxLength: 2 }),
});

/** Words around the secret in a reply, as a server would write them (no control characters). */
export const wordsArb = fc.constantFrom('', 'Bad credentials', 'pass=', 'auth failed for', '(', '"password":"', 'token:', 'x');

/** Where a reply is split over two lines: a fraction of the way through the spelled secret, or not at all. */
export const splitArb = fc.option(fc.double({ min: 0.1, max: 0.9, noNaN: true }), { nil: undefined });

/** The reply lines: one line, or the secret cut in two with the cut falling between lines. */
export function replyLines(before: string, secret: string, after: string, split: number | undefined): string[] {
  // Joined with single spaces, never trimmed: a space of the secret at a cut stays in the reply.
  const line = (...parts: string[]) => parts.filter((part) => part !== '').join(' ');
  if (split === undefined || secret.length < 2) return [line(before, secret, after)];
  const at = cut(secret, split);
  return [line(before, secret.slice(0, at)), line(secret.slice(at), after)];
}

/** Where `split` (a fraction) cuts `secret`: never before its first or after its last character. */
export function cut(secret: string, split: number | undefined): number {
  return split === undefined ? secret.length : Math.min(secret.length - 1, Math.max(1, Math.round(secret.length * split)));
}
