// What @toolshed/create-plugin and @toolshed/mcp-server run: the command, from code.
export { run } from './bin.js';
export { main } from './program.js';
