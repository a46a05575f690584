import { Option, type Command } from 'commander';
import { inspectTools } from '../host.js';
import { anthropicDeferredTools, formatTools, SCHEMA_FORMATS, type SchemaFormat } from '../schema-format.js';
import { style } from '../style.js';
import { UsageError } from '../usage-error.js';

export function registerSchema(program: Command): void {
  program
    .command('schema')
    .description('Print the JSON Schema of every tool, as a model sees it')
    .argument('[tools...]', 'only these tools')
    .option('--json', 'print the definitions as one JSON array')
    .addOption(new Option('--format <api>', "print the tools in a model API's own format").choices(SCHEMA_FORMATS))
    .option(
      '--deferred',
      "with --format anthropic: Anthropic's tool search tool first, then every tool with defer_loading: true except those exposure.alwaysLoaded keeps loaded",
    )
    .action(async (names: string[], options: { json?: boolean; format?: SchemaFormat; deferred?: boolean }) => {
      // Checked before any plugin is read: nothing is printed for a flag that means nothing here.
      if (options.deferred && options.format !== 'anthropic') {
        throw new UsageError(
          `--deferred marks tools for Anthropic's tool search, so it needs --format anthropic${options.format ? ` (not ${options.format})` : ''}.`,
        );
      }
      const { tools: all, exposure } = await inspectTools();
      let tools = all;
      if (names.length > 0) {
        const unknown = names.filter((name) => !tools.some((tool) => tool.name === name));
        if (unknown.length > 0) {
          process.stderr.write(`toolshed schema: unknown tool ${unknown.join(', ')}; see toolshed list.\n`);
          process.exitCode = 2;
          return;
        }
        tools = tools.filter((tool) => names.includes(tool.name));
      }
      if (options.deferred) {
        process.stdout.write(`${JSON.stringify(await anthropicDeferredTools(all, tools, exposure), null, 2)}\n`);
        return;
      }
      if (options.format) {
        process.stdout.write(`${JSON.stringify(await formatTools(options.format, tools), null, 2)}\n`);
        return;
      }
      if (options.json) {
        process.stdout.write(`${JSON.stringify(tools, null, 2)}\n`);
        return;
      }
      for (const tool of tools) {
        process.stdout.write(`${style('bold', tool.name)}: ${tool.description}\n`);
        process.stdout.write(`${JSON.stringify(tool.inputSchema, null, 2)}\n`);
        if (tool.outputSchema) process.stdout.write(`output: ${JSON.stringify(tool.outputSchema, null, 2)}\n`);
      }
    });
}
