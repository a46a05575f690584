import { createTextEmbedder, type TextEmbedder } from './embedder.js';
import { decodeTable } from './table.js';
import { createWordPiece } from './wordpiece.js';

const { readFileSync } = process.getBuiltinModule('node:fs');

export type { TextEmbedder } from './embedder.js';
export { createTextEmbedder } from './embedder.js';
export type { EmbeddingTable } from './table.js';
export { decodeTable, encodeTable } from './table.js';
export type { WordPiece } from './wordpiece.js';
export { basicTokens, createWordPiece } from './wordpiece.js';

let loaded: TextEmbedder | undefined;

function readData(name: string): Buffer {
  const url = new URL(`../data/${name}`, import.meta.url);
  try {
    return readFileSync(url);
  } catch (error) {
    throw new Error(
      `Cannot read ${url.pathname} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); reinstall @toolshed/context-embeddings.`,
    );
  }
}

/** The shipped table and vocabulary, read from disk now (`loadEmbedder` reads them once). */
export function readEmbedder(): TextEmbedder {
  const vocabulary = readData('vocab.txt').toString('utf8').split('\n');
  if (vocabulary.at(-1) === '') vocabulary.pop();
  return createTextEmbedder(decodeTable(readData('table.bin')), createWordPiece(vocabulary), vocabulary);
}

/** The shipped table and vocabulary, read once on first use. */
export function loadEmbedder(): TextEmbedder {
  loaded ??= readEmbedder();
  return loaded;
}

/** The text's vector in the shipped table's space, normalized: compare two with a dot product. */
export function embed(text: string): Float32Array {
  return loadEmbedder().embed(text);
}
