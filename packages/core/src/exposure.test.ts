import { describe, expect, it } from 'vitest';
import { ToolRegistry } from './index.js';

describe('the exposure option', () => {
  it('defaults to sending every tool', () => {
    expect(new ToolRegistry().exposure).toEqual({ mode: 'always' });
  });

  it('keeps a checked copy, with the default share for auto', () => {
    const given = { mode: 'auto' as const, contextWindow: 200_000, alwaysLoaded: ['read_file'] };
    const registry = new ToolRegistry({ exposure: given });
    given.alwaysLoaded.push('changed');
    expect(registry.exposure).toEqual({ mode: 'auto', contextWindow: 200_000, share: 0.1, alwaysLoaded: ['read_file'] });
    const copy = registry.exposure as { alwaysLoaded: string[] };
    copy.alwaysLoaded.push('mine');
    expect(registry.exposure).toMatchObject({ alwaysLoaded: ['read_file'] });
    expect(new ToolRegistry({ exposure: { mode: 'search' } }).exposure).toEqual({ mode: 'search' });
  });

  it('fills in the documented window for auto without one', () => {
    expect(new ToolRegistry({ exposure: { mode: 'auto' } }).exposure).toEqual({ mode: 'auto', contextWindow: 128_000, share: 0.1 });
    expect(new ToolRegistry({ exposure: { mode: 'auto', share: 0.2 } }).exposure).toEqual({
      mode: 'auto',
      contextWindow: 128_000,
      share: 0.2,
    });
  });

  it('refuses a bad setting at once, naming every field that is wrong', () => {
    const bad = (exposure: unknown) => () => new ToolRegistry({ exposure: exposure as never });
    expect(bad('search')).toThrow(new TypeError('ToolRegistry options: exposure must be an object like {"mode": "search"}, got "search".'));
    expect(bad({ mode: 'lazy' })).toThrow('exposure.mode must be "always", "search" or "auto", got "lazy"');
    expect(bad({ mode: 'auto', contextWindow: 0, share: 10, alwaysLoaded: 'read_file' })).toThrow(
      new TypeError(
        "ToolRegistry options: exposure.contextWindow must be the model's context window in tokens (a whole number above 0; leave it out for 128000), got 0; " +
          'exposure.share must be a number above 0 and at most 1 (0.1 is 10%), got 10; ' +
          'exposure.alwaysLoaded must be a list of tool names, got "read_file".',
      ),
    );
    expect(bad({ mode: 'always', alwaysLoaded: [] })).toThrow('exposure has unknown key "alwaysLoaded" for mode "always"; use mode');
    expect(bad({ mode: 'auto', contextWindow: 1.5 })).toThrow('exposure.contextWindow must be');
  });
});
