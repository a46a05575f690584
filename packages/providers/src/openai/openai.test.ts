import type OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { dispatchCalls } from '../run-tool-calls.js';
import { makeRegistry } from '../tools.fixture.js';
import { openaiChat, openaiChatStrict } from './chat.js';
import { openaiResponses, openaiResponsesStrict } from './responses.js';
import { StrictSchemaError } from './strict-schema.js';
import { defineTool, ToolRegistry } from '@toolshed/core';
import * as v from 'valibot';

// A Chat Completions response as the API documents it: arguments are a JSON string.
const chatCompletion = {
  id: 'chatcmpl-abc123',
  object: 'chat.completion',
  created: 1699896916,
  model: 'gpt-4o-mini',
  choices: [
    {
      index: 0,
      message: {
        role: 'assistant',
        content: null,
        refusal: null,
        tool_calls: [
          { id: 'call_abc123', type: 'function', function: { name: 'get_weather', arguments: '{\n"location": "Boston, MA"\n}' } },
          { id: 'call_def456', type: 'function', function: { name: 'get_weather', arguments: '{"location": "Paris, France", "unit":' } },
          { id: 'call_ghi789', type: 'function', function: { name: 'delete_file', arguments: '{"path":"/etc/passwd"}' } },
          { id: 'call_jkl012', type: 'function', function: { name: 'get_wether', arguments: '{"location":"Rome"}' } },
        ],
      },
      logprobs: null,
      finish_reason: 'tool_calls',
    },
  ],
  usage: { prompt_tokens: 82, completion_tokens: 17, total_tokens: 99 },
} satisfies OpenAI.Chat.ChatCompletion;

// A Responses API output as documented: function_call items beside other items.
const responseOutput = [
  { type: 'reasoning', id: 'rs_1', summary: [] },
  {
    type: 'function_call',
    id: 'fc_12345xyz',
    call_id: 'call_12345xyz',
    name: 'get_weather',
    arguments: '{"location":"Paris, France"}',
    status: 'completed',
  },
  { type: 'function_call', id: 'fc_2', call_id: 'call_2', name: 'search', arguments: 'not json' },
] satisfies OpenAI.Responses.ResponseOutputItem[];

