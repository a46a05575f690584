// The process an isolated plugin runs in, inside the sandbox: an MCP stdio server that hosts
// that one plugin, built by @toolshed/mcp's own serveStdio so the host reaches it through its
// ordinary mount. Arguments: the plugin's package folder, the project folder, and the file of
// @toolshed/mcp's main entry the host resolved. The plugin's options come in one variable, taken
// out of the environment before the plugin's code is imported.
import { ToolRegistry } from '@toolshed/core';
import { importAndInstantiate } from '../load.js';
import { packageEntry, readPackageJson } from '../package.js';
import { OPTIONS_VARIABLE, PROXY_VARIABLE } from './child-protocol.js';
const { pathToFileURL } = process.getBuiltinModule('node:url');

const [dir, cwd, mcpEntry] = process.argv.slice(2) as [string, string, string];
const given = process.env[OPTIONS_VARIABLE];
delete process.env[OPTIONS_VARIABLE];
const options = given === undefined ? undefined : (JSON.parse(given) as Record<string, unknown>);
// The sandbox names its proxy in ALL_PROXY (among others meant for tools it does not know); a
// plugin that opens its own TCP connections reads the one name Toolshed documents.
if (process.env.ALL_PROXY) process.env[PROXY_VARIABLE] = process.env.ALL_PROXY;
else delete process.env[PROXY_VARIABLE];

// The host decided approval, timeouts and output caps before the call crossed over.
const registry = new ToolRegistry({ approve: 'allow-all' });
try {
  const instance = await importAndInstantiate(await packageEntry(dir, readPackageJson(dir)), options, cwd, () => undefined);
  for (const tool of instance.tools) registry.register(tool);
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
registry.seal();
const mcp = (await import(pathToFileURL(mcpEntry).href)) as typeof import('@toolshed/mcp');
const service = await mcp.serveStdio(registry, { name: `toolshed-isolated`, version: '1.0.0' });
await service.closed;
process.exit(0);
