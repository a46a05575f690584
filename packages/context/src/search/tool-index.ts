import MiniSearch from 'minisearch';
import { stemmer } from 'stemmer';
import type { TextEmbedder } from './embedder.js';
import { synonymsOf } from './synonyms.js';

/** What the index reads of a tool: plain data, so tools from any source can be indexed. */
export interface SearchableTool {
  name: string;
  description: string;
  inputSchema?: unknown;
}

/** Which ranking ran: BM25 alone, or BM25 fused with the embedding table by reciprocal rank. */
export type Ranker = 'bm25' | 'bm25+embeddings';

export interface SearchHit {
  name: string;
  /** What the hits are ordered by: the BM25 score, or the fused reciprocal-rank score. Comparable within one search only. */
  score: number;
  /**
   * Each ranker's own score: BM25's (absent when no word matched), and with the embedding ranker its
   * cosine, less what a tool more generic than most of the catalogue loses (absent below 0).
   */
  scores: { bm25?: number; embedding?: number };
}

export interface ToolIndexOptions {
  /** Ranks by meaning too, fused with BM25; `loadEmbedder()` gives the installed one. */
  embedder?: TextEmbedder;
}

export interface SearchOptions {
  /** How many hits at most (default 5). */
  limit?: number;
}

export interface ToolIndex {
  readonly size: number;
  readonly ranker: Ranker;
  /** The best matches first; none for a query with no word the index knows. */
  search(query: string, options?: SearchOptions): SearchHit[];
}

export const DEFAULT_SEARCH_LIMIT = 5;
const SYNONYM_WEIGHT = 0.4;
// Reciprocal rank fusion's constant, as its authors chose it: ranks past the first few count nearly alike.
const RRF_K = 60;
// Below this cosine a tool is not a match by meaning: unrelated texts sit near 0 or under it.
const MIN_COSINE = 0;
// Long descriptions are mostly about parameters and caveats; their opening says what the tool does.
const MAX_EMBEDDED_CHARS = 600;

// What one tool can buy with its own text is bounded, so that a plugin or MCP server cannot put its
// definition before the model in most conversations by stuffing it with words (bench/stuffed-tool.js
// is such a tool; bench/quality.js counts how often it comes first, per ranker). The bounds were
// chosen on the tuned tasks and checked on every set.
//
// BM25: each field counts a word once (repeating it adds nothing) and indexes only its first
// distinct words (what a tool does is said first; the reference servers' descriptions have 10 in
// the median), so a text that names every subject cannot reach every query.
const MAX_FIELD_TERMS = 24;
// Plain BM25 rather than BM25+ (MiniSearch's default adds 0.5 for every matched word): that floor
// is not reduced by length normalization, so a text of every word collected it for every query.
const BM25_PARAMS = { k: 1.2, b: 0.7, d: 0 };
// The embedding: a word counts at most this many times in the embedded text, since repeating one
// pulls the vector towards it; real descriptions seldom say a word more often.
const MAX_WORD_REPEATS = 3;
// A text about everything embeds near the mean of all tools, close to every query and to none in
// particular. A tool nearer the catalogue's mean than nine in ten of its tools loses twice the excess
// from every cosine: the usual tools lose nothing, and a tool the catalogue mostly is not cannot move
// that line.
const GENERIC_QUANTILE = 0.9;
const GENERIC_PENALTY = 2;

// Words that say nothing about which tool is meant; stemmed like every other term.
const STOP_WORDS = new Set(
  'a an and are as at be by can could do does for from give how i in into is it its me my of on or please should some than that the their them then there these this to up use using want we what when where which will with would you your'.split(
    ' ',
  ),
);

/** Words of names and prose alike: `read_text_file`, `readTextFile` and `read text file` give the same terms. */
function tokenize(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '');
}

// Stemming is most of the cost of building an index; tool texts share most of their words.
const STEMS = new Map<string, string | null>();
const MAX_STEMS = 50_000;

function processTerm(term: string): string | null {
  const known = STEMS.get(term);
  if (known !== undefined) return known;
  const word = term.toLowerCase();
  const stem = STOP_WORDS.has(word) ? null : stemmer(word);
  // Bounded: queries bring words of their own.
  if (STEMS.size >= MAX_STEMS) STEMS.clear();
  STEMS.set(term, stem);
  return stem;
}

