import {
  type CheckedExposure,
  checkExposure,
  ToolRegistry,
  type DispatchOptions,
  type Exposure,
  type Outcome,
  type ToolCall,
  type ToolDefinition,
  type ToolEventListener,
} from '@toolshed/core';
import { dispatchCalls, type ParsedToolCall, type RunToolCallsOptions } from '@toolshed/providers';
import { measureWith } from '../accounting/measure.js';
import { loadO200k } from '../accounting/tokenizer.js';
import { searchTool, TOOL_SEARCH_NAME } from './search-tool.js';
import { loadEmbedder } from './embedder.js';
import { createToolIndex, DEFAULT_SEARCH_LIMIT, type Ranker, type SearchHit, type ToolIndex } from './tool-index.js';

export interface ToolSearchOptions {
  /** Overrides the registry's exposure setting. */
  exposure?: Exposure;
  /** How many tools one search makes available when the model gives no limit (default 5). */
  limit?: number;
}

/** Why tools are or are not deferred, for a harness to log. */
export type ExposureDecision =
  | { deferred: false; reason: 'always' | 'under-share'; tokens?: number; threshold?: number }
  | { deferred: true; reason: 'search' | 'over-share'; tokens?: number; threshold?: number };

/**
 * One conversation's view of a registry: which tools to send now, and the
 * `tool_search` tool that makes more of them available. Make one per
 * conversation (or MCP session): what a search found belongs to it.
 */
export interface ToolSearch {
  readonly decision: ExposureDecision;
  /** How searches rank: with `@toolshed/context-embeddings` installed, BM25 and meaning fused; else BM25 alone. */
  readonly ranker: Ranker;
  /** The `tool_search` definition (sent only while tools are deferred). */
  readonly searchTool: ToolDefinition;
  /** The definitions to send in the next request: tool_search, the always-loaded tools and every tool found so far. */
  tools(): ToolDefinition[];
  /** The names of `tools()`, e.g. for the AI SDK's `activeTools`. */
  activeToolNames(): string[];
  /** Tools a search has made available, in the order found. */
  found(): string[];
  /** Whether the registry's tool `name` is held back until a search finds it. */
  isDeferred(name: string): boolean;
  /** Search and make the hits available, as a `tool_search` call does. */
  search(query: string, limit?: number): SearchHit[];
  /** Dispatch one call: `tool_search` here, anything else to the registry. */
  dispatch(call: ToolCall, options?: DispatchOptions): Promise<Outcome>;
  /** `dispatchCalls` for a batch that may include `tool_search` calls; outcomes in call order. */
  runToolCalls(calls: readonly (ParsedToolCall | ToolCall)[], options?: RunToolCallsOptions): Promise<Outcome[]>;
  /** Called after a search made new tools available (MCP's `notifications/tools/list_changed`). */
  onToolsChanged(listener: () => void): () => void;
  /** Events of every call, `tool_search` calls included (the registry's own subscribers do not see those). */
  subscribe(listener: ToolEventListener): () => void;
}

async function decide(exposure: CheckedExposure, definitions: ToolDefinition[]): Promise<ExposureDecision> {
  if (exposure.mode === 'always') return { deferred: false, reason: 'always' };
  if (exposure.mode === 'search') return { deferred: true, reason: 'search' };
  // auto: the definitions as OpenAI's chat format sends them, counted with o200k.
  const { tokens } = measureWith(await loadO200k(), definitions, 'openai').total;
  const threshold = Math.floor(exposure.contextWindow * exposure.share);
  return tokens > threshold
    ? { deferred: true, reason: 'over-share', tokens, threshold }
    : { deferred: false, reason: 'under-share', tokens, threshold };
}

/**
 * A tool search over a registry's tools, following its `exposure` setting
 * (or the one given). Throws when the registry already has a tool named
 * `tool_search`, or when `alwaysLoaded` names a tool it does not have.
 */
