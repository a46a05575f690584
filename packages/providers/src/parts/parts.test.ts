// Content parts through every adapter: native shapes checked against the official SDK types
// (satisfies, no casts), and sent by the real OpenAI, Anthropic and Gemini clients to a local stand-in
// server that keeps each request body, so the bytes are seen where each API reads them.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import Anthropic from '@anthropic-ai/sdk';
import { type Content, GoogleGenAI } from '@google/genai';
import { type ContentPart, defineTool, type Outcome, ToolRegistry, withParts } from '@toolshed/core';
import OpenAI from 'openai';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anthropic } from '../anthropic/adapter.js';
import { gemini } from '../gemini/adapter.js';
import { mcp } from '../mcp/adapter.js';
import { openaiChat } from '../openai/chat.js';
import { openaiResponses } from '../openai/responses.js';
import { runToolCalls } from '../run-tool-calls.js';
import { makeRegistry } from '../tools.fixture.js';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const PDF = Buffer.from('%PDF-1.4\n%%EOF\n').toString('base64');
const WAV = Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WAVEfmt ')]).toString('base64');
const GZIP = Buffer.from([0x1f, 0x8b, 8, 0]).toString('base64');

const image: ContentPart = { type: 'image', mimeType: 'image/png', data: PNG, name: 'shot.png' };
const pdf: ContentPart = { type: 'file', mimeType: 'application/pdf', data: PDF, name: 'report.pdf' };
const audio: ContentPart = { type: 'audio', mimeType: 'audio/wav', data: WAV };
const gzip: ContentPart = { type: 'file', mimeType: 'application/gzip', data: GZIP, name: 'logs.gz' };
const link: ContentPart = { type: 'file', uri: 'file:///notes.md', name: 'notes.md', mimeType: 'text/markdown' };

async function outcomesOf(parts: ContentPart[], output: unknown = 'Took a screenshot.'): Promise<Outcome[]> {
  const registry = new ToolRegistry().register(
    defineTool({
      name: 'shot',
      description: 'Screenshot.',
      input: v.object({}),
      parts: ['image', 'audio', 'file'],
      run: () => withParts(output, parts),
    }),
  );
  return [await registry.dispatch({ name: 'shot', input: {}, callId: 'call_1' })];
}

describe('Anthropic', () => {
  it('sends images and PDFs as image and document blocks, and names audio and other files in text', async () => {
    const results = anthropic.results(await outcomesOf([image, pdf, audio, gzip, link])).content satisfies Anthropic.ToolResultBlockParam[];
    expect(results[0]!.content).toEqual([
      { type: 'text', text: 'Took a screenshot.' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
      { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: PDF }, title: 'report.pdf' },
      {
        type: 'text',
        text: "[Part 2 of shot's result (audio, audio/wav, 16 bytes) was not sent: Anthropic tool results take PNG, JPEG, GIF and WebP images and PDF documents, not audio/wav. Ask for it in another form if you need its content.]",
      },
      {
        type: 'text',
        text: "[Part 3 of shot's result (file, application/gzip, 4 bytes, logs.gz) was not sent: Anthropic tool results take PNG, JPEG, GIF and WebP images and PDF documents, not application/gzip. Ask for it in another form if you need its content.]",
      },
      { type: 'text', text: '[A file is at file:///notes.md (notes.md, text/markdown); it was not sent inline.]' },
    ]);
  });

  it('names a part over its per-part cap instead of sending it, and never writes base64 as text', async () => {
    const [result] = anthropic.results(await outcomesOf([image]), { maxPartBytes: 10 }).content;
    expect(result!.content).toEqual([
      { type: 'text', text: 'Took a screenshot.' },
      {
        type: 'text',
        text: "[Part 0 of shot's result (image, image/png, 70 bytes, shot.png) was not sent: Anthropic takes at most 10 bytes per part. Ask the tool for a smaller one (a crop, a lower resolution, fewer pages).]",
      },
    ]);
    expect(JSON.stringify(result)).not.toContain(PNG.slice(0, 12));
  });

  it('runToolCalls hands its maxPartBytes to the results, and refuses a bad one before any tool runs', async () => {
    let runs = 0;
    const registry = new ToolRegistry({ approve: 'allow-all' });
    registry.register(
      defineTool({
        name: 'shot',
        description: 'Takes a screenshot.',
        input: v.object({}),
        annotations: { readOnly: true },
        parts: ['image'],
        run: () => {
          runs++;
          return withParts('Took a screenshot.', [image]);
        },
      }),
    );
    const reply = { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'shot', input: {} }] };
    await expect(runToolCalls(registry, anthropic, reply, { maxPartBytes: -1 })).rejects.toThrow(
      'maxPartBytes must be a whole number of bytes',
    );
    expect(runs).toBe(0);
    const { results } = await runToolCalls(registry, anthropic, reply, { maxPartBytes: 10 });
    expect(runs).toBe(1);
    expect(results.content[0]!.content).toEqual([
      { type: 'text', text: 'Took a screenshot.' },
      {
        type: 'text',
        text: "[Part 0 of shot's result (image, image/png, 70 bytes, shot.png) was not sent: Anthropic takes at most 10 bytes per part. Ask the tool for a smaller one (a crop, a lower resolution, fewer pages).]",
      },
    ]);
  });

  it('sends parts alone when the tool gave no text, and the notes on parts the registry left out', async () => {
    const [result] = anthropic.results(await outcomesOf([image, { ...image, mimeType: 'image/jpeg' }], '')).content;
    expect(result!.content).toEqual([
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
      { type: 'text', text: '[shot returned part 1 labelled image/jpeg, but its bytes are not image/jpeg; it was left out.]' },
    ]);
  });
});

