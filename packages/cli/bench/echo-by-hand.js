// What `toolshed call echo` cannot do without: import the echo plugin (which
// loads @toolshed/core and valibot) and run its tool on parsed input, by hand.
// argv: <input JSON>
import plugin from '@toolshed/tool-echo';
import * as v from 'valibot';

const tools = typeof plugin.tools === 'function' ? plugin.tools({}) : plugin.tools;
const echo = tools.find((tool) => tool.name === 'echo');
process.stdout.write(`${JSON.stringify(await echo.run(v.parse(echo.input, JSON.parse(process.argv[2])), {}))}\n`);