export async function createToolSearch(registry: ToolRegistry, options: ToolSearchOptions = {}): Promise<ToolSearch> {
  const exposure = options.exposure === undefined ? registry.exposure : checkExposure('createToolSearch options', options.exposure);
  const defaultLimit = options.limit ?? DEFAULT_SEARCH_LIMIT;
  if (!Number.isInteger(defaultLimit) || defaultLimit < 1)
    throw new RangeError(`limit must be a whole number of at least 1, got ${String(options.limit)}.`);
  if (registry.has(TOOL_SEARCH_NAME)) {
    throw new Error(`The registry already has a tool named "${TOOL_SEARCH_NAME}"; rename it to use tool search.`);
  }
  const all = registry.list();
  const names = new Set(all.map((definition) => definition.name));
  const alwaysLoaded = new Set(exposure.mode === 'always' ? [] : (exposure.alwaysLoaded ?? []));
  const missing = [...alwaysLoaded].filter((name) => !names.has(name));
  if (missing.length > 0) {
    throw new Error(
      `exposure.alwaysLoaded names ${missing.map((name) => JSON.stringify(name)).join(', ')}, which the registry does not have; fix the name or drop it.`,
    );
  }
  const decision = await decide(exposure, all);
  const byName = new Map(all.map((definition) => [definition.name, definition]));
  const deferred = all.filter((definition) => decision.deferred && !alwaysLoaded.has(definition.name));
  const embedder = decision.deferred ? await loadEmbedder() : undefined;
  const index: ToolIndex = createToolIndex(deferred, { embedder });
  const found: string[] = [];
  const listeners = new Set<() => void>();

  const search = (query: string, limit = defaultLimit): SearchHit[] => {
    const hits = index.search(query, { limit });
    const before = found.length;
    for (const hit of hits) if (!found.includes(hit.name)) found.push(hit.name);
    if (found.length > before) for (const listener of listeners) listener();
    return hits;
  };

  const own = new ToolRegistry({ approve: 'allow-all' })
    .register(
      searchTool((query, limit) => search(query, limit).map((hit) => ({ name: hit.name, description: byName.get(hit.name)!.description }))),
    )
    .seal();
  const searchDefinition = own.list()[0]!;

  const activeToolNames = (): string[] => {
    if (!decision.deferred) return all.map((definition) => definition.name);
    const visible = new Set([...alwaysLoaded, ...found]);
    return [TOOL_SEARCH_NAME, ...all.filter((definition) => visible.has(definition.name)).map((definition) => definition.name)];
  };

  return {
    decision,
    ranker: index.ranker,
    searchTool: searchDefinition,
    tools: () =>
      activeToolNames().map((name) =>
        name === TOOL_SEARCH_NAME ? own.list()[0]! : (JSON.parse(JSON.stringify(byName.get(name)!)) as ToolDefinition),
      ),
    activeToolNames,
    found: () => [...found],
    isDeferred: (name) => decision.deferred && names.has(name) && !alwaysLoaded.has(name),
    search: (query, limit) => {
      if (limit !== undefined && (!Number.isInteger(limit) || limit < 1))
        throw new RangeError(`limit must be a whole number of at least 1, got ${String(limit)}.`);
      return search(query, limit);
    },
    dispatch: (call, dispatchOptions) =>
      decision.deferred && call?.name === TOOL_SEARCH_NAME ? own.dispatch(call, dispatchOptions) : registry.dispatch(call, dispatchOptions),
    async runToolCalls(calls, runOptions = {}) {
      if (!Array.isArray(calls)) return dispatchCalls(registry, calls, runOptions);
      const isSearch = (call: ParsedToolCall | ToolCall) => decision.deferred && call?.name === TOOL_SEARCH_NAME;
      const searches = calls.filter(isSearch);
      const others = calls.filter((call) => !isSearch(call));
      // Searches first: they are instant, and a tool they find is then listed for the next request.
      const searchOutcomes = await dispatchCalls(own, searches, runOptions);
      const otherOutcomes = await dispatchCalls(registry, others, runOptions);
      return calls.map((call) => (isSearch(call) ? searchOutcomes.shift()! : otherOutcomes.shift()!));
    },
    onToolsChanged(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    subscribe(listener) {
      const stops = [registry.subscribe(listener), own.subscribe(listener)];
      return () => stops.forEach((stop) => stop());
    },
  };
}
