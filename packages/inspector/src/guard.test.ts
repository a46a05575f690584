import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { checkRequest, guardFor, isLoopback } from './guard.js';

const asked = (method: string, headers: Record<string, string>) => ({ method, headers }) as unknown as IncomingMessage;

describe('checkRequest', () => {
  const guard = guardFor('127.0.0.1', 4123);

  it('admits the loopback names of its own port, and its own origin on a POST', () => {
    for (const host of ['127.0.0.1:4123', 'localhost:4123', '[::1]:4123'])
      expect(checkRequest(asked('GET', { host }), guard)).toBeUndefined();
    expect(checkRequest(asked('POST', { host: 'localhost:4123', origin: 'http://localhost:4123' }), guard)).toBeUndefined();
  });

  it('refuses another name or port in Host (DNS rebinding), and a POST from another origin or none', () => {
    expect(checkRequest(asked('GET', { host: 'attacker.example:4123' }), guard)?.status).toBe(421);
    expect(checkRequest(asked('GET', { host: '127.0.0.1:80' }), guard)?.status).toBe(421);
    expect(checkRequest(asked('POST', { host: '127.0.0.1:4123', origin: 'http://127.0.0.1:9999' }), guard)?.message).toContain(
      'Only the inspector\'s own page may send POST requests; the request came from "http://127.0.0.1:9999"',
    );
    expect(checkRequest(asked('POST', { host: '127.0.0.1:4123' }), guard)?.status).toBe(403);
  });

  it('tells loopback addresses from others', () => {
    expect([isLoopback('127.0.0.1'), isLoopback('::1'), isLoopback('0.0.0.0'), isLoopback('192.168.1.2')]).toEqual([
      true,
      true,
      false,
      false,
    ]);
  });
});