/**
 * Parameter names, then their descriptions, nested objects and array items included: names first,
 * so that the words a field indexes (MAX_FIELD_TERMS) are the names before any prose.
 */
function parameterText(schema: unknown): string {
  const names: string[] = [];
  const descriptions: string[] = [];
  const visit = (node: unknown, depth: number): void => {
    if (typeof node !== 'object' || node === null || depth > 6) return;
    const { properties } = node as Record<string, unknown>;
    if (typeof properties === 'object' && properties !== null) {
      for (const [key, value] of Object.entries(properties)) {
        names.push(key);
        const description = (value as { description?: unknown } | null)?.description;
        if (typeof description === 'string') descriptions.push(description);
        visit(value, depth + 1);
      }
    }
    for (const key of ['items', 'anyOf', 'oneOf', 'allOf']) {
      const child = (node as Record<string, unknown>)[key];
      for (const item of Array.isArray(child) ? child : [child]) visit(item, depth + 1);
    }
  };
  visit(schema, 0);
  return [...names, ...descriptions].join(' ');
}

/** A field's words as BM25 indexes them: each distinct term once, the first MAX_FIELD_TERMS of them. */
function fieldTerms(text: string): string[] {
  const seen = new Set<string>();
  const kept: string[] = [];
  for (const word of tokenize(text)) {
    const term = processTerm(word);
    if (term === null || seen.has(term)) continue;
    seen.add(term);
    kept.push(word);
    if (kept.length === MAX_FIELD_TERMS) break;
  }
  return kept;
}

function checkTools(tools: readonly SearchableTool[]): void {
  if (!Array.isArray(tools))
    throw new TypeError('createToolIndex expects an array of tool definitions ({name, description, inputSchema}).');
  const seen = new Set<string>();
  tools.forEach((tool, index) => {
    if (typeof tool?.name !== 'string' || tool.name === '')
      throw new TypeError(`Tool definition [${index}] has no "name" (a non-empty string).`);
    if (typeof tool.description !== 'string')
      throw new TypeError(`Tool definition [${index}] (${tool.name}) has no "description" (a string).`);
    if (seen.has(tool.name))
      throw new TypeError(`Tool definition [${index}]: the name "${tool.name}" is given twice; tool names are unique.`);
    seen.add(tool.name);
  });
}

function bm25Index(tools: readonly SearchableTool[]): MiniSearch {
  const index = new MiniSearch<{ id: string; name: string; description: string; params: string }>({
    fields: ['name', 'description', 'params'],
    // MiniSearch names the field when it indexes a document, and none when it reads a query.
    tokenize: (text, field) => (field === undefined ? tokenize(text) : fieldTerms(text)),
    processTerm,
    searchOptions: {
      bm25: BM25_PARAMS,
      boost: { name: 2, description: 1.5, params: 1 },
      // A word typed in part ("direct") still finds its longer forms; short ones would match too much.
      prefix: (term) => term.length >= 4,
      fuzzy: (term) => (term.length >= 6 ? 0.15 : false),
      combineWith: 'OR',
    },
  });
  index.addAll(
    tools.map((tool) => ({
      id: tool.name,
      name: tool.name,
      description: tool.description,
      params: parameterText(tool.inputSchema),
    })),
  );
  return index;
}

function bm25Scores(index: MiniSearch, query: string): Map<string, number> {
  const scores = new Map<string, number>();
  for (const result of index.search(query)) scores.set(String(result.id), result.score);
  // The words people use for the same thing count too, for less than the words given.
  const synonyms = tokenize(query).flatMap((word) => {
    const stem = processTerm(word);
    return stem === null ? [] : synonymsOf(stem);
  });
  if (synonyms.length > 0) {
    // Exact words only: synonyms are whole words already, and prefix and typo matching cost time.
    for (const result of index.search(synonyms.join(' '), { processTerm: (term) => term, prefix: false, fuzzy: false })) {
      scores.set(String(result.id), (scores.get(String(result.id)) ?? 0) + SYNONYM_WEIGHT * result.score);
    }
  }
  return scores;
}

