import type { McpServerConfig } from '@toolshed/core';
import type { ResolvedPermissions } from '@toolshed/core/contract';
import type { McpMount } from '@toolshed/mcp/mount';
import type { PackageJson } from '../package.js';

/**
 * Where a plugin's code comes from. One kind per way a plugin reaches the host; a new kind is a
 * new member here, a case in `load-source.ts` (how its code runs) and one in `prepare.ts` (what
 * is known of its tools before it runs).
 */
export type Source =
  /** A plugin object handed to createHost in code. */
  | { kind: 'object'; plugin: unknown }
  /** A module file named by path; its default export is the plugin. */
  | { kind: 'module'; file: string }
  /** An installed package (or a package folder named by path), found by its package.json. */
  | { kind: 'package'; dir: string; pkg: PackageJson }
  /**
   * An installed package that runs isolated: in its own process under the OS sandbox, granted
   * `permissions` (resolved and checked against the user's grant), reached through the MCP mount.
   * `env`: the declared variables' values, the only ones of the host's it gets.
   */
  | {
      kind: 'isolated';
      dir: string;
      pkg: PackageJson;
      permissions: ResolvedPermissions;
      env: Record<string, string | undefined>;
      log?: (line: string) => void;
    }
  /** An MCP server of `mcpServers`, its entry checked (`config`) and mounted: its tools run through the mount. */
  | { kind: 'mcp'; mount: McpMount; config: McpServerConfig; isolated?: ResolvedPermissions };
