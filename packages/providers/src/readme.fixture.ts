// The README's chat loop, type-checked against the openai package's types
// (readme.test.ts runs it against a stand-in client that answers as the API documents).
import type OpenAI from 'openai';
import { ToolRegistry, defineTool } from '@toolshed/core';
import * as v from 'valibot';
import { openaiChatStrict, runToolCalls } from './index.js';

export async function chatLoop(client: Pick<OpenAI, 'chat'>): Promise<OpenAI.Chat.ChatCompletionMessageParam[]> {
  const registry = new ToolRegistry()
    .register(
      defineTool({
        name: 'get_weather',
        description: 'Current weather for a city.',
        input: v.object({ location: v.string(), unit: v.optional(v.picklist(['celsius', 'fahrenheit']), 'celsius') }),
        run: ({ location, unit }) => ({ location, unit, temperature: 21 }),
      }),
    )
    .seal();

  const tools = openaiChatStrict.tools(registry);
  const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Weather in Oslo?' }];

  for (let turn = 0; turn < 10; turn++) {
    const completion = await client.chat.completions.create({ model: 'gpt-4.1-mini', messages, tools });
    const message = completion.choices[0]!.message;
    messages.push(message);
    const { outcomes, results } = await runToolCalls(registry, openaiChatStrict, message, { concurrency: 4, maxChars: 20_000 });
    if (outcomes.length === 0) {
      break;
    }
    messages.push(...results);
  }
  return messages;
}
