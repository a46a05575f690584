import { describe, expect, it } from 'vitest';
import { LineReader } from './line-reader.js';

describe('LineReader', () => {
  it('gives the same lines however the stream is cut, multi-byte characters included', () => {
    const text = 'first\nsecond ✓ line\r\n\n{"a":"ü€𝄞"}\nlast\n';
    const whole = new LineReader(64).push(Buffer.from(text));
    expect(whole).toEqual([
      { kind: 'line', text: 'first' },
      { kind: 'line', text: 'second ✓ line' },
      { kind: 'line', text: '' },
      { kind: 'line', text: '{"a":"ü€𝄞"}' },
      { kind: 'line', text: 'last' },
    ]);
    const bytes = Buffer.from(text);
    // 2,000 random cuttings, each into pieces of 1 to 7 bytes (splitting characters too).
    let seed = 42;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let round = 0; round < 2000; round += 1) {
      const reader = new LineReader(64);
      const lines = [];
      for (let at = 0; at < bytes.length; ) {
        const size = 1 + Math.floor(random() * 7);
        lines.push(...reader.push(bytes.subarray(at, at + size)));
        at += size;
      }
      expect(lines).toEqual(whole);
    }
  });

  it('holds at most the limit of a line, drops a longer one with its size and tail, and reads on', () => {
    const reader = new LineReader(10);
    expect(reader.push(Buffer.from('0123456789\n'))).toEqual([{ kind: 'line', text: '0123456789' }]);
    expect(reader.push(Buffer.from('0123456'))).toEqual([]);
    expect(reader.push(Buffer.from('789A'))).toEqual([]);
    expect(reader.push(Buffer.from('BC\nnext\n'))).toEqual([
      { kind: 'too_long', bytes: 13, tail: '0123456789ABC' },
      { kind: 'line', text: 'next' },
    ]);
  });
});
