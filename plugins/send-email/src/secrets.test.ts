import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { passwordArb, replyLines, spell, spellingArb, splitArb, wordsArb } from './encodings.fixture.js';
import { Scrubber, WITHHELD } from './secrets.js';

// The scrubber is the second line of defence (no server text reaches an output at all, see
// secret-leaks.test.ts); here it is attacked on its own with every spelling the fixture knows.

/** A reply as nodemailer hands it over: lines joined by \n, each with its code and enhanced code. */
function asReply(lines: string[], code = 535, enhanced = '5.7.8'): string {
  return lines.map((line, i) => `${code}${i < lines.length - 1 ? '-' : ' '}${enhanced} ${line}`).join('\n');
}

describe('Scrubber', () => {
  it('finds the password in any spelling: letter case, one or two encodings, split over two reply lines', () => {
    fc.assert(
      fc.property(passwordArb, spellingArb, wordsArb, wordsArb, splitArb, (password, spelling, before, after, split) => {
        const scrubber = new Scrubber(password);
        const reply = asReply(replyLines(before, spell(password, spelling), after, split));
        expect(scrubber.scrub(reply)).toBe(WITHHELD);
        // Inside a longer message (as nodemailer appends a reply to its own words) too.
        expect(scrubber.scrub(`Invalid login: ${reply}`)).toBe(WITHHELD);
      }),
      { numRuns: 400 },
    );
  });

  it('finds each half of the password spelled on its own line in the same encoding', () => {
    fc.assert(
      fc.property(passwordArb, spellingArb, fc.integer({ min: 1, max: 7 }), (password, spelling, cut) => {
        const scrubber = new Scrubber(password);
        // AUTH PLAIN puts the user name before each half, so its halves are not one secret.
        fc.pre(!spelling.encoders.includes('authPlain'));
        const halves = [password.slice(0, cut), password.slice(cut)].map((half) => spell(half, spelling));
        expect(scrubber.scrub(asReply(halves))).toBe(WITHHELD);
      }),
      { numRuns: 200 },
    );
  });

  it('leaves text without the password as it is', () => {
    const scrubber = new Scrubber('correct horse battery');
    for (const text of [
      'connect ECONNREFUSED 127.0.0.1:2525',
      'Invalid login: 535 5.7.8 Authentication credentials invalid',
      'Greeting never received',
      '',
    ]) {
      expect(scrubber.scrub(text)).toBe(text);
    }
  });

  it('withholds nothing when there is no password', () => {
    expect(new Scrubber(undefined).scrub('anything at all')).toBe('anything at all');
  });
});
