import type { ToolUnion } from '@anthropic-ai/sdk/resources/messages/messages';
import { defineTool, ToolRegistry } from '@toolshed/core';
import { anthropic, gemini, openaiChat } from '@toolshed/providers';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { createToolSearch, toAnthropicToolsWithSearch, TOOL_SEARCH_NAME } from '../index.js';
import { catalogueRegistry } from './tools.fixture.js';

describe('createToolSearch', () => {
  it('sends only tool_search and the always-loaded tools until a search finds more', async () => {
    const search = await createToolSearch(catalogueRegistry({ mode: 'search', alwaysLoaded: ['read_file'] }));
    expect(search.decision).toEqual({ deferred: true, reason: 'search' });
    expect(search.activeToolNames()).toEqual([TOOL_SEARCH_NAME, 'read_file']);
    expect(search.tools().map((tool) => tool.name)).toEqual([TOOL_SEARCH_NAME, 'read_file']);
    // Search nearly always returns some tools: the model is told to search again when none fits.
    expect(search.tools()[0]!.description).toMatch(/If none of them fits, search again in other words/);
    expect(search.isDeferred('read_file')).toBe(false);
    expect(search.isDeferred('get_weather')).toBe(true);

    const hits = search.search('weather forecast for Oslo', 1);
    expect(hits.map((hit) => hit.name)).toEqual(['get_weather']);
    // Listed in registry order, whatever the order found.
    expect(search.activeToolNames()).toEqual([TOOL_SEARCH_NAME, 'read_file', 'get_weather']);
    expect(search.found()).toEqual(['get_weather']);
  });

  it('sends every tool, and no search tool, when exposure is always', async () => {
    const registry = catalogueRegistry();
    const search = await createToolSearch(registry);
    expect(search.decision).toEqual({ deferred: false, reason: 'always' });
    expect(search.tools()).toEqual(registry.list());
    const outcome = await search.dispatch({ name: TOOL_SEARCH_NAME, input: { query: 'weather' } });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'unknown_tool' } });
  });

  it('auto defers only when the definitions take more than the share of the context window', async () => {
    const small = await createToolSearch(catalogueRegistry({ mode: 'auto', contextWindow: 2_000 }));
    expect(small.decision).toMatchObject({ deferred: true, reason: 'over-share', threshold: 200 });
    expect(small.decision.tokens).toBeGreaterThan(200);
    const large = await createToolSearch(catalogueRegistry({ mode: 'auto', contextWindow: 200_000 }));
    expect(large.decision).toMatchObject({ deferred: false, reason: 'under-share', threshold: 20_000 });
    expect(large.tools()).toHaveLength(12);
    const shared = await createToolSearch(catalogueRegistry({ mode: 'auto', contextWindow: 200_000, share: 0.001 }));
    expect(shared.decision).toMatchObject({ deferred: true, threshold: 200 });
  });

  it('auto without a contextWindow, on the registry or given, measures against the default 128,000 tokens', async () => {
    const onRegistry = await createToolSearch(catalogueRegistry({ mode: 'auto' }));
    expect(onRegistry.decision).toMatchObject({ deferred: false, reason: 'under-share', threshold: 12_800 });
    const given = await createToolSearch(catalogueRegistry(), { exposure: { mode: 'auto', share: 0.0001 } });
    expect(given.decision).toMatchObject({ deferred: true, reason: 'over-share', threshold: 12 });
  });

  it('refuses a bad exposure given to it, naming the field', async () => {
    await expect(createToolSearch(catalogueRegistry(), { exposure: { mode: 'auto', contextWindow: -1 } })).rejects.toThrow(
      'createToolSearch options: exposure.contextWindow must be',
    );
  });

  it('tells listeners once per search that made new tools available', async () => {
    const search = await createToolSearch(catalogueRegistry({ mode: 'search' }));
    let changes = 0;
    const stop = search.onToolsChanged(() => changes++);
    search.search('git commit history');
    expect(changes).toBe(1);
    search.search('git commit history');
    expect(changes).toBe(1);
    search.search('zzzz');
    expect(changes).toBe(1);
    stop();
    search.search('weather');
    expect(changes).toBe(1);
  });

  it('gives subscribers the events of tool_search calls and of the registry alike', async () => {
    const registry = catalogueRegistry({ mode: 'search' });
    const search = await createToolSearch(registry);
    const seen: string[] = [];
    const stop = search.subscribe((event) => seen.push(`${event.type} ${event.name}`));
    await search.runToolCalls([
      { callId: 'a', name: TOOL_SEARCH_NAME, input: { query: 'weather' } },
      { callId: 'b', name: 'get_weather', input: { city: 'Oslo' } },
    ]);
    expect(seen).toEqual([
      `call.start ${TOOL_SEARCH_NAME}`,
      `call.end ${TOOL_SEARCH_NAME}`,
      'call.start get_weather',
      'call.end get_weather',
    ]);
    stop();
    await search.dispatch({ name: TOOL_SEARCH_NAME, input: { query: 'git' } });
    await registry.dispatch({ name: 'fetch', input: { url: 'x' } });
    expect(seen).toHaveLength(4);
  });

  it('answers a tool_search call with bad input like any tool, and finds nothing', async () => {
    const search = await createToolSearch(catalogueRegistry({ mode: 'search' }));
    const empty = await search.dispatch({ name: TOOL_SEARCH_NAME, input: { query: '   ' } });
    expect(empty).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', message: 'Invalid input for tool_search.query: expected some words saying what the tool should do' },
    });
    const big = await search.dispatch({ name: TOOL_SEARCH_NAME, input: { query: 'x', limit: 500 } });
    expect(big).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(search.found()).toEqual([]);
    const none = await search.dispatch({ name: TOOL_SEARCH_NAME, input: { query: 'zzzqqq' } });
    expect(none).toMatchObject({
      ok: true,
      output: { tools: [], note: 'No tool matched "zzzqqq". Try other words for the task, or fewer of them.' },
    });
  });

  it('refuses a registry that has its own tool_search, and always-loaded names it lacks', async () => {
    const clash = new ToolRegistry().register(
      defineTool({ name: 'tool_search', description: 'Mine.', input: v.object({}), run: () => 'mine' }),
    );
    await expect(createToolSearch(clash, { exposure: { mode: 'search' } })).rejects.toThrow(
      'The registry already has a tool named "tool_search"; rename it to use tool search.',
    );
    await expect(createToolSearch(catalogueRegistry({ mode: 'search', alwaysLoaded: ['read_fil', 'fetch'] }))).rejects.toThrow(
      'exposure.alwaysLoaded names "read_fil", which the registry does not have; fix the name or drop it.',
    );
    await expect(createToolSearch(catalogueRegistry(), { limit: 0 })).rejects.toThrow('limit must be a whole number of at least 1, got 0.');
  });
});

