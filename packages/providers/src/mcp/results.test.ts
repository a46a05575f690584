import { describe, expect, it } from 'vitest';
import { errorResult, successResult } from './results.js';

describe('successResult', () => {
  it('gives an object output as JSON text and as structuredContent', () => {
    expect(successResult('lookup', { a: 1 })).toEqual({ content: [{ type: 'text', text: '{"a":1}' }], structuredContent: { a: 1 } });
  });

  it('gives an array or number output as JSON text only: structuredContent must be an object', () => {
    expect(successResult('lookup', [1, 2])).toEqual({ content: [{ type: 'text', text: '[1,2]' }] });
    expect(successResult('lookup', 7)).toEqual({ content: [{ type: 'text', text: '7' }] });
    expect(successResult('lookup', null)).toEqual({ content: [{ type: 'text', text: 'null' }] });
  });

  it('gives a string output as the string itself', () => {
    expect(successResult('lookup', 'hello')).toEqual({ content: [{ type: 'text', text: 'hello' }] });
  });

  it('gives a short text for a tool that returns nothing, never empty content', () => {
    expect(successResult('lookup', undefined)).toEqual({ content: [{ type: 'text', text: 'lookup finished and returned no output.' }] });
    expect(successResult('lookup', '')).toEqual({ content: [{ type: 'text', text: 'lookup finished and returned no output.' }] });
  });

  it('cuts text over the cap with the note; an object over it is no longer structured, and still a success', () => {
    const text = successResult('lookup', 'y'.repeat(1000), 300).content[0] as { text: string };
    expect(text.text.length).toBeLessThanOrEqual(300);
    expect(text.text).toMatch(/^y+\n\[Truncated: showing the first \d+ of 1000 characters\./);
    const object = successResult('lookup', { rows: 'y'.repeat(1000) }, 300);
    expect(object).toEqual({ content: [{ type: 'text', text: expect.stringMatching(/^\{"rows":"y+\n\[Truncated: /) }] });
    expect(successResult('lookup', { a: 1 }, 300)).toEqual({ content: [{ type: 'text', text: '{"a":1}' }], structuredContent: { a: 1 } });
    expect(errorResult('e'.repeat(40_000)).content[0]).toMatchObject({ text: expect.stringMatching(/of 40000 characters/) });
  });

  it('turns output that JSON cannot carry into an error naming the tool', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const result = successResult('lookup', cyclic);
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([
      {
        type: 'text',
        text: expect.stringMatching(
          /^lookup returned output that cannot be sent as JSON \(Converting circular structure to JSON\)\. This is a fault in the tool, not in your call\.$/,
        ),
      },
    ]);
    expect(result.structuredContent).toBeUndefined();
  });
});

describe('errorResult', () => {
  it('carries the message as text with isError', () => {
    expect(errorResult('nope')).toEqual({ content: [{ type: 'text', text: 'nope' }], isError: true });
  });
});
