import type { DispatchOptions, Outcome, ToolCall, ToolDefinition, ToolRegistry } from '@toolshed/core';
import type { Host } from '@toolshed/host';

/** What `serve` lists and calls without tool search: the host's registry, as its MCP servers change it. */
export interface LiveTools {
  tools(): ToolDefinition[];
  dispatch(call: ToolCall, options?: DispatchOptions): Promise<Outcome>;
  onToolsChanged(listener: () => void): () => void;
}

/**
 * The host's registry until a mounted server changes its tools while connected, then the new one
 * the host makes (calls already running finish on the registry they started on); each session's
 * MCP server is told, so its client lists again.
 */
export function liveTools(host: Pick<Host, 'registry' | 'onRegistryChanged'>): LiveTools {
  let current: ToolRegistry = host.registry;
  const listeners = new Set<() => void>();
  host.onRegistryChanged((next) => {
    current = next;
    for (const listener of listeners) listener();
  });
  return {
    tools: () => current.list(),
    dispatch: (call, options) => current.dispatch(call, options),
    onToolsChanged(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}
