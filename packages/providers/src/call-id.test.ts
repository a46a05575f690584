import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { defineTool, ToolRegistry, type ToolEvent } from '@toolshed/core';
import OpenAI from 'openai';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anthropic } from './anthropic/adapter.js';
import { LOCAL_CALL_ID_PREFIX } from './call-id.js';
import { gemini } from './gemini/adapter.js';
import { openaiChat } from './openai/chat.js';
import { openaiResponses } from './openai/responses.js';
import { dispatchCalls, runToolCalls } from './run-tool-calls.js';

function registryWithTranscript() {
  const ran: string[] = [];
  const registry = new ToolRegistry()
    .register(
      defineTool({
        name: 'lookup',
        description: 'Look a word up.',
        input: v.object({ word: v.string() }),
        run: ({ word }) => (ran.push(word), `${word}: found`),
      }),
    )
    .register(defineTool({ name: 'nothing', description: 'Return nothing.', input: v.object({}), run: () => undefined }));
  const started: string[] = [];
  registry.subscribe((event: ToolEvent) => {
    if (event.type === 'call.start') started.push(event.callId);
  });
  return { registry, ran, started };
}

// An OpenAI-compatible server of the kind that sends tool calls with an empty or no id.
// The real OpenAI client talks to it; each turn's request body is kept for the test.
const bodies: { messages: { role: string; tool_call_id?: string; tool_calls?: { id?: string }[] }[] }[] = [];
const turns = [
  [
    { id: '', type: 'function', function: { name: 'lookup', arguments: '{"word":"a"}' } },
    { type: 'function', function: { name: 'lookup', arguments: '{"word":"b"}' } },
    { id: '', type: 'function', function: { name: 'nothing', arguments: '{}' } },
  ],
  [{ id: '', type: 'function', function: { name: 'lookup', arguments: '{"word":"a"}' } }],
];
const server = createServer(async (request: IncomingMessage, response) => {
  let text = '';
  for await (const chunk of request) text += chunk;
  bodies.push(JSON.parse(text));
  const tool_calls = turns[bodies.length - 1];
  const message = tool_calls ? { role: 'assistant', content: null, tool_calls } : { role: 'assistant', content: 'done' };
  response.setHeader('content-type', 'application/json');
  response.end(
    JSON.stringify({
      id: `chatcmpl-${bodies.length}`,
      object: 'chat.completion',
      created: 0,
      model: 'local',
      choices: [{ index: 0, message, finish_reason: tool_calls ? 'tool_calls' : 'stop', logprobs: null }],
    }),
  );
});
let client: OpenAI;
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  client = new OpenAI({ apiKey: 'not-used', baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, maxRetries: 0 });
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('calls with an empty or missing id', () => {
  it('OpenAI-compatible server: each result answers its call with the id the model gave it, in call order', async () => {
    const { registry, ran, started } = registryWithTranscript();
    const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: 'look up a and b' }];
    for (let turn = 0; turn < 5; turn++) {
      const completion = await client.chat.completions.create({ model: 'local', messages });
      const message = completion.choices[0]!.message;
      messages.push(message);
      if (!message.tool_calls?.length) break;
      const { results } = await runToolCalls(registry, openaiChat, message);
      messages.push(...results);
    }
    expect(bodies).toHaveLength(3);
    expect(ran).toEqual(['a', 'b', 'a']);

    // What the server received: after each assistant turn, one tool message per call, in
    // the same order, each carrying exactly the id of its call ("" where it had none).
    const sent = bodies[2]!.messages;
    const assistants = sent.flatMap((entry, index) => (entry.role === 'assistant' ? [index] : []));
    expect(assistants).toHaveLength(2);
    for (const index of assistants) {
      const calls = sent[index]!.tool_calls!;
      const answers = sent.slice(index + 1, index + 1 + calls.length);
      expect(answers.map((entry) => entry.role)).toEqual(calls.map(() => 'tool'));
      expect(answers.map((entry) => entry.tool_call_id)).toEqual(calls.map((call) => call.id ?? ''));
    }
    expect(sent[2]).toMatchObject({ role: 'tool', content: 'a: found' });
    expect(sent[4]).toMatchObject({ role: 'tool', content: 'nothing finished and returned no output.' });

    // Dispatch gave every call an id of its own: the second turn's "" is not the first's,
    // so a ledger keyed by call id does not take a new call for a retry of an old one.
    expect(started).toHaveLength(4);
    expect(new Set(started).size).toBe(4);
    expect(started.every((id) => id.startsWith(LOCAL_CALL_ID_PREFIX))).toBe(true);
  });

  it('Responses API and Anthropic: the same, and a real id is kept as it is', async () => {
    const { registry, started } = registryWithTranscript();
    const responses = openaiResponses.parseCalls([
      { type: 'function_call', call_id: '', name: 'lookup', arguments: '{"word":"x"}' },
      { type: 'function_call', call_id: 'call_real', name: 'lookup', arguments: '{"word":"y"}' },
    ]);
    const items = openaiResponses.results(await dispatchCalls(registry, responses));
    expect(items.map((item) => item.call_id)).toEqual(['', 'call_real']);

    const uses = anthropic.parseCalls([
      { type: 'tool_use', id: '', name: 'lookup', input: { word: 'p' } },
      { type: 'tool_use', name: 'nothing', input: {} },
      { type: 'tool_use', id: 'toolu_1', name: 'lookup', input: { word: 'q' } },
    ]);
    const blocks = anthropic.results(await dispatchCalls(registry, uses)).content;
    expect(blocks).toEqual([
      { type: 'tool_result', tool_use_id: '', content: 'p: found' },
      { type: 'tool_result', tool_use_id: '', content: 'nothing finished and returned no output.' },
      { type: 'tool_result', tool_use_id: 'toolu_1', content: 'q: found' },
    ]);
    expect(new Set(started).size).toBe(5);

    // An id a model sent is answered as it was, even one that looks like a local id.
    const lookalike = openaiChat.parseCalls([
      { id: `${LOCAL_CALL_ID_PREFIX}x`, type: 'function', function: { name: 'lookup', arguments: '{"word":"z"}' } },
    ]);
    expect(openaiChat.results(await dispatchCalls(registry, lookalike))[0]).toHaveProperty('tool_call_id', `${LOCAL_CALL_ID_PREFIX}x`);
    const geminiLookalike = gemini.parseCalls([{ functionCall: { id: `${LOCAL_CALL_ID_PREFIX}y`, name: 'lookup', args: { word: 'g' } } }]);
    expect(gemini.results(await dispatchCalls(registry, geminiLookalike)).parts[0]!.functionResponse.id).toBe(`${LOCAL_CALL_ID_PREFIX}y`);

    // Calls a harness built itself, without an id, pair the same way.
    const built = await dispatchCalls(registry, [
      { name: 'lookup', input: { word: 'r' } },
      { name: 'lookup', input: { word: 's' }, callId: '' },
    ]);
    expect(openaiChat.results(built).map((message) => ('tool_call_id' in message ? message.tool_call_id : message.role))).toEqual(['', '']);
    expect(built[0]!.callId).not.toBe(built[1]!.callId);
  });
});
