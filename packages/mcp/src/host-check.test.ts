import { describe, expect, it } from 'vitest';
import { isLoopback } from './host-check.js';

describe('isLoopback', () => {
  it.each(['localhost', '127.0.0.1', '127.1.2.3', '::1', '[::1]'])('counts %s as loopback', (host) => {
    expect(isLoopback(host)).toBe(true);
  });

  it.each(['0.0.0.0', '192.168.1.2', '::', 'example.com', '127.example.com', '127.0.0.1.nip.io', 'localhost.example.com', ''])(
    'does not count %j as loopback',
    (host) => {
      expect(isLoopback(host)).toBe(false);
    },
  );
});
