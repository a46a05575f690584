// Phase 2: from the cached model vectors, builds the table that ships in ../data.
// PCA to 256 dimensions; each vocabulary entry's row starts as its own (projected) model vector;
// passes of SGD then fit the rows so that the mean of a sentence's rows ([CLS] and [SEP]
// included) approaches the model's projected, normalized sentence vector. The learning rate and
// number of passes are the ones that do best on held-out corpus sentences. Then int8 per row.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createTextEmbedder, createWordPiece, encodeTable } from '../dist/index.js';
import { mulberry32, shuffle } from './corpus.js';
import { vocabText } from './vocab-text.js';
import { fitPca, project } from './pca.js';

const MODEL_DIMS = 384;
const DIMS = 256;
const HELD_OUT = 1500;
const MAX_PASSES = 100;
const RATES = [0.05, 0.15, 0.3];

const vocab = JSON.parse(readFileSync('cache/vocab.json', 'utf8'));
const allSentences = JSON.parse(readFileSync('cache/sentences.json', 'utf8'));
const vocabVectors = new Float32Array(readFileSync('cache/vocab.f32').buffer.slice(0));
const sentenceVectors = new Float32Array(readFileSync('cache/sentences.f32').buffer.slice(0));
if (vocabVectors.length !== vocab.length * MODEL_DIMS) throw new Error('cache/vocab.f32 is incomplete: run embed-phase.js again');
const embedded = sentenceVectors.length / MODEL_DIMS;
const sentences = allSentences.slice(0, embedded);
const trainCount = embedded - HELD_OUT;
console.log(`${vocab.length} vocabulary entries; ${embedded} sentences: ${trainCount} to fit, ${HELD_OUT} held out`);

const started = Date.now();
const pca = fitPca(sentenceVectors.subarray(0, trainCount * MODEL_DIMS), trainCount, MODEL_DIMS, DIMS);
console.log(
  `PCA: ${DIMS} of ${MODEL_DIMS} dimensions keep ${(pca.explained * 100).toFixed(1)}% of the variance (${Date.now() - started} ms)`,
);

const normalize = (v) => {
  let n = 0;
  for (const x of v) n += x * x;
  n = Math.sqrt(n) || 1;
  for (let i = 0; i < v.length; i++) v[i] /= n;
  return v;
};
const targets = sentences.map((_, s) =>
  normalize(project(pca, sentenceVectors.subarray(s * MODEL_DIMS, (s + 1) * MODEL_DIMS), MODEL_DIMS, DIMS)),
);
const initial = new Float32Array(vocab.length * DIMS);
for (let v = 0; v < vocab.length; v++)
  initial.set(project(pca, vocabVectors.subarray(v * MODEL_DIMS, (v + 1) * MODEL_DIMS), MODEL_DIMS, DIMS), v * DIMS);

const wordPiece = createWordPiece(vocab);
const cls = vocab.indexOf('[CLS]');
const sep = vocab.indexOf('[SEP]');
const ids = sentences.map((text) => [cls, ...wordPiece.ids(text), sep]);

// Every vocabulary entry is fitted too, as a text of its own towards the model's vector of it: a
// word the corpus never uses still lands in the space the fitted rows moved to.
const anchors = [];
vocab.forEach((token, v) => {
  if (/^\[unused\d+\]$/.test(token)) return;
  const text = vocabText(token);
  const target = normalize(Float32Array.from(initial.subarray(v * DIMS, (v + 1) * DIMS)));
  anchors.push({ ids: [cls, ...wordPiece.ids(text), sep], target });
});
console.log(`${anchors.length} vocabulary entries fitted as texts of their own`);

function predict(table, tokenIds, out) {
  out.fill(0);
  for (const id of tokenIds) for (let d = 0; d < DIMS; d++) out[d] += table[id * DIMS + d];
  for (let d = 0; d < DIMS; d++) out[d] /= tokenIds.length;
  return out;
}

