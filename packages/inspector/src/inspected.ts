import type { ToolRegistry } from '@toolshed/core';
import type { PluginReport } from '@toolshed/host';

/** What the page shows: a host from @toolshed/host's createHost has all of it. */
export interface Inspected {
  readonly registry: ToolRegistry;
  readonly plugins: PluginReport[];
  readonly warnings: string[];
}
