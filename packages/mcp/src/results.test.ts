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

  it('gives no content for a tool that returns nothing', () => {
    expect(successResult('lookup', undefined)).toEqual({ content: [] });
  });

  it('turns output that JSON cannot carry into an error naming the tool', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const result = successResult('lookup', cyclic);
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([
      { type: 'text', text: expect.stringMatching(/^lookup returned output that cannot be sent as JSON \(Converting circular structure to JSON\)\. This is a fault in the tool, not in your call\.$/) },
    ]);
    expect(result.structuredContent).toBeUndefined();
  });
});

describe('errorResult', () => {
  it('carries the message as text with isError', () => {
    expect(errorResult('nope')).toEqual({ content: [{ type: 'text', text: 'nope' }], isError: true });
  });
});