/** What the embedding reads of a tool: its name as words, then its description, each word MAX_WORD_REPEATS times at most. */
function embeddingText(tool: SearchableTool): string {
  const counts = new Map<string, number>();
  const description = tool.description
    .slice(0, MAX_EMBEDDED_CHARS)
    .split(/\s+/)
    .filter((word) => {
      const key = word.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
      const count = (counts.get(key) ?? 0) + 1;
      counts.set(key, count);
      return key === '' || count <= MAX_WORD_REPEATS;
    })
    .join(' ');
  return `${tokenize(tool.name).join(' ')}: ${description}`;
}

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
}

/** What each tool's cosine loses for being generic: nearer the catalogue's mean than nine in ten tools are (GENERIC_QUANTILE). */
function genericPenalties(vectors: readonly Float32Array[]): number[] {
  if (vectors.length === 0) return [];
  const mean = new Float32Array(vectors[0]!.length);
  for (const vector of vectors) for (let i = 0; i < vector.length; i++) mean[i] = mean[i]! + vector[i]! / vectors.length;
  const closeness = vectors.map((vector) => dot(vector, mean));
  const usual = [...closeness].sort((a, b) => a - b)[Math.floor(GENERIC_QUANTILE * closeness.length)]!;
  return closeness.map((near) => GENERIC_PENALTY * Math.max(0, near - usual));
}

const byScore = (a: [string, number], b: [string, number]) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1);

/** Reciprocal rank fusion: each ranker adds 1 / (k + rank) for each tool it ranks. */
function fuse(rankings: readonly Map<string, number>[]): Map<string, number> {
  const fused = new Map<string, number>();
  for (const scores of rankings)
    [...scores].sort(byScore).forEach(([name], rank) => fused.set(name, (fused.get(name) ?? 0) + 1 / (RRF_K + rank + 1)));
  return fused;
}

/**
 * A BM25 index (MiniSearch's BM25+) over tools' names, descriptions and
 * parameter names and descriptions. Words are split at `_`, `-` and case
 * changes and stemmed (Porter), so "reading files" finds `read_file`.
 * Given an embedder, it also ranks the tools by the cosine of their name and
 * description to the query, and orders hits by both rankings fused.
 * What a tool's own text can add to either ranking is bounded: repeated words
 * count once (BM25) or thrice (the embedding), BM25 reads a field's first
 * words only, and a tool about everything loses what being generic gained.
 */
export function createToolIndex(tools: readonly SearchableTool[], options: ToolIndexOptions = {}): ToolIndex {
  checkTools(tools);
  const index = bm25Index(tools);
  const { embedder } = options;
  const embedded = embedder === undefined ? [] : tools.map((tool) => embedder.embed(embeddingText(tool)));
  const penalties = genericPenalties(embedded);
  const embeddingScores = (query: string): Map<string, number> => {
    const scores = new Map<string, number>();
    // A query of stop words, nothing, or words the table does not hold whole ("zzzqqq") says nothing about meaning.
    if (embedder === undefined || !tokenize(query).some((word) => processTerm(word) !== null && embedder.knows(word))) return scores;
    const vector = embedder.embed(query);
    embedded.forEach((tool, i) => {
      const score = dot(vector, tool) - penalties[i]!;
      if (score >= MIN_COSINE) scores.set(tools[i]!.name, score);
    });
    return scores;
  };
  return {
    size: tools.length,
    ranker: embedder === undefined ? 'bm25' : 'bm25+embeddings',
    search(query, options = {}) {
      if (typeof query !== 'string') throw new TypeError(`A search query is a string, got ${typeof query}.`);
      const limit = options.limit ?? DEFAULT_SEARCH_LIMIT;
      if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`limit must be a whole number of at least 1, got ${String(limit)}.`);
      const bm25 = bm25Scores(index, query);
      if (embedder === undefined)
        return [...bm25]
          .sort(byScore)
          .slice(0, limit)
          .map(([name, score]) => ({ name, score, scores: { bm25: score } }));
      const embedding = embeddingScores(query);
      return [...fuse([bm25, embedding])]
        .sort(byScore)
        .slice(0, limit)
        .map(([name, score]) => ({ name, score, scores: { bm25: bm25.get(name), embedding: embedding.get(name) } }));
    },
  };
}
