import { ToolRegistry } from '@toolshed/core';
import { checkServerConfig, mountServer } from '@toolshed/mcp/mount';

const config = checkServerConfig(
  {
    name: 'everything',
    command: 'node',
    args: ['node_modules/@modelcontextprotocol/server-everything/dist/index.js', 'stdio'],
    include: ['echo', 'get-sum'],
  },
  'my harness',
);
const mount = mountServer(config, { cwd: process.cwd(), cacheDir: 'node_modules/.cache/toolshed/mcp' });

// From the cache when this server was listed before (nothing starts), else start it and list.
const definitions = mount.cached() ?? (await mount.refresh());
const registry = new ToolRegistry();
for (const definition of definitions) {
  registry.registerDeferred({ definition, load: async () => mount.tool(definition.name) }, { origin: `mcp:${mount.name}` });
}
registry.seal();

console.log(await registry.dispatch({ name: 'get-sum', input: { a: 2, b: 3 } }));
console.log(await registry.dispatch({ name: 'get-sum', input: { a: 2 } })); // invalid_input; nothing is sent
console.log(mount.state().status); // "connected" (started by the first valid call)
await mount.close();
