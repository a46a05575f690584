import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { ToolDefinition } from '@toolshed/core';
import { describe, expect, it } from 'vitest';
import { CONTEXT_FORMATS, measureTools } from './index.js';
import { MINIMAL_TOOLS } from './minimal-tools.fixture.js';

const require = createRequire(import.meta.url);

function manifestTools(plugin: string): ToolDefinition[] {
  const dir = path.dirname(require.resolve(`${plugin}/package.json`));
  return (
    JSON.parse(readFileSync(path.join(dir, 'dist', 'toolshed.json'), 'utf8')) as { tools: { definition: ToolDefinition }[] }
  ).tools.map((tool) => tool.definition);
}

const bundled = ['@toolshed/tool-echo', '@toolshed/tool-read-file', '@toolshed/tool-send-email'].flatMap(manifestTools);

describe('the bundled tools are lean', () => {
  it('state the same contract as the minimal hand-written set', () => {
    const shape = (tools: ToolDefinition[]) =>
      tools.map((tool) => ({
        name: tool.name,
        inputs: Object.keys((tool.inputSchema.properties ?? {}) as object),
        required: tool.inputSchema.required,
        outputs: Object.keys((tool.outputSchema?.properties ?? {}) as object),
        annotations: tool.annotations,
      }));
    expect(shape(bundled)).toEqual(shape(MINIMAL_TOOLS));
  });

  for (const format of CONTEXT_FORMATS) {
    it(`cost at most 1.25 times the minimal set in ${format} format`, async () => {
      const ours = await measureTools(bundled, { format });
      const minimal = await measureTools(MINIMAL_TOOLS, { format });
      expect(ours.total.tokens / minimal.total.tokens).toBeLessThanOrEqual(1.25);
    });
  }

  it('keep the guidance a model needs: paging, refusals and the outbox', () => {
    const byName = Object.fromEntries(bundled.map((tool) => [tool.name, tool.description]));
    expect(byName.read_file).toContain('If hasMore, call again with offset: lastLine + 1');
    expect(byName.read_file).toContain('offset -50 gives the last 50 lines');
    expect(byName.read_file).toContain('Secret files and paths outside the project are refused');
    expect(byName.send_email).toContain('Addresses off the allow list are refused');
    expect(byName.send_email).toContain('Without an SMTP server it goes to a local outbox instead, and the result says so');
  });
});
