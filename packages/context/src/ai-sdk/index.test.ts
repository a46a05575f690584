import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { createToolSearch, TOOL_SEARCH_NAME } from '../index.js';
import { catalogueRegistry } from '../search/tools.fixture.js';
import { toAiSdkToolSearch } from './index.js';

type CallOptions = Parameters<MockLanguageModelV3['doGenerate']>[0];
type GenerateResult = Awaited<ReturnType<MockLanguageModelV3['doGenerate']>>;

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

function toolCall(toolCallId: string, toolName: string, input: unknown): GenerateResult {
  return {
    content: [{ type: 'tool-call', toolCallId, toolName, input: JSON.stringify(input) }],
    finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
    usage,
    warnings: [],
  };
}

const stop: GenerateResult = {
  content: [{ type: 'text', text: 'done' }],
  finishReason: { unified: 'stop', raw: 'stop' },
  usage,
  warnings: [],
};

describe('toAiSdkToolSearch', () => {
  it('drives generateText: step 1 sees only tool_search, later steps the tools it found, and their calls run', async () => {
    const registry = catalogueRegistry({ mode: 'search', alwaysLoaded: ['read_file'] });
    const search = await createToolSearch(registry);
    const prompts: CallOptions[] = [];
    const replies = [
      toolCall('c1', TOOL_SEARCH_NAME, { query: 'weather forecast', limit: 1 }),
      toolCall('c2', 'get_weather', { city: 'Oslo' }),
    ];
    const model = new MockLanguageModelV3({
      doGenerate: async (options) => {
        prompts.push(options);
        return replies[prompts.length - 1] ?? stop;
      },
    });

    const result = await generateText({
      model,
      ...toAiSdkToolSearch(registry, search),
      prompt: 'Weather in Oslo?',
      stopWhen: stepCountIs(5),
    });

    const shown = prompts.map((prompt) => (prompt.tools ?? []).map((tool) => tool.name).sort());
    expect(shown[0]).toEqual([TOOL_SEARCH_NAME, 'read_file'].sort());
    expect(shown[1]).toEqual(['get_weather', TOOL_SEARCH_NAME, 'read_file'].sort());
    expect(result.steps[0]!.toolResults[0]).toMatchObject({ toolName: TOOL_SEARCH_NAME, output: { tools: [{ name: 'get_weather' }] } });
    expect(result.steps[1]!.toolResults[0]).toMatchObject({ toolName: 'get_weather', output: 'get_weather(Oslo)' });
    expect(result.text).toBe('done');
  });

  it('sends every tool and no tool_search when nothing is deferred', async () => {
    const registry = catalogueRegistry();
    const spread = toAiSdkToolSearch(registry, await createToolSearch(registry));
    expect(Object.keys(spread.tools)).toEqual(registry.list().map((tool) => tool.name));
    expect(spread.activeTools).toEqual(Object.keys(spread.tools));
  });
});
