import { importOptionalPeer } from './optional-peer.js';

/**
 * `@toolshed/mcp` (and the MCP SDK under it, about 100 packages) is an optional
 * peer of the CLI: only `serve` needs it, so a project that only lists and calls
 * tools does not install it. Loaded here, when `serve` runs.
 */
export const loadMcp = () => importOptionalPeer('@toolshed/mcp', 'serve', () => import('@toolshed/mcp'));
