import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { forwardedClientAddress, requestHostName } from './forwarded.js';

function request(headers: Record<string, string | string[]>): IncomingMessage {
  return { headers } as unknown as IncomingMessage;
}

describe('requestHostName', () => {
  it('is the Host header’s name, lower case, port and final dot dropped', () => {
    expect(requestHostName(request({ host: 'Brand-A.Example:8080' }), false)).toBe('brand-a.example');
    expect(requestHostName(request({ host: 'brand-a.example.' }), false)).toBe('brand-a.example');
    expect(requestHostName(request({ host: '[::1]:8080' }), false)).toBeUndefined();
    expect(requestHostName(request({}), false)).toBeUndefined();
  });

  it('reads X-Forwarded-Host only behind a trusted proxy, taking the value the proxy wrote last', () => {
    const req = request({ host: '127.0.0.1:8080', 'x-forwarded-host': 'forged.example, brand-b.example' });
    expect(requestHostName(req, false)).toBe('127.0.0.1');
    expect(requestHostName(req, true)).toBe('brand-b.example');
    expect(requestHostName(request({ host: 'brand-a.example' }), true)).toBe('brand-a.example');
  });
});

describe('forwardedClientAddress', () => {
  it('is the last X-Forwarded-For entry (the peer the proxy saw), or undefined', () => {
    expect(forwardedClientAddress(request({ 'x-forwarded-for': '10.0.0.1, 203.0.113.7' }))).toBe('203.0.113.7');
    expect(forwardedClientAddress(request({ 'x-forwarded-for': ['10.0.0.1', '198.51.100.4'] }))).toBe('198.51.100.4');
    expect(forwardedClientAddress(request({}))).toBeUndefined();
  });
});
