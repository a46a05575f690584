import path from 'node:path';
import { definePlugin } from '@toolshed/core';
import { ReadFileOptionsSchema } from './options.js';
import { createReadFileTool } from './read-file-tool.js';

export { createReadFileTool };
export { DEFAULT_DENY } from './deny-list.js';
export { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, DEFAULT_MAX_SCAN_BYTES, DEFAULT_TIMEOUT_MS, ReadFileOptionsSchema } from './options.js';
export type { HardLinkPolicy } from './hard-links.js';
export type { ReadFileOptions } from './options.js';

export default definePlugin({
  name: '@toolshed/tool-read-file',
  apiVersion: 1,
  options: ReadFileOptionsSchema,
  // The host's folder is the default root; a relative root is taken from it.
  tools: (options, host) => [createReadFileTool({ ...options, root: path.resolve(host.cwd, options.root ?? '.') })],
});