describe('deferred tools round-trip through the provider helpers', () => {
  it('OpenAI: search, then the found tool is sent and its call runs', async () => {
    const registry = catalogueRegistry({ mode: 'search' });
    const search = await createToolSearch(registry);
    expect(openaiChat.tools(search.tools()).map((tool) => tool.function.name)).toEqual([TOOL_SEARCH_NAME]);

    const turn1 = {
      role: 'assistant',
      tool_calls: [{ id: 'call_1', type: 'function', function: { name: TOOL_SEARCH_NAME, arguments: '{"query":"weather in a city"}' } }],
    };
    const outcomes = await search.runToolCalls(openaiChat.parseCalls(turn1));
    const [reply] = openaiChat.results(outcomes);
    expect(reply).toMatchObject({ role: 'tool', tool_call_id: 'call_1' });
    expect(JSON.parse(reply!.content as string).tools[0]).toEqual({
      name: 'get_weather',
      description: 'Current weather and forecast for a city.',
    });
    expect(openaiChat.tools(search.tools()).map((tool) => tool.function.name)).toContain('get_weather');

    const turn2 = {
      role: 'assistant',
      tool_calls: [
        { id: 'call_2', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } },
        { id: 'call_3', type: 'function', function: { name: TOOL_SEARCH_NAME, arguments: '{"query":"git history"}' } },
      ],
    };
    const second = await search.runToolCalls(openaiChat.parseCalls(turn2));
    expect(second.map((outcome) => [outcome.callId, outcome.ok, outcome.name])).toEqual([
      ['call_2', true, 'get_weather'],
      ['call_3', true, TOOL_SEARCH_NAME],
    ]);
    expect(second[0]).toMatchObject({ output: 'get_weather(Oslo)' });
  });

  it('Anthropic: tool_use blocks for tool_search and for the tool it found', async () => {
    const search = await createToolSearch(catalogueRegistry({ mode: 'search' }));
    const first = await search.runToolCalls(
      anthropic.parseCalls([{ type: 'tool_use', id: 'toolu_1', name: TOOL_SEARCH_NAME, input: { query: 'post a message to slack' } }]),
    );
    expect(anthropic.results(first).content[0]).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_1' });
    expect(search.activeToolNames()).toContain('slack_post_message');
    const second = await search.runToolCalls(
      anthropic.parseCalls([{ type: 'tool_use', id: 'toolu_2', name: 'slack_post_message', input: { channel_id: 'C1' } }]),
    );
    expect(second[0]).toMatchObject({ ok: true, callId: 'toolu_2', output: 'slack_post_message(C1)' });
  });

  it('Gemini: a functionCall without an id still searches and then calls', async () => {
    const search = await createToolSearch(catalogueRegistry({ mode: 'search' }));
    expect(gemini.tools(search.tools())[0]!.functionDeclarations.map((declaration) => declaration.name)).toEqual([TOOL_SEARCH_NAME]);
    await search.runToolCalls(
      gemini.parseCalls({ parts: [{ functionCall: { name: TOOL_SEARCH_NAME, args: { query: 'current time in a time zone' } } }] }),
    );
    expect(gemini.tools(search.tools())[0]!.functionDeclarations.map((declaration) => declaration.name)).toContain('get_current_time');
    const [outcome] = await search.runToolCalls(
      gemini.parseCalls({ parts: [{ functionCall: { name: 'get_current_time', args: { timezone: 'Europe/Oslo' } } }] }),
    );
    expect(outcome).toMatchObject({ ok: true, output: 'get_current_time(Europe/Oslo)' });
  });

  it("Anthropic's native search: its search tool first, deferred tools marked defer_loading", async () => {
    const registry = catalogueRegistry({ mode: 'search', alwaysLoaded: ['read_file'] });
    const search = await createToolSearch(registry);
    const tools = toAnthropicToolsWithSearch(registry, search);
    // The Anthropic SDK's own tool union takes them: the shape is checked when this file typechecks.
    const forTheSdk: ToolUnion[] = tools;
    expect(forTheSdk).toHaveLength(13);
    expect(tools[0]).toEqual({ type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' });
    expect(tools).toHaveLength(13);
    expect(tools.find((tool) => tool.name === 'read_file')).not.toHaveProperty('defer_loading');
    expect(tools.filter((tool) => 'defer_loading' in tool && tool.defer_loading === true)).toHaveLength(11);
    expect(toAnthropicToolsWithSearch(registry, search, { variant: 'regex' })[0]).toEqual({
      type: 'tool_search_tool_regex_20251119',
      name: 'tool_search_tool_regex',
    });
    expect(() => toAnthropicToolsWithSearch(registry, search, { variant: 'vector' as never })).toThrow(
      'variant must be "bm25" or "regex", got "vector".',
    );
    // Claude found a deferred tool by itself: its tool_use is an ordinary call.
    const [outcome] = await search.runToolCalls(
      anthropic.parseCalls([{ type: 'tool_use', id: 'toolu_9', name: 'fetch', input: { url: 'https://example.org' } }]),
    );
    expect(outcome).toMatchObject({ ok: true, output: 'fetch(https://example.org)' });
    const always = await createToolSearch(registry, { exposure: { mode: 'always' } });
    expect(toAnthropicToolsWithSearch(registry, always).every((tool) => !('type' in tool) && !('defer_loading' in tool))).toBe(true);
  });
});
