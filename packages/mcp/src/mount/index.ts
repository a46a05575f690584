// @toolshed/mcp/mount: a light entry. The MCP SDK, ajv and zod load when a server is
// first started or a tool first validated, never on import (the host imports this for `toolshed list`).
export type {
  EnvReference,
  FromEnv,
  HttpServerConfig,
  McpMount,
  McpServerConfig,
  McpServerEntry,
  McpServerState,
  MountContext,
  StdioServerConfig,
  ToolMarks,
  ToolsChangedListener,
} from './api.js';
export { checkServerConfig, isMcpConfigError, McpConfigError } from './config.js';
export { jsonSchemaOutput, mountServer } from './mount.js';
export { closeAllMounts } from './lifecycle.js';
