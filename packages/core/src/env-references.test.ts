import { describe, expect, it } from 'vitest';
import { resolveEnvReferences } from './env-references.js';

describe('resolveEnvReferences copies', () => {
  it('keep an own "__proto__" key (as JSON.parse makes it) a key: no copy gets a prototype, so nothing is inherited', () => {
    const given = JSON.parse('{"__proto__": {"root": "/"}, "nested": [{"__proto__": {"admin": true}}], "token": {"env": "T"}}');
    const out = resolveEnvReferences(given, { T: 'secret' }, 'toolshed.config.json') as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBeNull();
    expect(out.root).toBeUndefined();
    expect(Object.keys(out)).toEqual(['__proto__', 'nested', 'token']);
    expect(Object.getOwnPropertyDescriptor(out, '__proto__')?.value).toEqual({ root: '/' });
    const inner = (out.nested as Record<string, unknown>[])[0]!;
    expect(Object.getPrototypeOf(inner)).toBeNull();
    expect(inner.admin).toBeUndefined();
    expect(out.token).toBe('secret');
    expect(({} as Record<string, unknown>).root).toBeUndefined();
  });
});
