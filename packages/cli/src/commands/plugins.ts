import type { Command } from 'commander';
import { pluginLabel } from '@toolshed/host';
import { pluginReport } from '../host.js';
import { style } from '../style.js';

const SOURCES = { code: 'code', config: 'toolshed.config.json', dependency: 'package.json' } as const;

export function registerPlugins(program: Command): void {
  program
    .command('plugins')
    .description('Show every plugin found: version, source, tools, status, warnings and errors (exit 1 if one you named failed)')
    .option('--json', 'print the report as JSON')
    .action(async (options: { json?: boolean }) => {
      const { plugins, warnings, failed } = await pluginReport();
      if (failed) process.exitCode = 1;
      if (options.json) {
        process.stdout.write(`${JSON.stringify({ plugins, warnings }, null, 2)}\n`);
        return;
      }
      if (plugins.length === 0) {
        process.stdout.write('No plugins. Install a Toolshed plugin package (e.g. npm install @toolshed/tool-echo) or name one in toolshed.config.json.\n');
      }
      for (const plugin of plugins) {
        const status = plugin.status === 'loaded' ? style('green', 'loaded') : style('red', plugin.status);
        process.stdout.write(`${style('bold', pluginLabel(plugin))}  ${status}  ${style('dim', `from ${SOURCES[plugin.source]}: ${plugin.spec}`)}\n`);
        if (plugin.tools.length > 0) process.stdout.write(`  tools: ${plugin.tools.join(', ')}\n`);
        if (plugin.error) process.stdout.write(`  error (${plugin.error.phase}): ${plugin.error.message}\n`);
        for (const warning of plugin.warnings) process.stdout.write(`  warning: ${warning}\n`);
      }
      for (const warning of warnings) process.stdout.write(`warning: ${warning}\n`);
    });
}
