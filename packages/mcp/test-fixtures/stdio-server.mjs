// An MCP server over stdio serving the test tools, spawned by stdio.test.ts.
import { serveStdio } from '../dist/index.js';
import { createTestRegistry } from './tools.mjs';

const { registry } = createTestRegistry();
await serveStdio(registry, { name: 'toolshed-test' });
