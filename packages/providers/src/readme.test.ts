import type OpenAI from 'openai';
import { expect, it } from 'vitest';
import { chatLoop } from './readme.fixture.js';

it('the README chat loop runs a strict tool call end to end', async () => {
  const requests: OpenAI.Chat.ChatCompletionCreateParamsNonStreaming[] = [];
  const replies: OpenAI.Chat.ChatCompletionMessage[] = [
    {
      role: 'assistant',
      content: null,
      refusal: null,
      tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"location":"Oslo","unit":null}' } }],
    },
    { role: 'assistant', content: 'It is 21 °C in Oslo.', refusal: null },
  ];
  const client = {
    chat: {
      completions: {
        create: async (body: OpenAI.Chat.ChatCompletionCreateParamsNonStreaming) => {
          requests.push(structuredClone(body));
          const message = replies[requests.length - 1]!;
          return {
            id: `chatcmpl-${requests.length}`,
            object: 'chat.completion',
            created: 1,
            model: body.model,
            choices: [{ index: 0, message, logprobs: null, finish_reason: message.tool_calls ? 'tool_calls' : 'stop' }],
          } satisfies OpenAI.Chat.ChatCompletion;
        },
      },
    },
  } as unknown as Pick<OpenAI, 'chat'>;

  const messages = await chatLoop(client);
  expect(requests).toHaveLength(2);
  expect(requests[0]!.tools).toEqual([
    {
      type: 'function',
      function: expect.objectContaining({
        name: 'get_weather',
        strict: true,
        parameters: expect.objectContaining({ required: ['location', 'unit'], additionalProperties: false }),
      }),
    },
  ]);
  // The null strict mode forced for `unit` became a missing key, so the tool's default applied.
  expect(messages[2]).toEqual({ role: 'tool', tool_call_id: 'call_1', content: '{"location":"Oslo","unit":"celsius","temperature":21}' });
  expect(messages.at(-1)).toMatchObject({ role: 'assistant', content: 'It is 21 °C in Oslo.' });
});
