import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { basicTokens, createWordPiece } from './wordpiece.js';

const shipped = readFileSync(new URL('../data/vocab.txt', import.meta.url), 'utf8')
  .trimEnd()
  .split('\n');

describe('basicTokens', () => {
  it('lowercases, strips accents and splits punctuation off words as BERT uncased does', () => {
    expect(basicTokens('Héllo, WORLD! read_text_file $5')).toEqual([
      'hello',
      ',',
      'world',
      '!',
      'read',
      '_',
      'text',
      '_',
      'file',
      '$',
      '5',
    ]);
  });

  it('drops control characters and splits CJK ideographs one by one', () => {
    expect(basicTokens('a\u0000b\u200bc 東京\tx')).toEqual(['abc', '東', '京', 'x']);
  });
});

describe('createWordPiece', () => {
  const tiny = createWordPiece(['[PAD]', '[UNK]', 'un', '##aff', '##able', 'runn', '##ing', ',']);

  it('cuts a word greedily into the longest pieces, continuations marked ##', () => {
    expect(tiny.pieces('unaffable, running')).toEqual(['un', '##aff', '##able', ',', 'runn', '##ing']);
    expect(tiny.ids('unaffable')).toEqual([2, 3, 4]);
  });

  it('gives [UNK] for a word that cannot be cut whole, not for its pieces', () => {
    expect(tiny.pieces('unx running')).toEqual(['[UNK]', 'runn', '##ing']);
  });

  it('refuses a vocabulary without [UNK]', () => {
    expect(() => createWordPiece(['a', 'b'])).toThrow(/no \[UNK\]/);
  });

  it("reads the shipped vocabulary as all-MiniLM-L6-v2's tokenizer does", () => {
    const wordPiece = createWordPiece(shipped);
    expect(shipped).toHaveLength(30522);
    expect(wordPiece.pieces('Post a message to the #random Slack channel')).toEqual([
      'post',
      'a',
      'message',
      'to',
      'the',
      '#',
      'random',
      'slack',
      'channel',
    ]);
    expect(wordPiece.pieces('geocode the Eiffel Tower')).toEqual(['geo', '##code', 'the', 'e', '##iff', '##el', 'tower']);
  });
});
