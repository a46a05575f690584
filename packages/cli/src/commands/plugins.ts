import type { Command } from 'commander';
import { fullRightsWarning, pluginLabel, type McpServerReport } from '@toolshed/host';
import { pluginReport } from '../host.js';
import { style } from '../style.js';
import { describePermissions } from './permissions-line.js';

const SOURCES = { code: 'code', config: 'toolshed.config.json', dependency: 'package.json', mcp: 'mcpServers' } as const;

/** One line on where an MCP server is: what `toolshed plugins` shows for each server. */
export function describeServer(server: McpServerReport): string {
  const { state } = server;
  const tools = server.cached ? 'tools from the cache' : 'tools listed by the server at startup';
  switch (state.status) {
    case 'idle':
      return `${server.transport}, not started (${tools}; it starts on the first call)`;
    case 'starting':
      return `${server.transport}, starting (attempt ${state.attempt})`;
    case 'connected':
      return `${server.transport}, connected${state.pid !== undefined ? ` (pid ${state.pid})` : ''}`;
    case 'failed': {
      const retry = state.retryAt !== undefined ? `; retries after ${new Date(state.retryAt).toISOString()}` : '';
      return `${server.transport}, failed after ${state.attempts} attempt${state.attempts === 1 ? '' : 's'}: ${state.message}${retry}`;
    }
    case 'closed':
      return `${server.transport}, closed`;
  }
}

export function registerPlugins(program: Command): void {
  program
    .command('plugins')
    .description('Show every plugin found: version, source, tools, status, warnings and errors (exit 1 if one you named failed)')
    .option('--json', 'print the report as JSON')
    .option('--refresh', 'start every MCP server once and rewrite its cached tool list')
    .action(async (options: { json?: boolean; refresh?: boolean }) => {
      const { plugins, warnings, failed } = await pluginReport({ refresh: options.refresh === true });
      if (failed) process.exitCode = 1;
      if (options.json) {
        process.stdout.write(`${JSON.stringify({ plugins, warnings }, null, 2)}\n`);
        return;
      }
      if (plugins.length === 0) {
        process.stdout.write(
          'No plugins. Install a Toolshed plugin package (e.g. npm install @toolshed/tool-echo) or name one in toolshed.config.json.\n',
        );
      }
      for (const plugin of plugins) {
        const status = plugin.status === 'loaded' ? style('green', 'loaded') : style('red', plugin.status);
        process.stdout.write(
          `${style('bold', pluginLabel(plugin))}  ${status}  ${style('dim', `from ${SOURCES[plugin.source]}: ${plugin.spec}`)}\n`,
        );
        if (plugin.server) process.stdout.write(`  server: ${describeServer(plugin.server)}\n`);
        if (plugin.tools.length > 0) process.stdout.write(`  tools: ${plugin.tools.join(', ')}\n`);
        const permissions = describePermissions(plugin);
        if (permissions) process.stdout.write(`  ${permissions}\n`);
        const fullRights = fullRightsWarning(plugin);
        if (fullRights) process.stdout.write(`  warning: ${fullRights}\n`);
        if (plugin.error) process.stdout.write(`  error (${plugin.error.phase}): ${plugin.error.message}\n`);
        for (const warning of plugin.warnings) process.stdout.write(`  warning: ${warning}\n`);
      }
      for (const warning of warnings) process.stdout.write(`warning: ${warning}\n`);
    });
}
