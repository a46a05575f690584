// An MCP server over stdio with one tool that answers with the call id its registry was given,
// spawned by src/mount/servers.test.ts to show a mounted call keeps the caller's call id.
import { defineTool, ToolRegistry } from '@toolshed/core';
import * as v from 'valibot';
import { serveStdio } from '../dist/index.js';

const registry = new ToolRegistry({ approve: 'allow-all' });
registry.register(
  defineTool({
    name: 'which_call',
    description: 'Tell the call id of this call.',
    input: v.object({}),
    run: (_input, ctx) => ({ callId: ctx.callId }),
  }),
);
await serveStdio(registry.seal(), { name: 'call-id-test' });
