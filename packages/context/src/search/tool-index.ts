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
  /** Each ranker's own score: BM25's (absent when no word matched), the embedding's cosine (with the ranker). */
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

/** Parameter names and descriptions, nested objects and array items included. */
function parameterText(schema: unknown, out: string[] = [], depth = 0): string[] {
  if (typeof schema !== 'object' || schema === null || depth > 6) return out;
  const node = schema as Record<string, unknown>;
  const properties = node.properties;
  if (typeof properties === 'object' && properties !== null) {
    for (const [key, value] of Object.entries(properties)) {
      out.push(key);
      const description = (value as { description?: unknown } | null)?.description;
      if (typeof description === 'string') out.push(description);
      parameterText(value, out, depth + 1);
    }
  }
  for (const key of ['items', 'anyOf', 'oneOf', 'allOf']) {
    const child = node[key];
    for (const item of Array.isArray(child) ? child : [child]) parameterText(item, out, depth + 1);
  }
  return out;
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
    tokenize,
    processTerm,
    searchOptions: {
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
      params: parameterText(tool.inputSchema).join(' '),
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

/** What the embedding reads of a tool: its name as words, then its description. */
function embeddingText(tool: SearchableTool): string {
  return `${tokenize(tool.name).join(' ')}: ${tool.description.slice(0, MAX_EMBEDDED_CHARS)}`;
}

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
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
 */
export function createToolIndex(tools: readonly SearchableTool[], options: ToolIndexOptions = {}): ToolIndex {
  checkTools(tools);
  const index = bm25Index(tools);
  const { embedder } = options;
  const vectors = embedder === undefined ? [] : tools.map((tool) => [tool.name, embedder.embed(embeddingText(tool))] as const);
  const embeddingScores = (query: string): Map<string, number> => {
    const scores = new Map<string, number>();
    // A query of stop words, nothing, or words the table does not hold whole ("zzzqqq") says nothing about meaning.
    if (embedder === undefined || !tokenize(query).some((word) => processTerm(word) !== null && embedder.knows(word))) return scores;
    const vector = embedder.embed(query);
    for (const [name, tool] of vectors) {
      const cosine = dot(vector, tool);
      if (cosine >= MIN_COSINE) scores.set(name, cosine);
    }
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
