import type Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { dispatchCalls } from '../run-tool-calls.js';
import { makeRegistry } from '../tools.fixture.js';
import { anthropic } from './adapter.js';

// An assistant turn as the Messages API documents it: text, then tool_use blocks with parsed input.
const assistantContent = [
  { type: 'text', text: "I'll check the weather and look it up.", citations: null },
  {
    type: 'tool_use',
    id: 'toolu_01A09q90qw90lq917835lq9',
    name: 'get_weather',
    input: { location: 'San Francisco, CA', unit: 'fahrenheit' },
    caller: { type: 'direct' },
  },
  { type: 'tool_use', id: 'toolu_02', name: 'search', input: { query: 42 }, caller: { type: 'direct' } },
  { type: 'tool_use', id: 'toolu_03', name: 'ping', input: {}, caller: { type: 'direct' } },
] satisfies Anthropic.ContentBlock[];

describe('Anthropic', () => {
  it('lists tools as {name, description, input_schema}', () => {
    const { registry } = makeRegistry();
    const tools = anthropic.tools(registry) satisfies Anthropic.Tool[];
    expect(tools[0]).toEqual({
      name: 'get_weather',
      description: 'Current weather for a city.',
      input_schema: registry.get('get_weather')!.definition.inputSchema,
    });
    expect(tools).toHaveLength(4);
  });

  it('runs tool_use blocks by their id and answers with tool_result blocks, is_error on failure', async () => {
    const { registry, received } = makeRegistry();
    const calls = anthropic.parseCalls({ content: assistantContent });
    expect(calls.map((call) => call.callId)).toEqual(['toolu_01A09q90qw90lq917835lq9', 'toolu_02', 'toolu_03']);
    const outcomes = await dispatchCalls(registry, calls, { approve: 'allow-all' });
    const results = anthropic.results(outcomes).content satisfies Anthropic.ToolResultBlockParam[];
    expect(results).toEqual([
      {
        type: 'tool_result',
        tool_use_id: 'toolu_01A09q90qw90lq917835lq9',
        content: '{"location":"San Francisco, CA","unit":"fahrenheit","temperature":21}',
      },
      {
        type: 'tool_result',
        tool_use_id: 'toolu_02',
        content: 'Error (invalid_input): Invalid input for search.query: expected string, received number',
        is_error: true,
      },
      { type: 'tool_result', tool_use_id: 'toolu_03', content: 'pong' },
    ]);
    expect(received.map((call) => call.name)).toEqual(['get_weather', 'ping']);

    // The whole conversation type-checks as the next request's messages.
    const messages: Anthropic.MessageParam[] = [
      { role: 'user', content: 'Weather in SF?' },
      { role: 'assistant', content: assistantContent },
      anthropic.results(outcomes),
    ];
    expect(messages[2]).toEqual({ role: 'user', content: results });
  });

  it('skips non-tool blocks and reads nothing from a message without content', () => {
    expect(anthropic.parseCalls([{ type: 'text', text: 'hi', citations: null }])).toEqual([]);
    expect(anthropic.parseCalls({ content: 'just text' })).toEqual([]);
    expect(anthropic.parseCalls(null)).toEqual([]);
  });
});