describe('OpenAI tool lists', () => {
  it('Chat Completions: {type: "function", function: {name, description, parameters}}', () => {
    const { registry } = makeRegistry();
    const tools = openaiChat.tools(registry) satisfies OpenAI.Chat.ChatCompletionTool[];
    expect(tools[0]).toEqual({
      type: 'function',
      function: {
        name: 'get_weather',
        description: 'Current weather for a city.',
        parameters: registry.get('get_weather')!.definition.inputSchema,
      },
    });
    expect(tools.map((tool) => tool.function.name)).toEqual(['get_weather', 'search', 'delete_file', 'ping']);
  });

  it('Responses: {type: "function", name, description, parameters, strict}', () => {
    const { registry } = makeRegistry();
    const tools = openaiResponsesStrict.tools(registry.list()) satisfies OpenAI.Responses.FunctionTool[];
    expect(tools[0]).toMatchObject({ type: 'function', name: 'get_weather', strict: true });
    expect(tools[0]!.parameters).toMatchObject({ required: ['location', 'unit'], additionalProperties: false });
    expect(openaiResponses.tools(registry)[0]!.strict).toBe(false);
  });

  it('strict: every tool rewritten, or an error naming each tool that cannot be', () => {
    const { registry } = makeRegistry();
    const strict = openaiChatStrict.tools(registry);
    expect(strict.every((tool) => tool.function.strict === true && tool.function.parameters.additionalProperties === false)).toBe(true);

    const withRecord = new ToolRegistry().register(
      defineTool({
        name: 'set_labels',
        description: 'Set labels.',
        input: v.object({ labels: v.record(v.string(), v.string()) }),
        run: () => 'ok',
      }),
    );
    let error: unknown;
    try {
      openaiChatStrict.tools(withRecord);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(StrictSchemaError);
    expect((error as StrictSchemaError).tools.map((tool) => tool.name)).toEqual(['set_labels']);
    expect((error as Error).message).toContain(
      'Tool "set_labels" cannot be sent with OpenAI strict mode:\n  - field "labels": it is a record with open-ended keys',
    );
    expect((error as Error).message).toContain('send the tools without strict mode');
    // Without strict the same tool is listed as it is.
    expect(openaiChat.tools(withRecord)[0]!.function.parameters).toEqual(withRecord.get('set_labels')!.definition.inputSchema);
  });
});

describe('OpenAI tool calls in, results out', () => {
  it('runs each call with the provider call id; malformed JSON is an invalid_input outcome and the handler never runs', async () => {
    const { registry, received } = makeRegistry();
    const calls = openaiChat.parseCalls(chatCompletion.choices[0]!.message);
    expect(calls.map((call) => [call.callId, call.name])).toEqual([
      ['call_abc123', 'get_weather'],
      ['call_def456', 'get_weather'],
      ['call_ghi789', 'delete_file'],
      ['call_jkl012', 'get_wether'],
    ]);
    const outcomes = await dispatchCalls(registry, calls, { approve: 'allow-all' });
    expect(outcomes.map((outcome) => [outcome.callId, outcome.name, outcome.ok ? 'ok' : outcome.error.code])).toEqual([
      ['call_abc123', 'get_weather', 'ok'],
      ['call_def456', 'get_weather', 'invalid_input'],
      ['call_ghi789', 'delete_file', 'denied'],
      ['call_jkl012', 'get_wether', 'unknown_tool'],
    ]);
    const malformed = outcomes[1]!;
    expect(malformed.input).toBe('{"location": "Paris, France", "unit":');
    expect(!malformed.ok && malformed.error.message).toMatch(
      /^Invalid input for get_weather: the arguments are not valid JSON \(.+\)\. Send the arguments as a single JSON object/,
    );
    expect(received.map((call) => call.input)).toEqual([{ location: 'Boston, MA', unit: 'celsius' }, { path: '/etc/passwd' }]);

    const messages = openaiChat.results(outcomes) satisfies OpenAI.Chat.ChatCompletionMessageParam[];
    expect(messages[0]).toEqual({
      role: 'tool',
      tool_call_id: 'call_abc123',
      content: '{"location":"Boston, MA","unit":"celsius","temperature":21}',
    });
    expect(messages[2]).toEqual({
      role: 'tool',
      tool_call_id: 'call_ghi789',
      content: 'Error (denied): delete_file may not delete /etc/passwd: it is outside the project. Pick a path inside the project.',
    });
    expect(messages[3]!.content).toBe(
      'Error (unknown_tool): Unknown tool "get_wether"; available tools: get_weather, search, delete_file, ping.',
    );
    // The messages fit the next request as they are.
    const next: OpenAI.Chat.ChatCompletionMessageParam[] = [chatCompletion.choices[0]!.message, ...messages];
    expect(next).toHaveLength(5);
  });

  it('reads empty arguments as no arguments, and a custom tool call as a clear error', async () => {
    const { registry, received } = makeRegistry();
    const calls = openaiChat.parseCalls([
      { id: 'call_1', type: 'function', function: { name: 'ping', arguments: '' } },
      { id: 'call_2', type: 'custom', custom: { name: 'search', input: 'raw text' } },
    ] satisfies OpenAI.Chat.ChatCompletionMessageToolCall[]);
    const outcomes = await dispatchCalls(registry, calls);
    expect(outcomes[0]).toMatchObject({ ok: true, callId: 'call_1', output: 'pong' });
    expect(outcomes[1]).toMatchObject({
      ok: false,
      callId: 'call_2',
      name: 'search',
      input: 'raw text',
      error: { code: 'invalid_input', message: expect.stringContaining('sent as a "custom" tool call') },
    });
    expect(received.map((call) => call.name)).toEqual(['ping']);
    expect(openaiChat.parseCalls({ tool_calls: null })).toEqual([]);
    expect(openaiChat.parseCalls(undefined)).toEqual([]);
  });

  it('arguments that are JSON but not an object, or a call without a function, fail with the field named', async () => {
    const { registry, received } = makeRegistry();
    const calls = openaiChat.parseCalls([
      { id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: '["Oslo"]' } },
      { id: 'call_b', type: 'function' } as unknown as OpenAI.Chat.ChatCompletionMessageToolCall,
    ]);
    // Approved, so that get_weather (open-world) gets as far as its input.
    const outcomes = await dispatchCalls(registry, calls, { approve: 'allow-all' });
    expect(outcomes[0]).toMatchObject({
      ok: false,
      callId: 'call_a',
      input: ['Oslo'],
      error: { code: 'invalid_input', message: 'Invalid input for get_weather: expected object, received array' },
    });
    expect(outcomes[1]).toMatchObject({
      ok: false,
      callId: 'call_b',
      error: { code: 'unknown_tool', message: expect.stringContaining('Unknown tool "(unnamed)"') },
    });
    expect(received).toEqual([]);
  });

  it('refuses something that is not a registry or a list of definitions', () => {
    expect(() => openaiChat.tools({} as never)).toThrow('Expected a ToolRegistry or an array of tool definitions (registry.list()).');
  });

  it('strict round trip: the nulls strict mode forced become missing keys, so defaults apply', async () => {
    const { registry, received } = makeRegistry();
    const tools = openaiChatStrict.tools(registry);
    expect(tools[1]!.function.parameters.required).toEqual(['query', 'limit', 'filter', 'sort']);
    // What a model bound by the strict schema sends: every key, null for the ones it leaves out.
    const toolCalls = [
      {
        id: 'call_s1',
        type: 'function',
        function: { name: 'search', arguments: '{"query":"tools","limit":null,"filter":{"tags":null,"author":null},"sort":null}' },
      },
      { id: 'call_s2', type: 'function', function: { name: 'get_weather', arguments: '{"location":"Oslo","unit":null}' } },
    ] satisfies OpenAI.Chat.ChatCompletionMessageToolCall[];
    const outcomes = await dispatchCalls(registry, openaiChatStrict.parseCalls(toolCalls, { tools: registry }), { approve: 'allow-all' });
    expect(outcomes.every((outcome) => outcome.ok)).toBe(true);
    expect(received.map((call) => call.input)).toEqual([
      { query: 'tools', limit: 10, filter: { author: null } },
      { location: 'Oslo', unit: 'celsius' },
    ]);
    // Without the strict option the nulls reach the tool's schema, which refuses them.
    const [refused] = await dispatchCalls(registry, openaiChat.parseCalls(toolCalls.slice(1)), { approve: 'allow-all' });
    expect(refused).toMatchObject({ ok: false, error: { code: 'invalid_input', message: expect.stringContaining('get_weather.unit') } });
  });

  it('Responses: reads function_call items by call_id and answers with function_call_output items', async () => {
    const { registry, received } = makeRegistry();
    const calls = openaiResponses.parseCalls({ output: responseOutput });
    expect(calls.map((call) => call.callId)).toEqual(['call_12345xyz', 'call_2']);
    const outcomes = await dispatchCalls(registry, calls, { approve: 'allow-all' });
    const items = openaiResponses.results(outcomes) satisfies OpenAI.Responses.ResponseInputItem[];
    expect(items).toEqual([
      { type: 'function_call_output', call_id: 'call_12345xyz', output: '{"location":"Paris, France","unit":"celsius","temperature":21}' },
      {
        type: 'function_call_output',
        call_id: 'call_2',
        output: expect.stringMatching(/^Error \(invalid_input\): Invalid input for search: the arguments are not valid JSON/),
      },
    ]);
    expect(received.map((call) => call.name)).toEqual(['get_weather']);
  });

  it('caps each result with a note saying how much was cut', async () => {
    const registry = new ToolRegistry().register(
      defineTool({ name: 'big', description: 'Big output.', input: v.object({}), run: () => 'x'.repeat(5000) }),
    );
    const outcomes = await dispatchCalls(registry, [{ callId: 'c1', name: 'big', input: {} }]);
    const [message] = openaiChat.results(outcomes, { maxChars: 1000 });
    expect(message!.content.length).toBeLessThanOrEqual(1000);
    expect(message!.content).toMatch(/^x+\n\[Truncated: showing the first \d+ of 5000 characters\. Ask for less/);
    expect(openaiChat.results(outcomes)[0]!.content).toBe('x'.repeat(5000));
    expect(() => openaiChat.results(outcomes, { maxChars: 10 })).toThrow(
      'maxChars must be a whole number of characters, at least 200 (or Infinity), got 10.',
    );
  });
});
