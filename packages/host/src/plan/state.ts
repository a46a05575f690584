import type { AnyTool, PluginInstance, ToolDefinition } from '@toolshed/core';
import type { PluginError } from '@toolshed/core/contract';
import type { ManifestTool } from '../manifest.js';
import type { Source } from './source.js';

/** One tool of a plugin: its name in the plugin's code and what the model sees (renamed). */
export interface PlannedTool {
  original: string;
  definition: ToolDefinition;
  timeoutMs?: number;
}

/**
 * Where a plugin is on its way to serving tools. `planned`: known from its static manifest, its
 * code waits for the first call. `loading`: that first call is running its code. `loaded`: its
 * code ran. `failed`: it serves nothing; `tools` are the names it offered, for the report.
 */
export type PluginState =
  | { status: 'planned'; source: Source; manifest: readonly ManifestTool[]; tools: PlannedTool[] }
  | { status: 'loading'; source: Source; manifest: readonly ManifestTool[]; tools: PlannedTool[]; instance: Promise<PluginInstance> }
  | { status: 'loaded'; source: Source; tools: PlannedTool[]; instance: PluginInstance }
  | {
      status: 'failed';
      error: PluginError;
      tools: string[];
      /**
       * At startup (a discovered plugin is then skipped), when its code loaded on a first call, or
       * `connect`: an MCP server with no cached tool list that could not be started or reached
       * (skipped, named or not: only its own tools are missing).
       */
      when: 'startup' | 'load' | 'connect';
      /** Tools built before it failed (e.g. a name conflict), still to be closed. */
      instance?: PluginInstance;
    };

/** The states that serve tools. */
export type LiveState = Exclude<PluginState, { status: 'failed' }>;

export function isLive(state: PluginState): state is LiveState {
  return state.status !== 'failed';
}

/** A manifest's tools as the plan keeps them, each by the name its plugin gives it. */
export function manifestTools(manifest: readonly ManifestTool[]): PlannedTool[] {
  return manifest.map((tool) => ({ original: tool.definition.name, ...tool }));
}

/** A planned tool's code, under the name the model sees. */
export function toolOf(instance: PluginInstance, tools: readonly PlannedTool[], index: number): AnyTool {
  const tool = instance.tools[index]!;
  const name = tools[index]!.definition.name;
  return tool.name === name ? tool : { ...tool, name };
}
