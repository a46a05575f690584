import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { makeRegistry } from '../tools.fixture.js';
import { toAiSdkTools } from './index.js';

// The spec types, taken from the mock so the test needs no extra package.
type LanguageModelV3CallOptions = Parameters<MockLanguageModelV3['doGenerate']>[0];
type LanguageModelV3GenerateResult = Awaited<ReturnType<MockLanguageModelV3['doGenerate']>>;

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

function toolCalls(...calls: [id: string, name: string, input: unknown][]): LanguageModelV3GenerateResult {
  return {
    content: calls.map(([toolCallId, toolName, input]) => ({ type: 'tool-call', toolCallId, toolName, input: JSON.stringify(input) })),
    finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
    usage,
    warnings: [],
  };
}

describe('toAiSdkTools', () => {
  it('drives a real multi-step generateText: two tools called, one fails, the model sees both results', async () => {
    const { registry, received } = makeRegistry();
    const prompts: LanguageModelV3CallOptions[] = [];
    const replies: LanguageModelV3GenerateResult[] = [
      toolCalls(['call-1', 'get_weather', { location: 'Oslo' }], ['call-2', 'delete_file', { path: '/etc/hosts' }]),
      {
        content: [{ type: 'text', text: 'It is 21 degrees in Oslo; I was not allowed to delete the file.' }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage,
        warnings: [],
      },
    ];
    const model = new MockLanguageModelV3({
      doGenerate: async (options) => {
        prompts.push(options);
        return replies[prompts.length - 1]!;
      },
    });

    const result = await generateText({
      model,
      tools: toAiSdkTools(registry),
      prompt: 'Weather in Oslo, then delete /etc/hosts.',
      stopWhen: stepCountIs(5),
    });

    expect(result.steps).toHaveLength(2);
    expect(result.text).toBe('It is 21 degrees in Oslo; I was not allowed to delete the file.');
    expect(received).toEqual([
      { name: 'get_weather', input: { location: 'Oslo', unit: 'celsius' } },
      { name: 'delete_file', input: { path: '/etc/hosts' } },
    ]);

    // The model was shown every tool with our JSON Schema.
    const shown = prompts[0]!.tools!;
    expect(shown.map((tool) => tool.name)).toEqual(['get_weather', 'search', 'delete_file', 'ping']);
    expect(shown[0]).toMatchObject({ type: 'function', inputSchema: registry.get('get_weather')!.definition.inputSchema });

    // The first step holds one result and one error, with the outcome's message.
    const [first] = result.steps;
    expect(first!.toolResults).toEqual([
      expect.objectContaining({ toolCallId: 'call-1', toolName: 'get_weather', output: { location: 'Oslo', unit: 'celsius', temperature: 21 } }),
    ]);
    const errors = first!.content.filter((part) => part.type === 'tool-error');
    expect(errors).toEqual([
      expect.objectContaining({
        toolCallId: 'call-2',
        toolName: 'delete_file',
        error: expect.objectContaining({
          code: 'denied',
          message: 'delete_file may not delete /etc/hosts: it is outside the project. Pick a path inside the project.',
        }),
      }),
    ]);

    // The second request carried both back to the model.
    const toolMessage = prompts[1]!.prompt.find((message) => message.role === 'tool');
    expect(toolMessage?.content).toEqual([
      expect.objectContaining({ toolCallId: 'call-1', output: { type: 'json', value: { location: 'Oslo', unit: 'celsius', temperature: 21 } } }),
      expect.objectContaining({
        toolCallId: 'call-2',
        output: { type: 'error-text', value: 'delete_file may not delete /etc/hosts: it is outside the project. Pick a path inside the project.' },
      }),
    ]);
  });

  it('invalid input from the model fails in dispatch with the field named, the handler never runs', async () => {
    const { registry, received } = makeRegistry();
    const model = new MockLanguageModelV3({
      doGenerate: [
        toolCalls(['call-9', 'search', { query: 7 }]),
        { content: [{ type: 'text', text: 'ok' }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] },
      ],
    });
    const result = await generateText({ model, tools: toAiSdkTools(registry), prompt: 'search', stopWhen: stepCountIs(3) });
    const errors = result.steps[0]!.content.filter((part) => part.type === 'tool-error');
    expect(errors).toEqual([
      expect.objectContaining({
        toolCallId: 'call-9',
        error: expect.objectContaining({ code: 'invalid_input', message: 'Invalid input for search.query: expected string, received number' }),
      }),
    ]);
    expect(received).toEqual([]);
  });
});
