import type { Command } from 'commander';
import { pluginLabel } from '@toolshed/host';
import { commandOf, type CommandSpec } from '../command-spec.js';
import { inspectTools } from '../host.js';
import { print } from '../print.js';
import { style } from '../style.js';

export const LIST: CommandSpec = {
  name: 'list',
  description: 'List every tool with its description and the plugin it came from',
  args: [],
  options: [{ long: 'json', description: 'print the list as JSON' }],
};

export function registerList(program: Command): void {
  commandOf(program, LIST).action((options: { json?: boolean }) => runList(options));
}

export async function runList(options: { json?: boolean }): Promise<void> {
  const { tools: definitions, pluginOf } = await inspectTools();
  const tools = definitions.map((tool) => {
    const plugin = pluginOf(tool.name);
    // `source: "mcp"` marks a tool of a mounted MCP server (then `plugin` is the server's name).
    return {
      name: tool.name,
      description: tool.description,
      plugin: plugin?.name,
      version: plugin?.version,
      source: plugin?.source,
      annotations: tool.annotations ?? {},
    };
  });
  if (options.json) {
    print(`${JSON.stringify(tools, null, 2)}\n`);
    return;
  }
  if (tools.length === 0) {
    print('No tools. Install a Toolshed plugin package, e.g. @toolshed/tool-echo.\n');
    return;
  }
  // One write for the listing, not a system call per tool.
  const lines = tools.map((tool) => {
    // A plugin loaded from a module file has no package, so no version to show.
    const from = tool.plugin ? style('dim', `  ${pluginLabel({ name: tool.plugin, version: tool.version, source: tool.source })}`) : '';
    return `${style('bold', tool.name)}${from}\n  ${tool.description}\n`;
  });
  print(lines.join(''));
}