describe('OpenAI', () => {
  it('Responses: images as input_image and PDFs as input_file data URLs, audio named in text', async () => {
    const [item] = openaiResponses.results(await outcomesOf([image, pdf, audio])) satisfies OpenAI.Responses.ResponseInputItem[];
    expect(item!.output).toEqual([
      { type: 'input_text', text: 'Took a screenshot.' },
      { type: 'input_image', image_url: `data:image/png;base64,${PNG}`, detail: 'auto' },
      { type: 'input_file', file_data: `data:application/pdf;base64,${PDF}`, filename: 'report.pdf' },
      {
        type: 'input_text',
        text: "[Part 2 of shot's result (audio, audio/wav, 16 bytes) was not sent: function call outputs in the Responses API take images and files, not audio. Ask for it in another form if you need its content.]",
      },
    ]);
  });

  it('Chat Completions: the tool message says where each part went; one user message after the tool messages carries them', async () => {
    const messages = openaiChat.results(await outcomesOf([image, audio, pdf, gzip])) satisfies OpenAI.Chat.ChatCompletionMessageParam[];
    expect(messages).toHaveLength(2);
    expect(messages[0]).toEqual({
      role: 'tool',
      tool_call_id: 'call_1',
      content: [
        'Took a screenshot.',
        '[Part 0 (image, image/png) follows in the next user message, marked call_1 part 0.]',
        '[Part 1 (audio, audio/wav) follows in the next user message, marked call_1 part 1.]',
        '[Part 2 (file, application/pdf) follows in the next user message, marked call_1 part 2.]',
        "[Part 3 of shot's result (file, application/gzip, 4 bytes, logs.gz) was not sent: Chat Completions takes PNG, JPEG, GIF and WebP images, WAV and MP3 audio and PDF files, not application/gzip. Ask for it in another form if you need its content.]",
      ].join('\n'),
    });
    expect(messages[1]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'call_1 part 0 (shot):' },
        { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
        { type: 'text', text: 'call_1 part 1 (shot):' },
        { type: 'input_audio', input_audio: { data: WAV, format: 'wav' } },
        { type: 'text', text: 'call_1 part 2 (shot):' },
        { type: 'file', file: { file_data: `data:application/pdf;base64,${PDF}`, filename: 'report.pdf' } },
      ],
    });
  });
});

describe('Gemini and MCP', () => {
  it('Gemini: images and PDFs in functionResponse.parts, named; other parts in response.notes', async () => {
    const { parts } = gemini.results(await outcomesOf([image, pdf, audio])) satisfies Content;
    expect(parts[0]!.functionResponse).toEqual({
      id: 'call_1',
      name: 'shot',
      response: {
        output: 'Took a screenshot.',
        notes: [
          "[Part 2 of shot's result (audio, audio/wav, 16 bytes) was not sent: Gemini function responses take PNG, JPEG and WebP images, PDF and plain text files, not audio/wav. Ask for it in another form if you need its content.]",
        ],
      },
      parts: [
        { inlineData: { mimeType: 'image/png', data: PNG, displayName: 'shot.png' } },
        { inlineData: { mimeType: 'application/pdf', data: PDF, displayName: 'report.pdf' } },
      ],
    });
  });

  it("MCP: every part as its block, a name in the block's _meta", async () => {
    const [result] = mcp.results(await outcomesOf([image, audio, pdf, link]));
    expect(result!.content).toEqual([
      { type: 'text', text: 'Took a screenshot.' },
      { type: 'image', data: PNG, mimeType: 'image/png', _meta: { 'toolshed/name': 'shot.png' } },
      { type: 'audio', data: WAV, mimeType: 'audio/wav' },
      {
        type: 'resource',
        resource: { uri: 'toolshed://result/part/2', mimeType: 'application/pdf', blob: PDF },
        _meta: { 'toolshed/name': 'report.pdf' },
      },
      { type: 'resource_link', uri: 'file:///notes.md', name: 'notes.md', mimeType: 'text/markdown' },
    ]);
  });
});

