import path from 'node:path';
import { definePlugin, pluginOptions } from '@toolshed/core';
import { type ReadFileOptions, ReadFileOptionsSchema } from './options.js';
import { readFileTool } from './read-file-tool.js';

export { DEFAULT_DENY } from './deny-list.js';
export {
  DEFAULT_MAX_BYTES,
  DEFAULT_MAX_LINES,
  DEFAULT_MAX_MEDIA_BYTES,
  DEFAULT_MAX_SCAN_BYTES,
  DEFAULT_TIMEOUT_MS,
  ReadFileOptionsSchema,
} from './options.js';
export type { HardLinkPolicy } from './hard-links.js';
export type { ReadFileOptions } from './options.js';

const plugin = definePlugin({
  name: '@toolshed/tool-read-file',
  apiVersion: 1,
  options: ReadFileOptionsSchema,
  // The host's folder is the default root; a relative root is taken from it.
  tools: (options, host) => [readFileTool({ ...options, root: path.resolve(host.cwd, options.root ?? '.') })],
});
export default plugin;

/** The read_file tool made in code, its options checked as a host checks them. */
export function createReadFileTool(options: ReadFileOptions = {}) {
  return readFileTool(pluginOptions(plugin, options));
}
