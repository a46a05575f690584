/**
 * A subject must stay one line once a mail client has decoded it: RFC 2047
 * encoded-words (`=?UTF-8?Q?…?=`) can carry CR, LF and other controls that the
 * input schema cannot see. The words are decoded with libmime (nodemailer's own
 * MIME library, loaded only when a subject holds an encoded-word) and the result
 * is checked again, a few layers deep in case a decoded word holds another.
 */

// CR, LF and the other C0 controls except tab, DEL, the C1 controls (NEL among them),
// and the Unicode line and paragraph separators: anything a reader may take as a line break.
const NOT_ONE_LINE = /[\u0000-\u0008\u000A-\u001F\u007F-\u009F\u2028\u2029]/;
const ENCODED_WORD = /=\?[^?\s]+\?[bq]\?[^?]*\?=/i;
const LAYERS = 3;

/** A description of what is wrong with the subject once decoded, or undefined when it is fine. */
export async function decodedSubjectProblem(subject: string): Promise<string | undefined> {
  let text = subject;
  for (let layer = 0; layer < LAYERS && ENCODED_WORD.test(text); layer++) {
    const { default: libmime } = await import('libmime');
    const decoded = libmime.decodeWords(text);
    if (NOT_ONE_LINE.test(decoded)) {
      const found = NOT_ONE_LINE.exec(decoded)![0];
      return `its encoded-word (=?charset?Q/B?...?=) decodes to ${describeChar(found)}, which is not allowed in a one-line subject`;
    }
    if (decoded === text) break;
    text = decoded;
  }
  return undefined;
}

function describeChar(char: string): string {
  const code = char.codePointAt(0)!;
  const name =
    code === 0x0d
      ? 'a carriage return (CR)'
      : code === 0x0a
        ? 'a line feed (LF)'
        : code === 0x2028
          ? 'a line separator (U+2028)'
          : code === 0x2029
            ? 'a paragraph separator (U+2029)'
            : 'a control character';
  return `${name} U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
}
