#!/usr/bin/env node
// `npm create @toolshed/plugin <name> [-- --dir DIR --tool NAME]` runs this:
// the same scaffolding as `toolshed new plugin`, which it is.
import { main } from '@toolshed/cli';

await main([process.argv[0], 'toolshed', 'new', 'plugin', ...process.argv.slice(2)]);
