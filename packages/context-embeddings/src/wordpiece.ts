/**
 * BERT's uncased tokenizer (BasicTokenizer, then WordPiece), as all-MiniLM-L6-v2 reads text:
 * control characters dropped, CJK ideographs split apart, lowercased, accents stripped,
 * punctuation split off, then each word cut greedily into the longest vocabulary pieces
 * (continuations prefixed `##`); a word that cannot be cut is `[UNK]`.
 */
export interface WordPiece {
  /** Vocabulary ids of the text's pieces, without `[CLS]` and `[SEP]`. */
  ids(text: string): number[];
  /** The pieces themselves, for reading. */
  pieces(text: string): string[];
}

const MAX_WORD_CHARS = 100;

function isControl(char: string): boolean {
  if (char === '\t' || char === '\n' || char === '\r') return false;
  return /^[\p{Cc}\p{Cf}]$/u.test(char);
}

function isPunctuation(char: string): boolean {
  const code = char.codePointAt(0)!;
  // BERT counts every non-alphanumeric ASCII sign as punctuation, `$` and `^` included.
  if ((code >= 33 && code <= 47) || (code >= 58 && code <= 64) || (code >= 91 && code <= 96) || (code >= 123 && code <= 126)) return true;
  return /^\p{P}$/u.test(char);
}

function isCjk(code: number): boolean {
  return (
    (code >= 0x4e00 && code <= 0x9fff) ||
    (code >= 0x3400 && code <= 0x4dbf) ||
    (code >= 0x20000 && code <= 0x2a6df) ||
    (code >= 0x2a700 && code <= 0x2b73f) ||
    (code >= 0x2b740 && code <= 0x2b81f) ||
    (code >= 0x2b820 && code <= 0x2ceaf) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0x2f800 && code <= 0x2fa1f)
  );
}

/** BasicTokenizer: the words and punctuation marks of a text, lowercased and without accents. */
export function basicTokens(text: string): string[] {
  let cleaned = '';
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (code === 0 || code === 0xfffd || isControl(char)) continue;
    if (/^\s$/u.test(char)) cleaned += ' ';
    else if (isCjk(code)) cleaned += ` ${char} `;
    else cleaned += char;
  }
  const words: string[] = [];
  for (const raw of cleaned.split(' ')) {
    if (raw === '') continue;
    const word = raw
      .toLowerCase()
      .normalize('NFD')
      .replace(/\p{Mn}/gu, '');
    let current = '';
    for (const char of word) {
      if (isPunctuation(char)) {
        if (current !== '') words.push(current);
        words.push(char);
        current = '';
      } else current += char;
    }
    if (current !== '') words.push(current);
  }
  return words;
}

/** A tokenizer over a vocabulary given in id order (line n of BERT's vocab.txt is id n). */
export function createWordPiece(vocabulary: readonly string[]): WordPiece {
  const ids = new Map<string, number>();
  vocabulary.forEach((token, id) => {
    if (!ids.has(token)) ids.set(token, id);
  });
  const unknown = ids.get('[UNK]');
  if (unknown === undefined) throw new Error('The vocabulary has no [UNK] entry; it is not a BERT WordPiece vocabulary.');

  const wordIds = (word: string): number[] => {
    const chars = [...word];
    if (chars.length > MAX_WORD_CHARS) return [unknown];
    const out: number[] = [];
    let start = 0;
    while (start < chars.length) {
      let end = chars.length;
      let found: number | undefined;
      while (start < end) {
        const piece = (start > 0 ? '##' : '') + chars.slice(start, end).join('');
        found = ids.get(piece);
        if (found !== undefined) break;
        end--;
      }
      if (found === undefined) return [unknown];
      out.push(found);
      start = end;
    }
    return out;
  };

  return {
    ids: (text) => basicTokens(text).flatMap(wordIds),
    pieces: (text) => basicTokens(text).flatMap((word) => wordIds(word).map((id) => vocabulary[id]!)),
  };
}
