import { needsApproval, approvalRisk, type ToolDefinition } from '@toolshed/core';
import { CONTEXT_FORMATS, createToolIndex, loadEmbedder, measureTools, measureUpFront, type ContextFormat } from '@toolshed/context';
export { isContextFormat } from '@toolshed/context';
import { fullRightsWarning } from '@toolshed/host';
import { adapters, TOOL_FORMATS } from '@toolshed/providers';
import type { Inspected } from './inspected.js';

/** A plugin's state in one word: a plugin that waits for its first call to import is deferred. */
function stateOf(plugin: Inspected['plugins'][number]): string {
  if (plugin.status === 'loaded' && !plugin.imported && plugin.source !== 'code') return 'deferred';
  return plugin.status;
}

/**
 * The host's report of each plugin as `toolshed plugins` reads it: its declared permissions,
 * whether it runs isolated, and the warning for a third-party plugin with your full rights.
 */
export function pluginsView(inspected: Inspected) {
  return {
    plugins: inspected.plugins.map((plugin) => ({ ...plugin, state: stateOf(plugin), fullRights: fullRightsWarning(plugin) })),
    warnings: inspected.warnings,
  };
}

/** One tool as each provider's API takes it; a format that refuses the tool (strict mode) says why. */
function formatsOf(tool: ToolDefinition): Record<string, { ok: true; value: unknown } | { ok: false; message: string }> {
  const formats: ReturnType<typeof formatsOf> = {};
  for (const format of TOOL_FORMATS) {
    try {
      formats[format] = { ok: true, value: adapters[format].tools([tool]) };
    } catch (error) {
      formats[format] = { ok: false, message: (error as Error).message };
    }
  }
  return formats;
}

export function toolsView(inspected: Inspected) {
  return {
    tools: inspected.registry.list().map((tool) => ({
      definition: tool,
      origin: inspected.registry.get(tool.name)?.origin,
      approval: needsApproval(tool) ? approvalRisk(tool) : undefined,
      formats: formatsOf(tool),
    })),
    formats: { tools: TOOL_FORMATS, context: CONTEXT_FORMATS },
  };
}

/**
 * The report `toolshed context --json --format <format>` prints, and what tool search would
 * send up front in a context window of the given size (`exposure: {mode: "auto"}`).
 */
export async function contextView(inspected: Inspected, format: ContextFormat, contextWindow: number | undefined) {
  const tools = inspected.registry.list();
  const report = await measureTools(tools, { format });
  if (contextWindow === undefined) return { report };
  const upFront = await measureUpFront(tools, { format, exposure: { mode: 'auto', contextWindow } });
  return {
    report,
    window: {
      contextWindow,
      decision: upFront.decision,
      upFront: { tools: upFront.report.tools.map((tool) => tool.name), total: upFront.report.total },
    },
  };
}

/**
 * Tool search's hits as `toolshed search` ranks them (BM25, fused with the meaning table when
 * @toolshed/context-embeddings is installed), with each ranker's own score.
 */
export async function searchView(
  inspected: Inspected,
  query: string,
  limit: number,
): Promise<{ rankers: string[]; hits: { name: string; score: number; scores: Record<string, number> }[] }> {
  const index = createToolIndex(inspected.registry.list(), { embedder: await loadEmbedder() });
  return {
    rankers: index.ranker === 'bm25' ? ['bm25'] : ['bm25', 'embedding'],
    hits: index.search(query, { limit }).map((hit) => ({
      name: hit.name,
      score: hit.score,
      // A ranker that did not rank a tool has no score for it.
      scores: Object.fromEntries(Object.entries(hit.scores).filter((entry): entry is [string, number] => entry[1] !== undefined)),
    })),
  };
}
