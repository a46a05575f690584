import type { EmbeddingTable } from './table.js';
import type { WordPiece } from './wordpiece.js';

export interface TextEmbedder {
  readonly dimensions: number;
  /** The text's vector, of length 1 (all zeros for a text with no piece). */
  embed(text: string): Float32Array;
  /** Whether the vocabulary holds the word whole (lowercased, without accents), rather than in pieces or not at all. */
  knows(word: string): boolean;
}

/**
 * A sentence's vector is the mean of its pieces' rows, `[CLS]` and `[SEP]` included as the
 * model reads them, normalized: the table was fitted so that this mean approximates
 * all-MiniLM-L6-v2's sentence embedding.
 */
export function createTextEmbedder(table: EmbeddingTable, wordPiece: WordPiece, vocabulary: readonly string[]): TextEmbedder {
  const cls = vocabulary.indexOf('[CLS]');
  const sep = vocabulary.indexOf('[SEP]');
  if (cls < 0 || sep < 0) throw new Error('The vocabulary has no [CLS] or [SEP] entry; it is not a BERT WordPiece vocabulary.');
  if (vocabulary.length !== table.rows)
    throw new Error(`The vocabulary has ${vocabulary.length} entries and the table ${table.rows} rows; they must be one per entry.`);
  const { dimensions, scales, values } = table;
  return {
    dimensions,
    embed(text) {
      if (typeof text !== 'string') throw new TypeError(`embed expects a string, got ${typeof text}.`);
      const sum = new Float32Array(dimensions);
      for (const id of [cls, ...wordPiece.ids(text), sep]) {
        const scale = scales[id]!;
        const offset = id * dimensions;
        for (let d = 0; d < dimensions; d++) sum[d]! += values[offset + d]! * scale;
      }
      let norm = 0;
      for (let d = 0; d < dimensions; d++) norm += sum[d]! * sum[d]!;
      norm = Math.sqrt(norm);
      if (norm > 0) for (let d = 0; d < dimensions; d++) sum[d]! /= norm;
      return sum;
    },
    knows(word) {
      const ids = wordPiece.ids(word);
      return ids.length === 1 && vocabulary[ids[0]!] !== '[UNK]';
    },
  };
}
