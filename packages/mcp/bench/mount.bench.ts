// A call through a mounted stdio server (@toolshed/mcp/mount + a ToolRegistry: input
// checked by ajv, approval, outcome) against the MCP SDK's own Client calling the same
// server directly: server-everything's echo, each side with its own server process.
// 1,000 sequential calls per case, in the same tinybench loop (vitest bench);
// scripts/bench-report.mjs prints the ratio and the target of bench/targets.json.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ToolRegistry } from '@toolshed/core';
import { bench, describe } from 'vitest';
import { mountServer } from '../dist/mount/index.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const server = path.join(here, '../node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const input = { message: 'hello' };

const floor = new Client({ name: 'bench', version: '1.0.0' });
await floor.connect(new StdioClientTransport({ command: process.execPath, args: [server, 'stdio'], stderr: 'ignore' }));
await floor.listTools(); // as real clients do, and as the mount does

const cacheDir = mkdtempSync(path.join(os.tmpdir(), 'toolshed-mount-bench-'));
const mount = mountServer(
  { name: 'everything', command: process.execPath, args: [server, 'stdio'], include: ['echo'] },
  { cwd: here, cacheDir },
);
const registry = new ToolRegistry();
for (const definition of await mount.refresh()) {
  registry.registerDeferred({ definition, load: async () => mount.tool(definition.name) }, { origin: 'mcp:everything' });
}
registry.seal();
const first = await registry.dispatch({ name: 'echo', input });
if (!first.ok) throw new Error(`the mounted echo failed: ${first.error.message}`);

const options = { iterations: 1000, time: 0, warmupIterations: 50, warmupTime: 0 };
describe('tools/call through a mounted stdio server (server-everything echo)', () => {
  bench(
    'floor: sdk Client',
    async () => {
      await floor.callTool({ name: 'echo', arguments: input });
    },
    options,
  );
  bench(
    'toolshed: registry.dispatch through the mount',
    async () => {
      const outcome = await registry.dispatch({ name: 'echo', input });
      if (!outcome.ok) throw new Error(outcome.error.message);
    },
    {
      ...options,
      teardown: async (_task, mode) => {
        if (mode !== 'run') return;
        await Promise.all([floor.close(), mount.close()]);
        rmSync(cacheDir, { recursive: true, force: true });
      },
    },
  );
});
