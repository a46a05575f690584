import { createGateway, generateText, jsonSchema, stepCountIs, streamText, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToolSearch, TOOL_SEARCH_NAME } from '../index.js';
import { type StandIn, startStandIn, weatherRegistry } from '../search/stand-in.fixture.js';
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
    // Nothing to hide: the steps' model is left as it is.
    expect(spread.prepareStep({ model: 'any/model' })).toEqual({});
  });
});

describe('toAiSdkToolSearch with a real provider client', () => {
  let standIn: StandIn;
  beforeAll(async () => {
    standIn = await startStandIn();
  });
  afterAll(() => standIn.close());

  it('runs a deferred tool called in the same reply as the tool_search that finds it, and sends back both results', async () => {
    const { registry, asked } = weatherRegistry();
    const search = await createToolSearch(registry);
    // The AI Gateway provider that ships with `ai`: a real HTTP client, pointed at the stand-in.
    const model = createGateway({ baseURL: standIn.origin, apiKey: 'not-used' })('local/model');
    standIn.script(
      {
        content: [
          {
            type: 'tool-call',
            toolCallId: 'c1',
            toolName: TOOL_SEARCH_NAME,
            input: JSON.stringify({ query: 'weather forecast for a city', limit: 1 }),
          },
          { type: 'tool-call', toolCallId: 'c2', toolName: 'get_weather', input: JSON.stringify({ city: 'Oslo' }) },
        ],
        finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
        usage,
        warnings: [],
      },
      stop,
    );

    const result = await generateText({
      model,
      ...toAiSdkToolSearch(registry, search),
      prompt: 'Weather in Oslo?',
      stopWhen: stepCountIs(5),
    });

    expect(asked).toEqual(['Oslo']);
    const [first, second] = standIn.received;
    const sentTools = (request: typeof first) => (request!.body.tools as { name: string }[]).map((tool) => tool.name);
    expect(sentTools(first)).toEqual([TOOL_SEARCH_NAME]);
    expect(sentTools(second)).toEqual([TOOL_SEARCH_NAME, 'get_weather']);
    const toolMessage = (second!.body.prompt as { role: string; content: unknown[] }[]).find((message) => message.role === 'tool')!;
    expect(toolMessage.content).toEqual([
      expect.objectContaining({ type: 'tool-result', toolCallId: 'c1', toolName: TOOL_SEARCH_NAME }),
      expect.objectContaining({
        type: 'tool-result',
        toolCallId: 'c2',
        toolName: 'get_weather',
        output: { type: 'json', value: { city: 'Oslo', forecast: 'sunny' } },
      }),
    ]);
    expect(result.text).toBe('done');
  });

  it('streamText too: the tool called beside the search runs, and the next step lists it', async () => {
    const { registry, asked } = weatherRegistry();
    const search = await createToolSearch(registry);
    const model = createGateway({ baseURL: standIn.origin, apiKey: 'not-used' })('local/model');
    const call = (toolCallId: string, toolName: string, input: unknown) => ({
      type: 'tool-call',
      toolCallId,
      toolName,
      input: JSON.stringify(input),
    });
    standIn.script(
      {
        events: [
          { type: 'stream-start', warnings: [] },
          call('c1', TOOL_SEARCH_NAME, { query: 'weather forecast for a city', limit: 1 }),
          call('c2', 'get_weather', { city: 'Oslo' }),
          { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage },
        ],
      },
      {
        events: [
          { type: 'stream-start', warnings: [] },
          { type: 'text-start', id: 't1' },
          { type: 'text-delta', id: 't1', delta: 'done' },
          { type: 'text-end', id: 't1' },
          { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
        ],
      },
    );

    const result = streamText({ model, ...toAiSdkToolSearch(registry, search), prompt: 'Weather in Oslo?', stopWhen: stepCountIs(5) });

    expect(await result.text).toBe('done');
    expect(asked).toEqual(['Oslo']);
    const [first, second] = standIn.received;
    const sentTools = (request: typeof first) => (request!.body.tools as { name: string }[]).map((sent) => sent.name);
    expect(sentTools(first)).toEqual([TOOL_SEARCH_NAME]);
    expect(sentTools(second)).toEqual([TOOL_SEARCH_NAME, 'get_weather']);
    const toolMessage = (second!.body.prompt as { role: string; content: unknown[] }[]).find((message) => message.role === 'tool')!;
    expect(toolMessage.content[1]).toMatchObject({
      toolCallId: 'c2',
      output: { type: 'json', value: { city: 'Oslo', forecast: 'sunny' } },
    });
  });

  it("lists the harness's own tools beside the search, and refuses a model id where it needs the model", async () => {
    const { registry } = weatherRegistry();
    const search = await createToolSearch(registry);
    const spread = toAiSdkToolSearch(registry, search);
    const model = createGateway({ baseURL: standIn.origin, apiKey: 'not-used' })('local/model');
    const own = tool({ description: 'Ask the user.', inputSchema: jsonSchema({ type: 'object', properties: {} }), execute: () => 'yes' });
    standIn.script(stop);
    await generateText({ model, ...spread, tools: { ...spread.tools, ask_user: own }, prompt: 'Hi' });
    expect((standIn.received[0]!.body.tools as { name: string }[]).map((sent) => sent.name)).toEqual([TOOL_SEARCH_NAME, 'ask_user']);
    expect(() => spread.prepareStep({ model: 'openai/gpt-5' })).toThrow(
      'toAiSdkToolSearch\'s prepareStep needs a model instance, got the id "openai/gpt-5"; pass the provider\'s model.',
    );
  });
});
