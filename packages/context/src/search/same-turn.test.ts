// A deferred tool that a search returned is callable in the same turn, on every
// provider path: each real SDK client talks to a stand-in model on 127.0.0.1
// whose one reply calls tool_search and, beside it, the tool the search finds.
import Anthropic from '@anthropic-ai/sdk';
import { type Content, GoogleGenAI } from '@google/genai';
import { anthropic, gemini, openaiChat, openaiResponses } from '@toolshed/providers';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToolSearch, TOOL_SEARCH_NAME, toAnthropicToolsWithSearch } from '../index.js';
import { type StandIn, startStandIn, weatherRegistry } from './stand-in.fixture.js';

const QUERY = { query: 'weather forecast for a city', limit: 1 };
const OSLO = { city: 'Oslo' };

let standIn: StandIn;
beforeAll(async () => {
  standIn = await startStandIn();
});
afterAll(() => standIn.close());

function names(tools: unknown): string[] {
  return (tools as { name?: string; function?: { name: string } }[]).map((tool) => tool.name ?? tool.function!.name);
}

describe('one reply calls tool_search and the tool it finds', () => {
  it('OpenAI Chat Completions: both tool_calls run, each answered by its tool message, the next request lists the tool', async () => {
    const { registry, asked } = weatherRegistry();
    const search = await createToolSearch(registry);
    const client = new OpenAI({ apiKey: 'not-used', baseURL: `${standIn.origin}/v1`, maxRetries: 0 });
    const message = (content: string | null, tool_calls?: unknown[]) => ({
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 0,
      model: 'local',
      choices: [{ index: 0, message: { role: 'assistant', content, tool_calls }, finish_reason: tool_calls ? 'tool_calls' : 'stop' }],
    });
    standIn.script(
      message(null, [
        { id: 'call_1', type: 'function', function: { name: TOOL_SEARCH_NAME, arguments: JSON.stringify(QUERY) } },
        { id: 'call_2', type: 'function', function: { name: 'get_weather', arguments: JSON.stringify(OSLO) } },
      ]),
      message('Sunny in Oslo.'),
    );

    const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Weather in Oslo?' }];
    for (let request = 0; request < 3; request++) {
      const completion = await client.chat.completions.create({ model: 'local', messages, tools: openaiChat.tools(search.tools()) });
      const reply = completion.choices[0]!.message;
      messages.push(reply);
      if (!reply.tool_calls?.length) break;
      messages.push(...openaiChat.results(await search.runToolCalls(openaiChat.parseCalls(reply))));
    }

    expect(asked).toEqual(['Oslo']);
    const [first, second] = standIn.received;
    expect(names(first!.body.tools)).toEqual([TOOL_SEARCH_NAME]);
    expect(names(second!.body.tools)).toEqual([TOOL_SEARCH_NAME, 'get_weather']);
    const answers = (second!.body.messages as { role: string; tool_call_id?: string; content: string }[]).slice(2);
    expect(answers.map((answer) => [answer.role, answer.tool_call_id])).toEqual([
      ['tool', 'call_1'],
      ['tool', 'call_2'],
    ]);
    expect(JSON.parse(answers[0]!.content).tools[0].name).toBe('get_weather');
    expect(JSON.parse(answers[1]!.content)).toEqual({ city: 'Oslo', forecast: 'sunny' });
  });

  it('OpenAI Responses: both function_call items run, answered by function_call_output items', async () => {
    const { registry, asked } = weatherRegistry();
    const search = await createToolSearch(registry);
    const client = new OpenAI({ apiKey: 'not-used', baseURL: `${standIn.origin}/v1`, maxRetries: 0 });
    const response = (output: unknown[]) => ({
      id: 'resp_1',
      object: 'response',
      created_at: 0,
      status: 'completed',
      model: 'local',
      output,
    });
    standIn.script(
      response([
        {
          type: 'function_call',
          id: 'fc_1',
          call_id: 'call_1',
          name: TOOL_SEARCH_NAME,
          arguments: JSON.stringify(QUERY),
          status: 'completed',
        },
        { type: 'function_call', id: 'fc_2', call_id: 'call_2', name: 'get_weather', arguments: JSON.stringify(OSLO), status: 'completed' },
      ]),
      response([
        {
          type: 'message',
          id: 'msg_1',
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'output_text', text: 'Sunny.', annotations: [] }],
        },
      ]),
    );

    const input: OpenAI.Responses.ResponseInputItem[] = [{ role: 'user', content: 'Weather in Oslo?' }];
    for (let request = 0; request < 3; request++) {
      const reply = await client.responses.create({ model: 'local', input, tools: openaiResponses.tools(search.tools()) });
      input.push(...(reply.output as OpenAI.Responses.ResponseInputItem[]));
      const calls = openaiResponses.parseCalls(reply);
      if (calls.length === 0) break;
      input.push(...openaiResponses.results(await search.runToolCalls(calls)));
    }

    expect(asked).toEqual(['Oslo']);
    const [first, second] = standIn.received;
    expect(names(first!.body.tools)).toEqual([TOOL_SEARCH_NAME]);
    expect(names(second!.body.tools)).toEqual([TOOL_SEARCH_NAME, 'get_weather']);
    const outputs = (second!.body.input as { type?: string; call_id?: string; output?: string }[]).filter(
      (item) => item.type === 'function_call_output',
    );
    expect(outputs.map((item) => item.call_id)).toEqual(['call_1', 'call_2']);
    expect(JSON.parse(outputs[1]!.output!)).toEqual({ city: 'Oslo', forecast: 'sunny' });
  });

  it("OpenAI Responses' hosted tool_search: the function_call after its tool_search_output runs, and only it is answered", async () => {
    const { registry, asked } = weatherRegistry();
    const search = await createToolSearch(registry);
    const client = new OpenAI({ apiKey: 'not-used', baseURL: `${standIn.origin}/v1`, maxRetries: 0 });
    // OpenAI's own search, run on its side: the deferred tools marked defer_loading, as for Anthropic's.
    const tools = [
      { type: 'tool_search' as const },
      ...openaiResponses.tools(registry).map((tool) => (search.isDeferred(tool.name) ? { ...tool, defer_loading: true } : tool)),
    ];
    const weather = tools.find((tool) => 'name' in tool && tool.name === 'get_weather')!;
    const response = (output: unknown[]) => ({
      id: 'resp_1',
      object: 'response',
      created_at: 0,
      status: 'completed',
      model: 'local',
      output,
    });
    standIn.script(
      response([
        { type: 'tool_search_call', id: 'ts_1', call_id: null, execution: 'server', status: 'completed', arguments: QUERY },
        { type: 'tool_search_output', id: 'tso_1', call_id: null, execution: 'server', status: 'completed', tools: [weather] },
        { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'get_weather', arguments: JSON.stringify(OSLO), status: 'completed' },
      ]),
      response([]),
    );

    const input: OpenAI.Responses.ResponseInputItem[] = [{ role: 'user', content: 'Weather in Oslo?' }];
    for (let request = 0; request < 3; request++) {
      const reply = await client.responses.create({ model: 'local', input, tools });
      input.push(...(reply.output as OpenAI.Responses.ResponseInputItem[]));
      const calls = openaiResponses.parseCalls(reply);
      if (calls.length === 0) break;
      input.push(...openaiResponses.results(await search.runToolCalls(calls)));
    }

    expect(asked).toEqual(['Oslo']);
    const [first, second] = standIn.received;
    expect(second!.body.tools).toEqual(first!.body.tools);
    const sent = second!.body.input as { type?: string; call_id?: string; output?: string }[];
    expect(sent.map((item) => item.type)).toEqual([
      undefined,
      'tool_search_call',
      'tool_search_output',
      'function_call',
      'function_call_output',
    ]);
    expect(sent[4]).toEqual({ type: 'function_call_output', call_id: 'call_1', output: '{"city":"Oslo","forecast":"sunny"}' });
    expect(search.found()).toEqual([]);
  });

  const anthropicReply = (content: unknown[], stop_reason = 'tool_use') => ({
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    model: 'local',
    content,
    stop_reason,
    stop_sequence: null,
    usage: { input_tokens: 1, output_tokens: 1 },
  });

  async function anthropicLoop(tools: Anthropic.ToolUnion[] | (() => Anthropic.ToolUnion[]), run: (message: Anthropic.Message) => unknown) {
    const client = new Anthropic({ apiKey: 'not-used', baseURL: standIn.origin, maxRetries: 0 });
    const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'Weather in Oslo?' }];
    for (let request = 0; request < 3; request++) {
      const message = await client.messages.create({
        model: 'local',
        max_tokens: 256,
        messages,
        tools: typeof tools === 'function' ? tools() : tools,
      });
      messages.push({ role: 'assistant', content: message.content });
      if (message.stop_reason !== 'tool_use') break;
      messages.push((await run(message)) as Anthropic.MessageParam);
    }
  }

  it('Anthropic Messages with tool_search: both tool_use blocks run, answered in one user message', async () => {
    const { registry, asked } = weatherRegistry();
    const search = await createToolSearch(registry);
    standIn.script(
      anthropicReply([
        { type: 'tool_use', id: 'toolu_1', name: TOOL_SEARCH_NAME, input: QUERY },
        { type: 'tool_use', id: 'toolu_2', name: 'get_weather', input: OSLO },
      ]),
      anthropicReply([{ type: 'text', text: 'Sunny.' }], 'end_turn'),
    );

    await anthropicLoop(
      () => anthropic.tools(search.tools()),
      async (message) => anthropic.results(await search.runToolCalls(anthropic.parseCalls(message))),
    );

    expect(asked).toEqual(['Oslo']);
    const [first, second] = standIn.received;
    expect(names(first!.body.tools)).toEqual([TOOL_SEARCH_NAME]);
    expect(names(second!.body.tools)).toEqual([TOOL_SEARCH_NAME, 'get_weather']);
    const answer = (second!.body.messages as Anthropic.MessageParam[])[2]!;
    expect(answer).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_1', content: expect.stringContaining('"name":"get_weather"') },
        { type: 'tool_result', tool_use_id: 'toolu_2', content: '{"city":"Oslo","forecast":"sunny"}' },
      ],
    });
  });

  it("Anthropic's native search: the tool_use after its tool_reference runs, and only it is answered", async () => {
    const { registry, asked } = weatherRegistry();
    const search = await createToolSearch(registry);
    const tools = toAnthropicToolsWithSearch(registry, search);
    // Anthropic runs the search inside the reply; the client sees its blocks and then Claude's tool_use.
    standIn.script(
      anthropicReply([
        { type: 'server_tool_use', id: 'srvtoolu_1', name: 'tool_search_tool_bm25', input: QUERY },
        {
          type: 'tool_search_tool_result',
          tool_use_id: 'srvtoolu_1',
          content: { type: 'tool_search_tool_search_result', tool_references: [{ type: 'tool_reference', tool_name: 'get_weather' }] },
        },
        { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: OSLO },
      ]),
      anthropicReply([{ type: 'text', text: 'Sunny.' }], 'end_turn'),
    );

    await anthropicLoop(tools, async (message) => anthropic.results(await search.runToolCalls(anthropic.parseCalls(message))));

    expect(asked).toEqual(['Oslo']);
    const [first, second] = standIn.received;
    // The same tools go in every request: Anthropic keeps what its search loaded.
    expect(second!.body.tools).toEqual(first!.body.tools);
    expect((first!.body.tools as { name: string; defer_loading?: boolean }[]).find((tool) => tool.name === 'get_weather')).toMatchObject({
      defer_loading: true,
    });
    const sent = second!.body.messages as Anthropic.MessageParam[];
    expect((sent[1]!.content as { type: string }[]).map((block) => block.type)).toEqual([
      'server_tool_use',
      'tool_search_tool_result',
      'tool_use',
    ]);
    expect(sent[2]).toEqual({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '{"city":"Oslo","forecast":"sunny"}' }],
    });
    // Our own search was not asked: nothing was found on this side.
    expect(search.found()).toEqual([]);
  });

  it('Gemini generateContent: both functionCall parts run, answered by functionResponse parts by name', async () => {
    const { registry, asked } = weatherRegistry();
    const search = await createToolSearch(registry);
    const client = new GoogleGenAI({ apiKey: 'not-used', httpOptions: { baseUrl: standIn.origin } });
    const candidate = (parts: unknown[]) => ({ candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP' }] });
    standIn.script(
      candidate([{ functionCall: { name: TOOL_SEARCH_NAME, args: QUERY } }, { functionCall: { name: 'get_weather', args: OSLO } }]),
      candidate([{ text: 'Sunny.' }]),
    );

    const contents: Content[] = [{ role: 'user', parts: [{ text: 'Weather in Oslo?' }] }];
    for (let request = 0; request < 3; request++) {
      const reply = await client.models.generateContent({ model: 'local', contents, config: { tools: gemini.tools(search.tools()) } });
      contents.push(reply.candidates![0]!.content!);
      const calls = gemini.parseCalls(reply);
      if (calls.length === 0) break;
      contents.push(gemini.results(await search.runToolCalls(calls)));
    }

    expect(asked).toEqual(['Oslo']);
    const [first, second] = standIn.received;
    const declared = (request: typeof first) =>
      names((request!.body.tools as { functionDeclarations: unknown[] }[])[0]!.functionDeclarations);
    expect(declared(first)).toEqual([TOOL_SEARCH_NAME]);
    expect(declared(second)).toEqual([TOOL_SEARCH_NAME, 'get_weather']);
    const answer = (second!.body.contents as Content[])[2]!;
    expect(answer.role).toBe('user');
    expect(answer.parts!.map((part) => part.functionResponse!.name)).toEqual([TOOL_SEARCH_NAME, 'get_weather']);
    expect(answer.parts![1]!.functionResponse!.response).toEqual({ output: { city: 'Oslo', forecast: 'sunny' } });
  });
});
