// The README's chat loop, type-checked against the openai package's types
// (readme.test.ts runs it against a stand-in client that answers as the API documents).
import type OpenAI from 'openai';
import { ToolRegistry, defineTool } from '@toolshed/core';
import * as v from 'valibot';
import { parseOpenAIToolCalls, runToolCalls, toOpenAIChatTools, toOpenAIToolMessages } from './index.js';

export async function chatLoop(client: Pick<OpenAI, 'chat'>): Promise<OpenAI.Chat.ChatCompletionMessageParam[]> {
  const registry = new ToolRegistry().register(
    defineTool({
      name: 'get_weather',
      description: 'Current weather for a city.',
      input: v.object({ location: v.string(), unit: v.optional(v.picklist(['celsius', 'fahrenheit']), 'celsius') }),
      run: ({ location, unit }) => ({ location, unit, temperature: 21 }),
    }),
  ).seal();

  const tools = toOpenAIChatTools(registry, { strict: true });
  const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Weather in Oslo?' }];

  for (let turn = 0; turn < 10; turn++) {
    const completion = await client.chat.completions.create({ model: 'gpt-4.1-mini', messages, tools });
    const message = completion.choices[0]!.message;
    messages.push(message);
    if (!message.tool_calls?.length) {
      break;
    }
    const calls = parseOpenAIToolCalls(message, { strict: registry });
    const outcomes = await runToolCalls(registry, calls, { concurrency: 4 });
    messages.push(...toOpenAIToolMessages(outcomes, { maxChars: 20_000 }));
  }
  return messages;
}
