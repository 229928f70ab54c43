import { describe, expect, it } from 'vitest';
import { ConfigError } from '../errors.js';
import { deriveName, parseAgentConfig, parseBusinessFlag, resolveSettings } from './config.js';

describe('agent configuration', () => {
  it('reads --business as url or name=url, and derives a readable name from the host', () => {
    expect(parseBusinessFlag('https://stores.example')).toEqual({ url: 'https://stores.example' });
    expect(parseBusinessFlag('acme=https://stores.acme.example/?a=b')).toEqual({ name: 'acme', url: 'https://stores.acme.example/?a=b' });
    expect(deriveName('https://www.stores.example/')).toBe('stores.example');
    expect(deriveName('http://127.0.0.1:8080')).toBe('127.0.0.1:8080');
    expect(() => parseBusinessFlag('bad name=https://x.example')).toThrow(/must use letters, digits/);
  });

  it('merges file and flags, applies timeouts, and refuses duplicates, http without --allow-loopback and an empty list', () => {
    const file = parseAgentConfig({ timeoutMs: 3000, businesses: [{ name: 'north', url: 'https://north.example', transport: 'rest' }] });
    const settings = resolveSettings(['https://south.example'], file, { allowLoopback: false });
    expect(settings.businesses).toEqual([
      { name: 'north', url: 'https://north.example', timeoutMs: 3000, transport: 'rest' },
      { name: 'south.example', url: 'https://south.example', timeoutMs: 3000, transport: 'auto' },
    ]);
    expect(settings.maxMatchesPerBusiness).toBe(100);
    expect(() => resolveSettings(['north=https://other.example'], file, { allowLoopback: false })).toThrow(/already used/);
    expect(() => resolveSettings(['http://127.0.0.1:8080'], undefined, { allowLoopback: false })).toThrow(/--allow-loopback/);
    expect(resolveSettings(['http://127.0.0.1:8080'], undefined, { allowLoopback: true }).businesses[0]?.name).toBe('127.0.0.1:8080');
    expect(() => resolveSettings([], undefined, { allowLoopback: false })).toThrow(ConfigError);
    expect(() => parseAgentConfig({ businesses: [{ url: 'https://x.example', timeout: 5 }] })).toThrow(/"businesses.0"/);
  });
});
