import fnv1a from '@sindresorhus/fnv1a';
import { describe, expect, it } from 'vitest';
import { fnv1a64 } from './fnv1a.js';

const reference = (bytes: Uint8Array) => fnv1a(bytes, { size: 64 }).toString(16).padStart(16, '0');

describe('fnv1a64', () => {
  it("is FNV-1a's published 64-bit test vectors", () => {
    const ascii = (text: string) => new TextEncoder().encode(text);
    expect(fnv1a64(ascii(''))).toBe('cbf29ce484222325');
    expect(fnv1a64(ascii('a'))).toBe('af63dc4c8601ec8c');
    expect(fnv1a64(ascii('foobar'))).toBe('85944171f73967e8');
  });

  it('is @sindresorhus/fnv1a at 64 bits, for every byte value and for 2,000 random inputs up to 4 kB', () => {
    const every = Uint8Array.from({ length: 256 }, (_, index) => index);
    expect(fnv1a64(every)).toBe(reference(every));
    for (let value = 0; value < 256; value++) expect(fnv1a64(Uint8Array.of(value))).toBe(reference(Uint8Array.of(value)));
    const mismatches: string[] = [];
    for (let round = 0; round < 2000; round++) {
      const bytes = Uint8Array.from({ length: Math.floor(Math.random() * 4096) }, () => Math.floor(Math.random() * 256));
      if (fnv1a64(bytes) !== reference(bytes)) mismatches.push(Buffer.from(bytes).toString('hex'));
    }
    expect(mismatches).toEqual([]);
  });
});
