import type { RegistryOptions, ToolRegistry } from '@toolshed/core';

export interface Seen {
  slowStarted: number;
  slowAborted: number;
  abortReason: string | undefined;
  deleted: number;
}

export function createTestRegistry(registryOptions?: RegistryOptions): { registry: ToolRegistry; seen: Seen; slowAborted: Promise<void> };
