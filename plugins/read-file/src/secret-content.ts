/**
 * Whether text holds a secret whatever the file's name: a private key block
 * with its key data (PEM, OpenSSH, PGP, SSH2, also inside a JSON or YAML
 * string and base64-encoded as in a kubeconfig), a PuTTY key, or a Google
 * Cloud credential (a service-account key or a user's refresh token). Which
 * bytes of a file are looked at is read-file-tool's choice (the README's
 * *Secrets by their content*); this only says what counts.
 *
 * A marker alone is not a key: `-----BEGIN PRIVATE KEY-----` in prose or in a
 * code example followed by `...` stays readable. A block counts when key data
 * follows its marker: at least {@link KEY_DATA} base64 characters, after
 * blank space, `\n` escapes and up to six RFC 1421 headers (`Proc-Type:`,
 * `DEK-Info:`, `Version:`, `Comment:`).
 */
export type SecretContent = 'private-key' | 'google-credential';

// Every private key's data runs longer than this; prose and placeholders do not.
const KEY_DATA = 40;
const MARKER = 'PRIVATE KEY';
// Before "PRIVATE KEY": the dashes, BEGIN and a label (RSA, EC, OPENSSH, ENCRYPTED, PGP, SSH2 ENCRYPTED...).
const OPENING = /-{4,5} ?BEGIN [A-Z0-9 ]{0,40}$/;
// After it: the marker's end, then key data. Each quantifier is bounded, so one marker costs a bounded look.
const SPACE = String.raw`(?:\s|\\r|\\n){0,40}`;
const HEADER = String.raw`[A-Za-z][A-Za-z0-9-]{0,40}: [^\r\n\\]{0,200}(?:\r?\n|\\r\\n|\\n)`;
const KEY_AFTER_MARKER = new RegExp(String.raw`^(?: BLOCK)? ?-{4,5}${SPACE}(?:${HEADER}${SPACE}){0,6}[A-Za-z0-9+/=]{${KEY_DATA}}`);
const PUTTY = /^PuTTY-User-Key-File-\d+: /m;
const GOOGLE_TYPE = /"type"\s*:\s*"(service_account|authorized_user)"/;
const GOOGLE_SECRET = { service_account: /"private_key"\s*:\s*"/, authorized_user: /"refresh_token"\s*:\s*"/ } as const;

// "-----BEGIN " in base64, at each of the three alignments it can have in an encoded blob, and how
// many characters before the match its 4-character group starts (a kubeconfig's client-key-data).
const ENCODED_OPENINGS = [0, 1, 2].map((shift) => {
  const encoded = Buffer.from(`${'\0'.repeat(shift)}-----BEGIN `).toString('base64');
  const back = shift === 0 ? 0 : 4;
  return { needle: encoded.slice(back, Math.floor((shift + 11) / 3) * 4), back };
});
// Enough base64 to hold a marker and the key data after it.
const ENCODED_WINDOW = 4 * 64;

/** What secret `text` holds, if any. Latin-1 text is fine: every marker is ASCII. */
export function secretIn(text: string): SecretContent | undefined {
  if (privateKeyIn(text) || PUTTY.test(text) || encodedPrivateKeyIn(text)) return 'private-key';
  const google = GOOGLE_TYPE.exec(text);
  if (google && GOOGLE_SECRET[google[1] as keyof typeof GOOGLE_SECRET].test(text)) return 'google-credential';
  return undefined;
}

function privateKeyIn(text: string): boolean {
  for (let at = text.indexOf(MARKER); at !== -1; at = text.indexOf(MARKER, at + 1)) {
    if (!OPENING.test(text.slice(Math.max(0, at - 60), at))) continue;
    if (KEY_AFTER_MARKER.test(text.slice(at + MARKER.length, at + MARKER.length + 2048))) return true;
  }
  return false;
}

function encodedPrivateKeyIn(text: string): boolean {
  for (const { needle, back } of ENCODED_OPENINGS) {
    for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + 1)) {
      const start = at - back;
      if (start < 0) continue;
      const blob = /^[A-Za-z0-9+/]*/.exec(text.slice(start, start + ENCODED_WINDOW))![0];
      if (privateKeyIn(Buffer.from(blob.slice(0, blob.length - (blob.length % 4)), 'base64').toString('latin1'))) return true;
    }
  }
  return false;
}

/** The refusal's reason, in the words of the file. */
export function secretReason(secret: SecretContent): string {
  return secret === 'private-key'
    ? 'it holds a private key (a "-----BEGIN … PRIVATE KEY-----" block with key data, or a PuTTY key), and private keys are never read, whatever the file is called'
    : 'it is a Google Cloud credential (a "service_account" key or an "authorized_user" refresh token), which is never read, whatever the file is called';
}
