import type { Command } from 'commander';
import type { SearchableTool } from '@toolshed/context';
import { inspectTools } from '../host.js';
import { numberFlag } from '../input.js';
import { style } from '../style.js';
import { UsageError } from '../usage-error.js';
import { loadContext } from '../load-context.js';
const { readFileSync } = process.getBuiltinModule('node:fs');

interface SearchCommandOptions {
  definitions?: string;
  limit?: string;
  json?: boolean;
}

/** A JSON array of {name, description, inputSchema}, e.g. saved from `toolshed schema --json` or an MCP server's tools/list. */
function readDefinitions(file: string): SearchableTool[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`--definitions ${file}: cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--definitions ${file} is not valid JSON (${(error as Error).message}).`);
  }
  if (!Array.isArray(value))
    throw new UsageError(`--definitions ${file} must hold a JSON array of tool definitions ({name, description, inputSchema}).`);
  return value as SearchableTool[];
}

/** Which ranker ran, and how to get the other one. */
export function rankerName(ranker: 'bm25' | 'bm25+embeddings'): string {
  return ranker === 'bm25'
    ? 'BM25 (words); install @toolshed/context-embeddings to rank by meaning too'
    : 'BM25 (words) fused with @toolshed/context-embeddings (meaning)';
}

export function registerSearch(program: Command): void {
  program
    .command('search')
    .description("Search the tools by what they do, as a model's tool_search would: best matches first")
    .argument('<query...>', 'what the tool should do, in a few words')
    .option(
      '--definitions <file>',
      'search the definitions in this JSON file (an array of {name, description, inputSchema}) instead of the plugins',
    )
    .option('--limit <n>', 'how many tools at most (default 5)')
    .option('--json', 'print the hits as JSON')
    .action(async (words: string[], options: SearchCommandOptions) => {
      const limit = numberFlag('--limit', options.limit, (n) => Number.isInteger(n) && n >= 1, 'a whole number of at least 1');
      const definitions = options.definitions !== undefined ? readDefinitions(options.definitions) : (await inspectTools()).tools;
      const { createToolIndex, loadEmbedder } = await loadContext('search');
      const embedder = await loadEmbedder();
      let index;
      try {
        index = createToolIndex(definitions, { embedder });
      } catch (error) {
        throw new UsageError(
          `${options.definitions !== undefined ? `--definitions ${options.definitions}: ` : ''}${(error as Error).message}`,
        );
      }
      const query = words.join(' ');
      const byName = new Map(definitions.map((definition) => [definition.name, definition]));
      const hits = index.search(query, limit === undefined ? {} : { limit }).map((hit) => ({
        name: hit.name,
        score: Math.round(hit.score * 1000) / 1000,
        scores: hit.scores,
        description: byName.get(hit.name)!.description,
      }));
      if (options.json) process.stdout.write(`${JSON.stringify(hits, null, 2)}\n`);
      else {
        for (const hit of hits)
          process.stdout.write(`${style('bold', hit.name)}  ${style('dim', String(hit.score))}\n  ${hit.description}\n`);
        if (hits.length > 0) process.stdout.write(style('dim', `ranked by ${rankerName(index.ranker)}\n`));
      }
      if (hits.length === 0) {
        process.stderr.write(`toolshed search: no tool matched "${query}" among ${definitions.length}; try other words.\n`);
        process.exitCode = 1;
      }
    });
}
