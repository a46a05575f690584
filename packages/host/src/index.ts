export { createHost, inspectPlugins } from './host.js';
export type { CreateHostOptions } from './host.js';
export { CONFIG_FILE } from './config.js';
export { findProjectRoot } from './root.js';
export { ConfigError, HostError, isConfigError, isHostError, pluginLabel } from './errors.js';
// The apiVersion rule is core's (`@toolshed/core/contract`), shared with manifest generation and the testing kit.
export { SUPPORTED_API_VERSIONS } from '@toolshed/core/contract';
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