/** Mean cosine between table and model on held-out sentences, and (with `nearest`) how often a sentence's nearest model vector is its own. */
function heldOutScore(embedOf, nearest = false) {
  const predictions = [];
  let cosine = 0;
  for (let s = trainCount; s < embedded; s++) {
    const p = normalize(embedOf(s));
    predictions.push(p);
    let dot = 0;
    for (let d = 0; d < DIMS; d++) dot += p[d] * targets[s][d];
    cosine += dot / HELD_OUT;
  }
  if (!nearest) return { cosine };
  let top1 = 0;
  predictions.forEach((p, i) => {
    let best = -1;
    let bestScore = -2;
    for (let j = 0; j < HELD_OUT; j++) {
      let dot = 0;
      const t = targets[trainCount + j];
      for (let d = 0; d < DIMS; d++) dot += p[d] * t[d];
      if (dot > bestScore) [best, bestScore] = [j, dot];
    }
    if (best === i) top1++;
  });
  return { cosine, top1: top1 / HELD_OUT };
}

const scratch = new Float32Array(DIMS);
const tableScore = (table, nearest) => heldOutScore((s) => Float32Array.from(predict(table, ids[s], scratch)), nearest);
const format = ({ cosine, top1 }) =>
  `held-out cosine ${cosine.toFixed(4)}${top1 === undefined ? '' : `, nearest-is-own ${(top1 * 100).toFixed(1)}%`}`;
console.log(`before fitting: ${format(tableScore(initial, true))}`);

let best = { score: tableScore(initial), table: initial, rate: 0, passes: 0 };
for (const rate of RATES) {
  const table = Float32Array.from(initial);
  const items = [...ids.slice(0, trainCount).map((tokenIds, s) => ({ ids: tokenIds, target: targets[s] })), ...anchors];
  const order = Array.from({ length: items.length }, (_, i) => i);
  const random = mulberry32(1);
  let rateBest = -1;
  let sinceBest = 0;
  for (let pass = 1; pass <= MAX_PASSES && sinceBest < 3; pass++) {
    for (const i of shuffle(order, random)) {
      const { ids: tokenIds, target } = items[i];
      const prediction = predict(table, tokenIds, scratch);
      // The step moves the sentence's mean by `rate` of its error, whatever its length.
      for (let d = 0; d < DIMS; d++) prediction[d] = rate * (prediction[d] - target[d]);
      for (const id of tokenIds) for (let d = 0; d < DIMS; d++) table[id * DIMS + d] -= prediction[d];
    }
    const score = tableScore(table);
    console.log(`rate ${rate}, pass ${pass}: ${format(score)}`);
    if (score.cosine > best.score.cosine) best = { score, table: Float32Array.from(table), rate, passes: pass };
    // Stops a rate once three passes in a row did not beat its own best.
    if (score.cosine > rateBest) [rateBest, sinceBest] = [score.cosine, 0];
    else sinceBest++;
  }
}
console.log(`chosen: rate ${best.rate}, ${best.passes} passes: ${format(tableScore(best.table, true))}`);

const scales = new Float32Array(vocab.length);
const values = new Int8Array(vocab.length * DIMS);
for (let v = 0; v < vocab.length; v++) {
  let max = 0;
  for (let d = 0; d < DIMS; d++) max = Math.max(max, Math.abs(best.table[v * DIMS + d]));
  const scale = max / 127 || 1;
  scales[v] = scale;
  for (let d = 0; d < DIMS; d++) values[v * DIMS + d] = Math.round(best.table[v * DIMS + d] / scale);
}
const table = { rows: vocab.length, dimensions: DIMS, scales, values };
const quantized = createTextEmbedder(table, wordPiece, vocab);
console.log(`int8: ${format(heldOutScore((s) => quantized.embed(sentences[s]), true))}`);

const files = { 'vocab.txt': Buffer.from(`${vocab.join('\n')}\n`), 'table.bin': Buffer.from(encodeTable(table)) };
let sums = '';
for (const [name, bytes] of Object.entries(files)) {
  writeFileSync(new URL(`../data/${name}`, import.meta.url), bytes);
  sums += `${createHash('sha256').update(bytes).digest('hex')}  ${name}\n`;
}
writeFileSync(new URL('../data/SHA256SUMS', import.meta.url), sums);
process.stdout.write(`wrote ../data (sha256):\n${sums}`);
