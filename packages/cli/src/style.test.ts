import { afterEach, describe, expect, it } from 'vitest';
import { style } from './style.js';

const tty = { isTTY: true } as NodeJS.WriteStream;
const pipe = { isTTY: false } as NodeJS.WriteStream;
const saved = process.env.NO_COLOR;
afterEach(() => {
  if (saved === undefined) delete process.env.NO_COLOR;
  else process.env.NO_COLOR = saved;
});

describe('style', () => {
  it('colours a terminal unless NO_COLOR is set, and never a pipe', () => {
    delete process.env.NO_COLOR;
    expect(style('bold', 'x', tty)).toBe('\u001b[1mx\u001b[22m');
    expect(style('bold', 'x', pipe)).toBe('x');
    process.env.NO_COLOR = '1';
    expect(style('bold', 'x', tty)).toBe('x');
  });
});
