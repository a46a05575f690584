/**
 * The second line of defence for the SMTP password. The first is that no text
 * an SMTP server sends reaches any output at all (see replies.ts); what is left
 * is text made on this machine (Node's and nodemailer's error messages), which
 * passes through here before it leaves the plugin.
 *
 * A text is looked at in many decoded views (reply lines joined, percent and
 * form decoding, JSON escapes, hex, base64 and base64url at every alignment, and
 * those stacked up to three deep), each compared without regard to letter case.
 * If any view holds the password, the whole text is withheld: cutting out one
 * spelling of it would leave the others.
 */

export const WITHHELD = '[text withheld: it contained the SMTP password in some encoding]';

/** Decoded views deeper than this are not made; three covers two encodings stacked on a password split over two lines. */
const DEPTH = 3;
/** A bound on the work for one text, whatever it holds. */
const MAX_VIEWS = 4000;

type Decoder = (text: string) => string[];

// A reply split over lines arrives as "535-5.7.8 first\n535 5.7.8 second". The codes that
// start each line are dropped before anything else (as a view beside the text itself); then
// lines may be joined where they were folded, or all white space dropped (a fold may add or
// lose a space, or cut a run of hex or base64 in two).
const LINE_CODES = /(^|\n)\d{3}[ -](?:\d\.\d{1,3}\.\d{1,3} ?)?/g;
const joinLines: Decoder = (text) => [text.replace(/\r?\n/g, ''), text.replace(/\s+/g, '')];

const percent = (text: string) => text.replace(/(?:%[0-9a-f]{2})+/gi, (run) => Buffer.from(run.replace(/%/g, ''), 'hex').toString('utf8'));
const urlDecoders: Decoder = (text) => [percent(text), percent(text.replace(/\+/g, ' '))];

const json: Decoder = (text) => [
  text.replace(/\\u([0-9a-f]{4})|\\(["\\/bfnrt])/gi, (_, hex: string | undefined, char: string | undefined) => {
    if (hex !== undefined) return String.fromCharCode(parseInt(hex, 16));
    return { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' }[char!]!;
  }),
];

// Runs of hex digits, read from the first and from the second digit (an odd run may start mid-byte).
const hex: Decoder = (text) =>
  [0, 1].map((skip) =>
    text.replace(
      /[0-9a-f]{4,}/gi,
      (run) => run.slice(0, skip) + Buffer.from(run.slice(skip, skip + ((run.length - skip) & ~1)), 'hex').toString('utf8'),
    ),
  );

// Runs of the base64 and base64url alphabets, with or without padding, read from each of
// four starting characters (the password may sit at any byte offset of a longer blob, as in AUTH PLAIN).
const base64: Decoder = (text) =>
  [0, 1, 2, 3].map((skip) =>
    text.replace(/[A-Za-z0-9+/_-]{2,}={0,2}/g, (run) => {
      const body = run.replace(/=+$/, '').replace(/-/g, '+').replace(/_/g, '/');
      return run.slice(0, skip) + Buffer.from(body.slice(skip), 'base64').toString('utf8');
    }),
  );

const DECODERS: Decoder[] = [joinLines, urlDecoders, json, hex, base64];

export class Scrubber {
  readonly #secrets: string[];

  constructor(password: string | undefined) {
    this.#secrets = password ? [password.toLowerCase()] : [];
  }

  /** Whether the text holds a secret in any view. */
  leaks(text: string): boolean {
    if (this.#secrets.length === 0 || text === '') return false;
    const layer0 = [...new Set([text, text.replace(LINE_CODES, '$1')])];
    const seen = new Set<string>(layer0);
    let layer = layer0;
    for (let depth = 0; depth <= DEPTH; depth++) {
      const next: string[] = [];
      for (const view of layer) {
        const lower = view.toLowerCase();
        // Each half of a secret may have been decoded on its own line: compare without white space too.
        const squeezed = lower.replace(/\s+/g, '');
        if (this.#secrets.some((secret) => lower.includes(secret) || squeezed.includes(secret.replace(/\s+/g, '')))) return true;
        if (depth === DEPTH) continue;
        for (const decode of DECODERS) {
          for (const decoded of decode(view)) {
            if (seen.has(decoded)) continue;
            // Past the bound, assume the worst rather than let a crafted text through unchecked.
            if (seen.size >= MAX_VIEWS) return true;
            seen.add(decoded);
            next.push(decoded);
          }
        }
      }
      layer = next;
    }
    return false;
  }

  /** The text itself, or a fixed notice in its place when it holds a secret in any view. */
  scrub(text: string): string {
    return this.leaks(text) ? WITHHELD : text;
  }
}
