import { ToolRegistry, type Exposure, type ToolDefinition } from '@toolshed/core';
import { createToolSearch, type ExposureDecision } from '../search/session.js';
import type { ContextFormat } from './formats.js';
import { measureTools, type ContextReport } from './measure.js';

export interface UpFrontReport {
  decision: ExposureDecision;
  /** What is sent before any search: every tool, or tool_search and the always-loaded tools. */
  report: ContextReport;
}

/**
 * What a model is sent up front under an exposure setting (a registry's own,
 * or the one given for plain definitions): every tool when nothing is
 * deferred, else `tool_search` and the always-loaded tools.
 */
export async function measureUpFront(
  source: ToolRegistry | readonly ToolDefinition[],
  options: { format: ContextFormat; exposure?: Exposure },
): Promise<UpFrontReport> {
  let registry: ToolRegistry;
  // Told apart by shape, not instanceof: a registry from another copy of core is a registry too.
  if (!Array.isArray(source)) registry = source as ToolRegistry;
  else {
    // Definitions only: a registry that can list and search them, never run them.
    registry = new ToolRegistry(options.exposure ? { exposure: options.exposure } : {});
    for (const definition of source) {
      registry.registerDeferred({ definition, load: () => Promise.reject(new Error('measured only, not loaded')) });
    }
  }
  const search = await createToolSearch(registry, options.exposure ? { exposure: options.exposure } : {});
  return { decision: search.decision, report: await measureTools(search.tools(), { format: options.format }) };
}
