import type { McpMount } from '../mcp/runtime.js';
import type { PackageJson } from '../package.js';

/**
 * Where a plugin's code comes from. One kind per way a plugin reaches the host; a new kind
 * (an MCP server, say) is a new member here, a case in `load-source.ts` (how its code runs)
 * and, when its tools can be known without running it, a case in `prepare.ts`.
 */
export type Source =
  /** A plugin object handed to createHost in code. */
  | { kind: 'object'; plugin: unknown }
  /** A module file named by path; its default export is the plugin. */
  | { kind: 'module'; file: string }
  /** An installed package (or a package folder named by path), found by its package.json. */
  | { kind: 'package'; dir: string; pkg: PackageJson }
  /** An MCP server mounted from `mcpServers`: its tools run through the mount (planned in mcp/source.ts). */
  | { kind: 'mcp'; mount: McpMount }
  /** An MCP server planned for a listing from what its mount kept (`@toolshed/mcp/listing`): a listing loads nothing. */
  | { kind: 'mcp-listing' };

export type SourceKind = Source['kind'];
