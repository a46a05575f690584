import { defineTool, ToolRegistry, type ToolDefinition } from '@toolshed/core';
import { adapters, openaiChat, StrictSchemaError } from '@toolshed/providers';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { CONTEXT_FORMATS, measureTools } from '../index.js';

const weather: ToolDefinition = {
  name: 'get_weather',
  description: 'Current weather for a city.',
  inputSchema: {
    type: 'object',
    properties: { city: { type: 'string', description: 'The city, e.g. Oslo.' } },
    required: ['city'],
  },
  outputSchema: { type: 'object', properties: { celsius: { type: 'number' } }, required: ['celsius'] },
};
const ping: ToolDefinition = { name: 'ping', description: 'Check the service is up.', inputSchema: { type: 'object', properties: {} } };

function tokensOf(value: unknown): number {
  return countTokens(JSON.stringify(value));
}

describe('measureTools', () => {
  it('counts exactly what openaiChat.tools sends, per tool and in total', async () => {
    const report = await measureTools([weather, ping], { format: 'openai' });
    const sent = openaiChat.tools([weather, ping]);
    expect(report.total.tokens).toBe(tokensOf(sent));
    expect(report.total.bytes).toBe(Buffer.byteLength(JSON.stringify(sent)));
    expect(report.tools.map((tool) => [tool.name, tool.total.tokens])).toEqual([
      ['get_weather', tokensOf(sent[0])],
      ['ping', tokensOf(sent[1])],
    ]);
    expect(report.tools[0]!.description.tokens).toBe(tokensOf('Current weather for a city.'));
    expect(report.tools[0]!.inputSchema.tokens).toBe(tokensOf(weather.inputSchema));
    expect(report).toMatchObject({ format: 'openai', tokenizer: 'o200k_base', estimate: false });
  });

  it('splits every tool into parts that fit inside its total, in every format', async () => {
    for (const format of CONTEXT_FORMATS) {
      const report = await measureTools([weather, ping], { format });
      for (const tool of report.tools) {
        const parts = tool.description.tokens + tool.inputSchema.tokens;
        expect(parts, `${format} ${tool.name}`).toBeLessThan(tool.total.tokens);
        expect(tool.description.tokens, `${format} ${tool.name}`).toBeGreaterThan(0);
      }
      const sum = report.tools.reduce((total, tool) => total + tool.total.tokens, 0);
      // The request's value adds only its brackets and commas (and Gemini's wrapper) to the tools.
      expect(report.total.tokens - sum, format).toBeGreaterThanOrEqual(0);
      expect(report.total.tokens - sum, format).toBeLessThan(12);
    }
  });

  it('counts no output schema in any format: none is sent, MCP included', async () => {
    for (const format of CONTEXT_FORMATS) {
      const report = await measureTools([weather], { format });
      expect(JSON.stringify(report.tools[0]), format).not.toContain('outputSchema');
    }
    const mcp = await measureTools([weather], { format: 'mcp' });
    expect(mcp.total.tokens).toBe(tokensOf({ tools: adapters.mcp.tools([weather]) }));
    expect(JSON.stringify(adapters.mcp.tools([weather]))).not.toContain('celsius');
    const anthropic = await measureTools([weather], { format: 'anthropic' });
    expect(anthropic.total.tokens).toBe(tokensOf(adapters.anthropic.tools([weather])));
  });

  it('measures the schema a format rewrites, not the one the tool declared', async () => {
    const strict = await measureTools([weather], { format: 'openai-strict' });
    const plain = await measureTools([weather], { format: 'openai' });
    // Strict mode adds additionalProperties: false.
    expect(strict.tools[0]!.inputSchema.tokens).toBeGreaterThan(plain.tools[0]!.inputSchema.tokens);
    // Gemini leaves out a parameters object without properties.
    const gemini = await measureTools([ping], { format: 'gemini' });
    expect(gemini.tools[0]!.inputSchema).toEqual({ bytes: 0, tokens: 0 });
  });

  it('labels the counts for Anthropic, Gemini and MCP as estimates', async () => {
    const labels = await Promise.all(CONTEXT_FORMATS.map(async (format) => [format, (await measureTools([ping], { format })).estimate]));
    expect(Object.fromEntries(labels)).toEqual({
      openai: false,
      'openai-strict': false,
      'openai-responses': false,
      'openai-responses-strict': false,
      anthropic: true,
      gemini: true,
      mcp: true,
    });
  });

  it('counts bytes as UTF-8 and special-token text as plain text', async () => {
    const odd: ToolDefinition = { ...ping, description: 'Prüft <|endoftext|> den Dienst.' };
    const report = await measureTools([odd], { format: 'anthropic' });
    expect(report.tools[0]!.description.bytes).toBe(Buffer.byteLength(JSON.stringify(odd.description)));
    expect(report.tools[0]!.description.bytes).toBeGreaterThan(JSON.stringify(odd.description).length);
    expect(report.tools[0]!.description.tokens).toBeGreaterThan(5);
  });

  it('takes a registry as well as definitions', async () => {
    const registry = new ToolRegistry().register(
      defineTool({ name: 'echo', description: 'Echo text.', input: v.object({ text: v.string() }), run: ({ text }) => text }),
    );
    const fromRegistry = await measureTools(registry, { format: 'openai' });
    const fromList = await measureTools(registry.list(), { format: 'openai' });
    expect(fromRegistry).toEqual(fromList);
    expect(fromRegistry.tools.map((tool) => tool.name)).toEqual(['echo']);
  });

  it('refuses an unknown format, naming the ones there are', async () => {
    await expect(measureTools([ping], { format: 'claude' as never })).rejects.toThrow(
      new TypeError(
        'Unknown format "claude"; use one of openai, openai-strict, openai-responses, openai-responses-strict, anthropic, gemini, mcp.',
      ),
    );
    await expect(measureTools({} as never, { format: 'openai' })).rejects.toThrow(
      /Expected a ToolRegistry or an array of tool definitions/,
    );
  });

  it('reports a schema strict mode cannot take with the providers error, naming the tool', async () => {
    const open: ToolDefinition = {
      name: 'tag',
      description: 'Tag things.',
      inputSchema: { type: 'object', additionalProperties: { type: 'string' } },
    };
    const failure = measureTools([open], { format: 'openai-strict' });
    await expect(failure).rejects.toBeInstanceOf(StrictSchemaError);
    await expect(failure).rejects.toThrow(/tag/);
  });

  it('counts nothing but brackets for no tools', async () => {
    const report = await measureTools([], { format: 'openai' });
    expect(report.tools).toEqual([]);
    expect(report.total).toEqual({ bytes: 2, tokens: tokensOf([]) });
  });
});
