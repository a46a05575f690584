import { describe, expect, it } from 'vitest';
import { measureTools, measureUpFront, TOOL_SEARCH_NAME } from '../index.js';
import { catalogueRegistry } from '../search/tools.fixture.js';

describe('measureUpFront', () => {
  it('measures a registry under its own exposure: tool_search and the always-loaded tools', async () => {
    const registry = catalogueRegistry({ mode: 'search', alwaysLoaded: ['read_file'] });
    const { decision, report } = await measureUpFront(registry, { format: 'openai' });
    expect(decision).toEqual({ deferred: true, reason: 'search' });
    expect(report.tools.map((tool) => tool.name)).toEqual([TOOL_SEARCH_NAME, 'read_file']);
    const all = await measureTools(registry, { format: 'openai' });
    expect(report.total.tokens).toBeLessThan(all.total.tokens);
  });

  it('measures plain definitions under the exposure given, and every tool when nothing is deferred', async () => {
    const definitions = catalogueRegistry().list();
    const deferred = await measureUpFront(definitions, { format: 'anthropic', exposure: { mode: 'search' } });
    expect(deferred.report.tools.map((tool) => tool.name)).toEqual([TOOL_SEARCH_NAME]);
    const always = await measureUpFront(definitions, { format: 'anthropic' });
    expect(always.decision).toEqual({ deferred: false, reason: 'always' });
    expect(always.report).toEqual(await measureTools(definitions, { format: 'anthropic' }));
  });

  it('refuses an always-loaded name no tool has', async () => {
    await expect(
      measureUpFront(catalogueRegistry().list(), { format: 'openai', exposure: { mode: 'search', alwaysLoaded: ['nope'] } }),
    ).rejects.toThrow('exposure.alwaysLoaded names "nope", which the registry does not have; fix the name or drop it.');
  });
});
