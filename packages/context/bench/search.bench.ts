// Tool search timings over 1,000 tools (the catalogue of real MCP servers and
// generated plugins), each case its own function in the same tinybench loop
// (vitest bench): one query per sample, rotating through the labelled tasks,
// against a word-overlap scan, with BM25 alone and fused with the embedding
// table; building the index against a deep copy of the definitions (what
// registry.list() makes); and reading the table from disk. Targets in
// bench/targets.json: search p99 <= 5 ms, a BM25 build's median <= 50 ms, a
// build with the table <= 200 ms, the table's load <= 100 ms.
import { readEmbedder } from '@toolshed/context-embeddings';
import { bench, describe } from 'vitest';
import { createToolIndex } from '../dist/index.js';
import { CATALOGUE } from './catalogue.js';
import { generatedPlugins } from './generated.js';
import { naiveIndex } from './naive-index.js';
import { TASKS } from './tasks.js';

const thousand = [...CATALOGUE, ...generatedPlugins(300).flatMap((plugin) => plugin.tools)].slice(0, 1000);
const queries = TASKS.map(([query]) => query);
const embedder = readEmbedder();
const index = createToolIndex(thousand);
const fused = createToolIndex(thousand, { embedder });
const naive = naiveIndex(thousand);
let ours = 0;
let theirs = 0;
let both = 0;

describe('search over 1,000 tools, one query', () => {
  bench('floor: word-overlap scan', () => {
    naive.search(queries[theirs++ % queries.length]!, 5);
  });
  bench('tool search (BM25)', () => {
    index.search(queries[ours++ % queries.length]!);
  });
  bench('tool search (BM25 + table)', () => {
    fused.search(queries[both++ % queries.length]!);
  });
});

describe('index build over 1,000 tools', () => {
  bench('floor: deep copy of the definitions', () => {
    JSON.parse(JSON.stringify(thousand));
  });
  bench('createToolIndex', () => {
    createToolIndex(thousand);
  });
  bench('createToolIndex with the table', () => {
    createToolIndex(thousand, { embedder });
  });
});

describe('embedding table', () => {
  bench('load: read and decode table and vocabulary', () => {
    readEmbedder();
  });
});
