import { describe, expect, it } from 'vitest';
import { adapters } from './adapters.js';
import { TOOL_FORMATS } from './formats.js';
import { anthropic } from './anthropic/adapter.js';
import { gemini } from './gemini/adapter.js';
import { mcp } from './mcp/adapter.js';
import { openaiChat, openaiChatStrict } from './openai/chat.js';
import { openaiResponsesStrict } from './openai/responses.js';
import { dispatchCalls, runToolCalls } from './run-tool-calls.js';
import { makeRegistry } from './tools.fixture.js';

describe('adapters', () => {
  it('one adapter per format, named by it, each with the same three parts', () => {
    expect(Object.keys(adapters)).toEqual([...TOOL_FORMATS]);
    for (const [format, adapter] of Object.entries(adapters)) {
      expect(adapter.format).toBe(format);
      expect([typeof adapter.tools, typeof adapter.parseCalls, typeof adapter.results]).toEqual(['function', 'function', 'function']);
    }
  });

  it('every adapter lists every tool, reads nothing from an empty reply, and answers no outcomes with no results', () => {
    const { registry } = makeRegistry();
    for (const adapter of Object.values(adapters)) {
      expect(JSON.stringify(adapter.tools(registry)), adapter.format).toContain('"search"');
      for (const reply of [undefined, null, {}, [], 'text'])
        expect(adapter.parseCalls(reply, { tools: registry }), adapter.format).toEqual([]);
    }
    expect(openaiChat.results([])).toEqual([]);
    expect(anthropic.results([])).toEqual({ role: 'user', content: [] });
    expect(gemini.results([])).toEqual({ role: 'user', parts: [] });
  });

  it('no adapter throws on a reply of junk a model or a proxy could send; what it reads as a call is named and never runs unasked', async () => {
    const { registry, received } = makeRegistry();
    const junk = [
      null,
      5,
      'x',
      [],
      {},
      { type: 'function' },
      { type: 'custom' },
      { type: 'function_call' },
      { type: 'tool_use', name: 7 },
      { functionCall: 7 },
      { functionCall: {} },
      { method: 'tools/call' },
    ];
    for (const adapter of Object.values(adapters)) {
      for (const reply of [
        junk,
        { tool_calls: junk },
        { output: junk },
        { content: junk },
        { parts: junk },
        { candidates: [{ content: { parts: junk } }] },
      ]) {
        const calls = adapter.parseCalls(reply, { tools: registry });
        for (const call of calls) expect(typeof call.name, adapter.format).toBe('string');
        const outcomes = await dispatchCalls(registry, calls);
        expect(
          outcomes.every((outcome) => !outcome.ok),
          adapter.format,
        ).toBe(true);
      }
    }
    expect(received).toEqual([]);
  });

  it("a model's arguments nested 200,000 deep, in every API's reply: refused as invalid_input, nothing runs, and every result is written", async () => {
    const { registry, received } = makeRegistry();
    const text = `{"query":"q","filter":{"tags":${'['.repeat(200_000)}${']'.repeat(200_000)}}}`;
    const parsed = JSON.parse(text);
    const openaiCalls = [{ id: 'c1', type: 'function', function: { name: 'search', arguments: text } }];
    const replies: Record<string, unknown> = {
      openai: openaiCalls,
      'openai-strict': openaiCalls,
      'openai-responses': { output: [{ type: 'function_call', call_id: 'c1', name: 'search', arguments: text }] },
      'openai-responses-strict': { output: [{ type: 'function_call', call_id: 'c1', name: 'search', arguments: text }] },
      anthropic: { content: [{ type: 'tool_use', id: 'c1', name: 'search', input: parsed }] },
      gemini: { candidates: [{ content: { parts: [{ functionCall: { id: 'c1', name: 'search', args: parsed } }] } }] },
      mcp: [{ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search', arguments: parsed } }],
    };
    expect(Object.keys(replies)).toEqual(Object.keys(adapters));
    for (const [format, adapter] of Object.entries(adapters)) {
      const outcomes = await dispatchCalls(registry, adapter.parseCalls(replies[format], { tools: registry }), { approve: 'allow-all' });
      const results = adapter.results(outcomes);
      expect(outcomes, format).toMatchObject([
        {
          ok: false,
          name: 'search',
          error: {
            code: 'invalid_input',
            message: 'Invalid input for search: expected a JSON value, received a value nested too deeply to check',
          },
        },
      ]);
      expect(JSON.stringify(results), format).toContain('nested too deeply to check');
    }
    expect(received).toEqual([]);
  });

  it("no adapter throws on a tool's output JSON cannot write (cycle, BigInt, deep nesting): the model reads that it is the tool's fault", () => {
    const cycle: Record<string, unknown> = { a: 1 };
    cycle.self = cycle;
    const deep = JSON.parse(`{"rows":${'['.repeat(200_000)}${']'.repeat(200_000)}}`);
    for (const output of [cycle, { n: 10n }, deep]) {
      const outcome = { ok: true as const, callId: 'call_1', name: 'maker', input: {}, output, durationMs: 1 };
      for (const adapter of Object.values(adapters)) {
        let results: unknown;
        expect(() => {
          results = adapter.results([outcome]);
        }, adapter.format).not.toThrow();
        const written = JSON.stringify(results);
        expect(written, adapter.format).toContain('maker returned output that cannot be sent as JSON (');
        expect(written, adapter.format).toContain('This is a fault in the tool, not in your call.');
      }
    }
  });

  it('a strict adapter asked to read calls without the tools that were sent says so, rather than let the nulls through', () => {
    const reply = {
      tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"location":"Oslo","unit":null}' } }],
    };
    expect(() => openaiChatStrict.parseCalls(reply)).toThrow(
      'openaiChatStrict.parseCalls needs {tools}: the tools that were sent (the registry or its list), to turn the nulls strict mode makes the model send back into left-out keys.',
    );
    expect(() => openaiResponsesStrict.parseCalls([])).toThrow(TypeError);
  });
});

describe('runToolCalls with an adapter', () => {
  it('reads the reply, runs the calls and gives the outcomes and the results; strict nulls are undone with its registry', async () => {
    const { registry, received } = makeRegistry();
    const message = {
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"location":"Oslo","unit":null}' } },
        { id: 'call_2', type: 'function', function: { name: 'search', arguments: '{"query":' } },
      ],
    };
    const { outcomes, results } = await runToolCalls(registry, openaiChatStrict, message, { approve: 'allow-all' });
    expect(outcomes.map((outcome) => [outcome.callId, outcome.ok ? 'ok' : outcome.error.code])).toEqual([
      ['call_1', 'ok'],
      ['call_2', 'invalid_input'],
    ]);
    expect(received).toEqual([{ name: 'get_weather', input: { location: 'Oslo', unit: 'celsius' } }]);
    expect(results).toEqual([
      { role: 'tool', tool_call_id: 'call_1', content: '{"location":"Oslo","unit":"celsius","temperature":21}' },
      {
        role: 'tool',
        tool_call_id: 'call_2',
        content: expect.stringMatching(/^Error \(invalid_input\): Invalid input for search: the arguments are not valid JSON/),
      },
    ]);
  });

  it('a reply without tool calls gives no outcomes', async () => {
    const { registry, received } = makeRegistry();
    expect(await runToolCalls(registry, anthropic, { role: 'assistant', content: [{ type: 'text', text: 'Done.' }] })).toEqual({
      outcomes: [],
      results: { role: 'user', content: [] },
    });
    expect(received).toEqual([]);
  });

  it('refuses a bad cap before any tool runs, so nothing acts without its result being sent', async () => {
    const { registry, received } = makeRegistry();
    const reply = { parts: [{ functionCall: { name: 'ping', args: {} } }] };
    await expect(runToolCalls(registry, gemini, reply, { maxChars: 10 })).rejects.toThrow(
      'maxChars must be a whole number of characters, at least 200 (or Infinity), got 10.',
    );
    expect(received).toEqual([]);
    const { results } = await runToolCalls(registry, gemini, reply, { maxChars: 200 });
    expect(results.parts).toEqual([{ functionResponse: { name: 'ping', response: { output: 'pong' } } }]);
    expect(received).toEqual([{ name: 'ping', input: {} }]);
  });

  it('MCP: tools/call requests in, CallToolResults out, the call named by its _meta id', async () => {
    const { registry, received } = makeRegistry();
    const { outcomes, results } = await runToolCalls(registry, mcp, [
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'search', arguments: { query: 'q' }, _meta: { 'toolshed/callId': 'retry-7' } },
      },
      { name: 'ping' },
      { name: 'search', arguments: { query: 'q' }, _meta: { 'toolshed/callId': 42 } },
    ]);
    expect(outcomes.map((outcome) => outcome.callId.startsWith('toolshed-local-') || outcome.callId)).toEqual(['retry-7', true, true]);
    expect(results).toEqual([
      { content: [{ type: 'text', text: '{"hits":["result for q"]}' }], structuredContent: { hits: ['result for q'] } },
      { content: [{ type: 'text', text: 'pong' }] },
      {
        content: [
          {
            type: 'text',
            text: '_meta["toolshed/callId"] must be a string of 1 to 200 characters without control characters (got number); send the same id when retrying a call, or leave it out.',
          },
        ],
        isError: true,
      },
    ]);
    // The call with the unusable id never ran.
    expect(received.map((call) => call.name)).toEqual(['search', 'ping']);
  });
});
