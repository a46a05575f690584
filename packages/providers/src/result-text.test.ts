import { readdir, readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { capText, checkMaxChars, outcomeText, outputText } from './result-text.js';

describe('result text', () => {
  it('leaves text within the cap alone and cuts longer text to the cap, note included', () => {
    expect(capText('short', 200)).toBe('short');
    const text = 'a'.repeat(1000);
    const cut = capText(text, 300);
    // At most the cap; the note's own digits may leave it a character short.
    expect(cut.length).toBeLessThanOrEqual(300);
    expect(cut.length).toBeGreaterThanOrEqual(298);
    const kept = cut.indexOf('\n');
    expect(cut.slice(kept)).toBe(
      `\n[Truncated: showing the first ${kept} of 1000 characters. Ask for less (a narrower range, a filter or a smaller page) to see the rest.]`,
    );
  });

  it('never splits a surrogate pair', () => {
    const text = '😀'.repeat(500);
    const cut = capText(text, 301);
    const body = cut.slice(0, cut.indexOf('\n'));
    expect(body).toBe('😀'.repeat(body.length / 2));
    expect(cut.length).toBeLessThanOrEqual(301);
  });

  it('renders outputs and errors the way a model reads them', () => {
    expect(outputText('plain')).toBe('plain');
    expect(outputText({ a: [1, 2] })).toBe('{"a":[1,2]}');
    expect(outputText(undefined)).toBe('');
    expect(outputText(null)).toBe('null');
    expect(
      outcomeText(
        {
          ok: false,
          callId: 'c',
          name: 't',
          input: {},
          durationMs: 1,
          error: { code: 'timeout', message: 't did not finish within 5 ms.' },
        },
        Infinity,
      ),
    ).toBe('Error (timeout): t did not finish within 5 ms.');
  });

  it('refuses a cap too small for the note, or not a whole number', () => {
    expect(checkMaxChars(undefined)).toBe(30_000);
    expect(checkMaxChars({ maxChars: Infinity })).toBe(Infinity);
    expect(() => checkMaxChars({ maxChars: 199 })).toThrow('at least 200 (or Infinity), got 199');
    expect(() => checkMaxChars({ maxChars: 1000.5 })).toThrow(RangeError);
    expect(() => checkMaxChars({ maxChars: '500' as never })).toThrow('got 500');
  });
});

describe('package layout', () => {
  it('only the ai-sdk entry point imports the optional "ai" peer', async () => {
    const root = new URL('./', import.meta.url);
    const files = (await readdir(root)).filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'));
    expect(files.length).toBeGreaterThan(5);
    for (const file of files) {
      const source = await readFile(new URL(file, root), 'utf8');
      expect(source, file).not.toMatch(/from ['"]ai(\/[^'"]*)?['"]/);
    }
    const aiSdk = await readFile(new URL('ai-sdk/index.ts', root), 'utf8');
    expect(aiSdk).toMatch(/from 'ai'/);
  });
});
