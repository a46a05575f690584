// Runs in its own process so its peak RSS is read_file's alone.
// argv: <root> <file> <mode: read|idle>
import { createHash } from 'node:crypto';
import { ToolRegistry } from '@toolshed/core';
import { createReadFileTool } from '../dist/index.js';

const [root, file, mode] = process.argv.slice(2);
const registry = new ToolRegistry().register(createReadFileTool({ root }));
let ms = 0;
let warmMs = 0;
let lines = 0;
let sha256 = '';
if (mode === 'read') {
  const start = performance.now();
  const outcome = await registry.dispatch({ name: 'read_file', input: { path: file, offset: -100 } });
  ms = performance.now() - start;
  if (!outcome.ok) throw new Error(`read_file failed: ${outcome.error.message}`);
  lines = outcome.output.text.split('\n').length;
  // A second call, with code and file system caches warm: the tool's own cost.
  const again = performance.now();
  await registry.dispatch({ name: 'read_file', input: { path: file, offset: -100 } });
  warmMs = performance.now() - again;
  sha256 = createHash('sha256').update(outcome.output.text).digest('hex');
}
// maxRSS is in KiB.
console.log(JSON.stringify({ ms, warmMs, lines, sha256, maxRssKiB: process.resourceUsage().maxRSS }));
