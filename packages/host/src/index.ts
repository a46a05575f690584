export { createHost, inspectPlugins } from './host.js';
export type { CreateHostOptions } from './host.js';
export { CONFIG_FILE } from './config.js';
export { findProjectRoot } from './root.js';
export { ConfigError, HostError, isConfigError, isHostError, pluginLabel } from './errors.js';
export { SUPPORTED_API_VERSIONS } from './compat.js';
export { fullRightsWarning } from './full-rights.js';
export { generateManifest } from './generate.js';
export type { ManifestField, ManifestFile, ManifestTool } from './manifest.js';
export type {
  Host,
  HostConfig,
  HostOptions,
  Inspection,
  PluginEntry,
  CheckedEntries,
  CheckedEntry,
  CoreMismatch,
  EnvReference,
  McpHttpServerEntry,
  McpNamedServerEntry,
  McpServerEntries,
  McpServerEntry,
  McpServerReport,
  McpServerState,
  McpStdioServerEntry,
  PluginFailure,
  PluginOptionsInput,
  PluginOptionsOf,
  PluginPhase,
  PluginReport,
  PluginSource,
  PluginStatus,
} from './types.js';
