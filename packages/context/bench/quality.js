// The issue's targets that are not timings, measured in one run: what a model
// is sent up front with tool search, and how well the search finds the right
// tool against a word-overlap baseline. Timings are in search.bench.ts.
//   pnpm bench   (or: node bench/quality.js after a build)
import { ToolRegistry } from '@toolshed/core';
import { createToolIndex, createToolSearch, measureTools } from '../dist/index.js';
import { CATALOGUE } from './catalogue.js';
import { generatedPlugins } from './generated.js';
import { HELD_OUT_TASKS } from './held-out-tasks.js';
import { naiveIndex } from './naive-index.js';
import { TASKS } from './tasks.js';

let missed = 0;
function verdict(ok, figure, target) {
  if (!ok) missed++;
  return `${figure}  (target ${target}: ${ok ? 'met' : 'MISSED'})`;
}

// 1. Up-front tokens: 300 tools from 100 generated plugins.
{
  const registry = new ToolRegistry({ exposure: { mode: 'search' } });
  for (const { plugin, tools } of generatedPlugins(100)) {
    for (const definition of tools)
      registry.registerDeferred({ definition, load: () => Promise.reject(new Error('not loaded in this benchmark')) }, { origin: plugin });
  }
  registry.seal();
  const search = await createToolSearch(registry);
  const all = await measureTools(registry, { format: 'openai' });
  const upFront = await measureTools(search.tools(), { format: 'openai' });
  search.search('create a support ticket');
  const afterOne = await measureTools(search.tools(), { format: 'openai' });
  const share = upFront.total.tokens / all.total.tokens;
  console.log('up-front tokens, 300 tools from 100 plugins (OpenAI format, o200k)');
  console.log(`  every definition            ${all.total.tokens} tokens`);
  console.log(
    `  with tool search, up front  ${upFront.total.tokens} tokens = ${verdict(share <= 0.05, `${(share * 100).toFixed(2)}% of all`, '<= 5%')}`,
  );
  console.log(
    `  after one search (${search.found().length} found)    ${afterOne.total.tokens} tokens = ${((afterOne.total.tokens / all.total.tokens) * 100).toFixed(2)}% of all`,
  );
}

// 2. Search quality: top-3 recall on the labelled tasks over the catalogue.
{
  const ours = createToolIndex(CATALOGUE);
  const naive = naiveIndex(CATALOGUE);
  const recall = (index) =>
    TASKS.filter(([query, tool]) => index.search(query, { limit: 3 }).some((hit) => hit.name === tool)).length / TASKS.length;
  const oursRecall = recall(ours);
  const naiveRecall = recall({ search: (query, options) => naive.search(query, options.limit) });
  console.log(`\nsearch quality: ${TASKS.length} labelled tasks over ${CATALOGUE.length} tools of real MCP servers`);
  console.log(`  baseline (word overlap)  top-3 recall ${(naiveRecall * 100).toFixed(1)}%`);
  console.log(`  tool search (BM25)       top-3 recall ${verdict(oursRecall >= 0.95, `${(oursRecall * 100).toFixed(1)}%`, '>= 95%')}`);
  const heldOut =
    HELD_OUT_TASKS.filter(([query, tool]) => ours.search(query, { limit: 3 }).some((hit) => hit.name === tool)).length /
    HELD_OUT_TASKS.length;
  console.log(
    `  held-out tasks (${HELD_OUT_TASKS.length}, not used for tuning)  top-3 recall ${(heldOut * 100).toFixed(1)}%  (no target: the estimate for unseen tasks)`,
  );
  const misses = [...TASKS, ...HELD_OUT_TASKS].filter(
    ([query, tool]) => !ours.search(query, { limit: 3 }).some((hit) => hit.name === tool),
  );
  for (const [query, tool] of misses)
    console.log(
      `    missed: "${query}" -> ${tool} (got ${ours
        .search(query, { limit: 3 })
        .map((hit) => hit.name)
        .join(', ')})`,
    );
}

if (missed > 0) {
  console.log(`\n${missed} target(s) missed`);
  process.exitCode = 1;
}