// A stand-in for both APIs: it keeps each request body and answers with a final text reply.
const bodies: { path: string; body: Record<string, unknown> }[] = [];
const server = createServer(async (request: IncomingMessage, response) => {
  let text = '';
  for await (const chunk of request) text += chunk;
  bodies.push({ path: request.url ?? '', body: JSON.parse(text) });
  response.setHeader('content-type', 'application/json');
  if (request.url?.endsWith('/messages')) {
    response.end(
      JSON.stringify({
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        model: 'local',
        content: [{ type: 'text', text: 'I see a pixel.' }],
        stop_reason: 'end_turn',
        stop_sequence: null,
        usage: { input_tokens: 1, output_tokens: 1 },
      }),
    );
  } else if (request.url?.includes(':generateContent')) {
    response.end(
      JSON.stringify({ candidates: [{ content: { role: 'model', parts: [{ text: 'I see a pixel.' }] }, finishReason: 'STOP' }] }),
    );
  } else if (request.url?.endsWith('/responses')) {
    response.end(
      JSON.stringify({ id: 'resp_1', object: 'response', created_at: 0, status: 'completed', model: 'local', output: [], output_text: '' }),
    );
  } else {
    response.end(
      JSON.stringify({
        id: 'chatcmpl-1',
        object: 'chat.completion',
        created: 0,
        model: 'local',
        choices: [{ index: 0, message: { role: 'assistant', content: 'I see a pixel.' }, finish_reason: 'stop', logprobs: null }],
      }),
    );
  }
});
let origin: string;
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('the real clients send the parts as the adapters built them', () => {
  it('Anthropic messages.create carries the image block byte for byte', async () => {
    const client = new Anthropic({ apiKey: 'not-used', baseURL: origin, maxRetries: 0 });
    const outcomes = await outcomesOf([image]);
    await client.messages.create({
      model: 'local',
      max_tokens: 16,
      messages: [
        { role: 'user', content: 'Take a screenshot.' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'call_1', name: 'shot', input: {} }] },
        anthropic.results(outcomes),
      ],
    });
    const sent = bodies.at(-1)!.body.messages as Anthropic.MessageParam[];
    expect(sent[2]!.content).toEqual([
      {
        type: 'tool_result',
        tool_use_id: 'call_1',
        content: [
          { type: 'text', text: 'Took a screenshot.' },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
        ],
      },
    ]);
  });

  it('OpenAI chat.completions.create and responses.create carry the parts byte for byte', async () => {
    const client = new OpenAI({ apiKey: 'not-used', baseURL: `${origin}/v1`, maxRetries: 0 });
    const outcomes = await outcomesOf([image]);
    await client.chat.completions.create({
      model: 'local',
      messages: [
        { role: 'user', content: 'Take a screenshot.' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'shot', arguments: '{}' } }] },
        ...openaiChat.results(outcomes),
      ],
    });
    const chat = bodies.at(-1)!.body.messages as OpenAI.Chat.ChatCompletionMessageParam[];
    expect(chat[3]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'call_1 part 0 (shot):' },
        { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
      ],
    });

    await client.responses.create({
      model: 'local',
      input: [{ type: 'function_call', call_id: 'call_1', name: 'shot', arguments: '{}' }, ...openaiResponses.results(outcomes)],
    });
    const input = bodies.at(-1)!.body.input as OpenAI.Responses.ResponseInputItem[];
    expect(input[1]).toEqual({
      type: 'function_call_output',
      call_id: 'call_1',
      output: [
        { type: 'input_text', text: 'Took a screenshot.' },
        { type: 'input_image', image_url: `data:image/png;base64,${PNG}`, detail: 'auto' },
      ],
    });
  });

  it('Gemini models.generateContent carries the declarations and the functionResponse parts byte for byte', async () => {
    const client = new GoogleGenAI({ apiKey: 'not-used', httpOptions: { baseUrl: origin } });
    const outcomes = await outcomesOf([image, pdf]);
    const tools = gemini.tools(makeRegistry().registry);
    await client.models.generateContent({
      model: 'local',
      config: { tools },
      contents: [
        { role: 'user', parts: [{ text: 'Take a screenshot.' }] },
        { role: 'model', parts: [{ functionCall: { id: 'call_1', name: 'shot', args: {} } }] },
        gemini.results(outcomes),
      ],
    });
    const { path, body } = bodies.at(-1)!;
    expect(path).toContain('/models/local:generateContent');
    expect(body.tools).toEqual(tools);
    const sent = body.contents as Content[];
    expect(sent[2]).toEqual({
      role: 'user',
      parts: [
        {
          functionResponse: {
            id: 'call_1',
            name: 'shot',
            response: { output: 'Took a screenshot.' },
            parts: [
              { inlineData: { mimeType: 'image/png', data: PNG, displayName: 'shot.png' } },
              { inlineData: { mimeType: 'application/pdf', data: PDF, displayName: 'report.pdf' } },
            ],
          },
        },
      ],
    });
  });
});
