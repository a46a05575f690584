import { describe, expect, it } from 'vitest';
import { describeThrown } from './thrown.js';

class LedgerBusy extends Error {
  override name = 'LedgerBusy';
}

describe('describeThrown (the one wording host, kit and registry share)', () => {
  it.each([
    [new Error('disk full'), 'disk full'],
    [new TypeError("Cannot read properties of undefined (reading 'x')"), "TypeError: Cannot read properties of undefined (reading 'x')"],
    [new SyntaxError('Unexpected end of input'), 'SyntaxError: Unexpected end of input'],
    [new LedgerBusy('another call holds the ledger'), 'another call holds the ledger'],
    [new RangeError(''), 'RangeError'],
    ['quota', 'quota'],
    ['', 'an empty string was thrown'],
    [undefined, 'it threw undefined instead of an Error'],
    [{ reason: 'quota' }, 'it threw {"reason":"quota"}'],
  ])('%#: names a built-in kind, and otherwise says the message', (thrown, words) => {
    expect(describeThrown(thrown)).toBe(words);
  });
});
