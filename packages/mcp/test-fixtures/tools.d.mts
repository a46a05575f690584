import type { AnyTool, RegistryOptions, ToolRegistry } from '@toolshed/core';

/** The echo plugin's tool. */
export const echo: AnyTool;

export interface Seen {
  slowStarted: number;
  slowAborted: number;
  abortReason: string | undefined;
  deleted: number;
}

export function createTestRegistry(registryOptions?: RegistryOptions): { registry: ToolRegistry; seen: Seen; slowAborted: Promise<void> };
