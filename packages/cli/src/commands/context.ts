import { Option, type Command } from 'commander';
import type { ContextReport } from '@toolshed/context';
import { inspectTools } from '../host.js';
import { numberFlag } from '../input.js';
import { SCHEMA_FORMATS, type SchemaFormat } from '../schema-format.js';
import { style } from '../style.js';
import { UsageError } from '../usage-error.js';
import { rankerName } from './search.js';
import { loadContext } from '../load-context.js';

interface ContextOptions {
  format: SchemaFormat;
  json?: boolean;
  budget?: string;
}

const ESTIMATED: Partial<Record<SchemaFormat, string>> = {
  anthropic: "Anthropic's tokenizer is not available offline",
  gemini: "Gemini's tokenizer is not available offline",
  mcp: "the MCP client's model decides the tokenizer",
};

function printTable(report: ContextReport): void {
  const rows = report.tools.map((tool) => [
    tool.name,
    String(tool.description.tokens),
    String(tool.inputSchema.tokens),
    String(tool.total.tokens),
    String(tool.total.bytes),
  ]);
  const head = ['tool', 'description', 'input', 'tokens', 'bytes'];
  const widths = head.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: string[]) =>
    cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[0]!) : cell.padStart(widths[column]!))).join('  ');
  process.stdout.write(`${style('bold', line(head))}\n`);
  for (const row of rows) process.stdout.write(`${line(row)}\n`);
  const count = `${report.tools.length} tool${report.tools.length === 1 ? '' : 's'}`;
  const why = ESTIMATED[report.format];
  const counted = why ? `estimated with o200k_base (${why})` : 'counted with o200k_base';
  process.stdout.write(
    `total: ${report.total.tokens} tokens, ${report.total.bytes} bytes for ${count} in ${report.format} format, ${counted}\n`,
  );
}

export function registerContext(program: Command): void {
  program
    .command('context')
    .description(
      "What the tools' definitions cost in every request: bytes and tokens per tool and in total, split into description and input schema",
    )
    .addOption(new Option('--format <api>', 'the request format to measure').choices(SCHEMA_FORMATS).default('openai'))
    .option('--json', 'print the report as JSON')
    .option('--budget <tokens>', 'exit 1 when the total is over this many tokens (for CI)')
    .action(async (options: ContextOptions) => {
      const budget = numberFlag('--budget', options.budget, (n) => Number.isInteger(n) && n > 0, 'a whole number of tokens above 0');
      const { tools, exposure } = await inspectTools();
      // Loaded here: the tokenizer's tables are megabytes that no other command needs.
      const { measureTools, measureUpFront, loadEmbedder } = await loadContext('context');
      const report = await measureTools(tools, { format: options.format });
      // With tool search configured, what every request carries is tool_search and the always-loaded tools.
      let upFront: Awaited<ReturnType<typeof measureUpFront>> | undefined;
      if (exposure && exposure.mode !== 'always') {
        try {
          upFront = await measureUpFront(tools, { format: options.format, exposure });
        } catch (error) {
          throw new UsageError(`exposure in toolshed.config.json: ${(error as Error).message}`);
        }
        if (!upFront.decision.deferred) upFront = undefined;
      }
      const ranker = upFront && ((await loadEmbedder()) === undefined ? 'bm25' : 'bm25+embeddings');
      const sent = upFront?.report.total ?? report.total;
      if (options.json) {
        const extra = {
          ...(upFront
            ? {
                upFront: {
                  decision: upFront.decision,
                  ranker,
                  tools: upFront.report.tools.map((tool) => tool.name),
                  total: upFront.report.total,
                },
              }
            : {}),
          ...(budget === undefined ? {} : { budget }),
        };
        process.stdout.write(`${JSON.stringify({ ...report, ...extra }, null, 2)}\n`);
      } else {
        printTable(report);
        if (upFront) {
          const loaded = upFront.report.tools.length - 1;
          process.stdout.write(
            `up front with tool search (exposure "${exposure!.mode}" in toolshed.config.json): ${sent.tokens} tokens, ${sent.bytes} bytes ` +
              `(tool_search${loaded > 0 ? ` and ${loaded} always-loaded tool${loaded === 1 ? '' : 's'}` : ''}); the others are sent once a search finds them\n` +
              `searches are ranked by ${rankerName(ranker!)}\n`,
          );
        }
      }
      if (budget !== undefined && sent.tokens > budget) {
        process.stderr.write(
          `toolshed context: the tool definitions sent up front cost ${sent.tokens} tokens in ${report.format} format, over the budget of ${budget}. ` +
            'Shorten descriptions and schema descriptions, remove plugins, turn on tool search (exposure in toolshed.config.json), or raise --budget.\n',
        );
        process.exitCode = 1;
      }
    });
}
