import { describe, expect, it } from 'vitest';
import { parseListenAddress } from './listen-address.js';

describe('parseListenAddress', () => {
  it.each([
    ['3000', { port: 3000 }],
    ['0', { port: 0 }],
    ['127.0.0.1:8080', { host: '127.0.0.1', port: 8080 }],
    ['localhost:8080', { host: 'localhost', port: 8080 }],
    ['0.0.0.0:65535', { host: '0.0.0.0', port: 65535 }],
    ['[::1]:3000', { host: '::1', port: 3000 }],
    [' 3000 ', { port: 3000 }],
  ])('reads %j', (text, expected) => {
    expect(parseListenAddress(text)).toEqual(expected);
  });

  it.each(['', 'abc', ':3000', '3000:', 'localhost', '::1:3000', 'host:-1', 'host:30.5', 'http://localhost:3000'])(
    'refuses %j and shows the accepted forms',
    (text) => {
      expect(() => parseListenAddress(text)).toThrow(
        `Cannot read the address ${JSON.stringify(text)}: use PORT or HOST:PORT, e.g. 3000, 127.0.0.1:3000 or [::1]:3000.`,
      );
    },
  );

  it('refuses a port above 65535', () => {
    expect(() => parseListenAddress('70000')).toThrow('Cannot read the address "70000": the port must be 0 to 65535.');
  });
});
