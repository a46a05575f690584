import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { ToolDefinition } from '@toolshed/core';
import { describe, expect, it } from 'vitest';
import { CONTEXT_FORMATS, measureTools } from './index.js';

const require = createRequire(import.meta.url);

/** The definitions a model is sent, from each bundled plugin's built manifest (what `toolshed context` reads). */
function manifestTools(plugin: string): ToolDefinition[] {
  const packageFile = require.resolve(`${plugin}/package.json`);
  const manifest = JSON.parse(readFileSync(path.join(path.dirname(packageFile), 'dist', 'toolshed.json'), 'utf8')) as {
    tools: { definition: ToolDefinition }[];
  };
  return manifest.tools.map((tool) => tool.definition);
}

const bundled = ['@toolshed/tool-echo', '@toolshed/tool-read-file', '@toolshed/tool-send-email'].flatMap(manifestTools);

/**
 * Each bundled tool's cost in o200k tokens, per format. A change to a
 * description or a schema changes these: update them on purpose, so that
 * growth is a decision someone made and a reviewer sees. (mcp grew by 12, 12
 * and 6 when the MCP listing began to state every hint, false where absent, so
 * that a client does not read a missing destructiveHint/openWorldHint as true;
 * it fell from 98, 274 and 384 when it stopped listing output schemas and the
 * title twice.)
 */
const PINNED: Record<string, Record<(typeof CONTEXT_FORMATS)[number], number>> = {
  echo: { openai: 56, 'openai-strict': 64, 'openai-responses': 57, 'openai-responses-strict': 62, anthropic: 50, gemini: 49, mcp: 77 },
  read_file: {
    openai: 141,
    'openai-strict': 162,
    'openai-responses': 142,
    'openai-responses-strict': 160,
    anthropic: 135,
    gemini: 134,
    mcp: 167,
  },
  send_email: {
    openai: 161,
    'openai-strict': 177,
    'openai-responses': 162,
    'openai-responses-strict': 175,
    anthropic: 155,
    gemini: 169,
    mcp: 187,
  },
};

describe('the bundled tools cost what is pinned here', () => {
  for (const format of CONTEXT_FORMATS) {
    it(`in ${format} format`, async () => {
      const report = await measureTools(bundled, { format });
      const costs = Object.fromEntries(report.tools.map((tool) => [tool.name, tool.total.tokens]));
      const pinned = Object.fromEntries(Object.entries(PINNED).map(([name, byFormat]) => [name, byFormat[format]]));
      expect(costs).toEqual(pinned);
    });
  }
});

describe("MCP's tools/list is as lean as the other formats", () => {
  it("costs at most 1.25 times OpenAI's tools for the bundled tools: the hints are all it adds", async () => {
    const mcp = await measureTools(bundled, { format: 'mcp' });
    const openai = await measureTools(bundled, { format: 'openai' });
    expect(mcp.total.tokens / openai.total.tokens).toBeLessThanOrEqual(1.25);
    // The same descriptions and input schemas, token for token.
    for (const [index, tool] of mcp.tools.entries()) {
      expect(tool.description).toEqual(openai.tools[index]!.description);
      expect(tool.inputSchema).toEqual(openai.tools[index]!.inputSchema);
    }
  });
});
