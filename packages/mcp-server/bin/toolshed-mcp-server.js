#!/usr/bin/env node
// `npx -y @toolshed/mcp-server [--cwd DIR] [--http [HOST:]PORT] ...` runs this:
// `toolshed serve` with the MCP server package beside the CLI, so that an MCP
// client's config needs one command and no install.
import { main } from '@toolshed/cli';

await main([process.argv[0], 'toolshed', 'serve', ...process.argv.slice(2)]);
