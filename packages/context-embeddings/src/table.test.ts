import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createTextEmbedder, decodeTable, embed, encodeTable, loadEmbedder } from './index.js';
import { createWordPiece } from './wordpiece.js';

const data = (name: string) => readFileSync(new URL(`../data/${name}`, import.meta.url));

describe('the shipped table', () => {
  it('is the artifact the generator wrote: its sha256 sums match data/SHA256SUMS', () => {
    const sums = data('SHA256SUMS').toString('utf8').trim().split('\n');
    expect(sums.map((line) => line.split(/\s+/)[1]).sort()).toEqual(['table.bin', 'vocab.txt']);
    for (const line of sums) {
      const [sum, name] = line.split(/\s+/);
      expect(createHash('sha256').update(data(name!)).digest('hex'), name).toBe(sum);
    }
  });

  it('has one 256-dimension row per vocabulary entry', () => {
    const table = decodeTable(data('table.bin'));
    expect(table.rows).toBe(30522);
    expect(table.dimensions).toBe(256);
  });

  it('puts texts of like meaning nearer than unrelated ones', () => {
    const cosine = (a: string, b: string) => embed(a).reduce((sum, x, i) => sum + x * embed(b)[i]!, 0);
    expect(cosine('file a bug report', 'create an issue in the tracker')).toBeGreaterThan(
      cosine('file a bug report', 'what time is it in Tokyo'),
    );
    expect(cosine('take a photo of the page', 'capture a screenshot')).toBeGreaterThan(
      cosine('take a photo of the page', 'merge a pull request'),
    );
  });

  it('knows a word it holds whole, not one it must cut into pieces', () => {
    expect(loadEmbedder().knows('Email')).toBe(true);
    expect(loadEmbedder().knows('zzzqqq')).toBe(false);
    expect(loadEmbedder().knows('geocode')).toBe(false);
  });

  it('gives normalized vectors, the same for the same text', () => {
    const vector = loadEmbedder().embed('send an email to Bob');
    expect(vector).toHaveLength(256);
    expect(Math.hypot(...vector)).toBeCloseTo(1, 5);
    expect(embed('send an email to Bob')).toEqual(vector);
  });
});

describe('encodeTable and decodeTable', () => {
  const vocabulary = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', 'cat', 'dog'];
  const table = {
    rows: 6,
    dimensions: 2,
    scales: Float32Array.from([1, 1, 0.5, 0.5, 0.25, 2]),
    values: Int8Array.from([0, 0, 0, 0, 1, 0, 0, 1, 4, 0, 0, 1]),
  };

  it('round-trip a table, and the embedder averages [CLS], the pieces and [SEP]', () => {
    const decoded = decodeTable(encodeTable(table));
    expect(decoded).toEqual(table);
    const embedder = createTextEmbedder(decoded, createWordPiece(vocabulary), vocabulary);
    // [CLS] (0.5, 0) + cat (1, 0) + [SEP] (0, 0.5) = (1.5, 0.5), normalized.
    const [x, y] = embedder.embed('Cat');
    expect(x).toBeCloseTo(1.5 / Math.hypot(1.5, 0.5), 6);
    expect(y).toBeCloseTo(0.5 / Math.hypot(1.5, 0.5), 6);
  });

  it('refuses a file that is not a table or is cut short, saying to reinstall', () => {
    expect(() => decodeTable(new Uint8Array(20))).toThrow(/does not start with TSE1; reinstall/);
    expect(() => decodeTable(encodeTable(table).subarray(0, 30))).toThrow(/is 30 bytes, not the 52 its header promises/);
  });

  it('refuses a vocabulary that does not match the table', () => {
    expect(() => createTextEmbedder(table, createWordPiece(vocabulary), [...vocabulary, 'x'])).toThrow(/7 entries and the table 6 rows/);
  });
});
