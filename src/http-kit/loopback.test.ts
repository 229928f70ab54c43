import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isLoopback as agentIsLoopback } from '../agent/server.js';
import { isLoopbackHost as consoleIsLoopback } from '../console/access.js';
import { isLoopbackHost as transportIsLoopback } from '../transport/http.js';
import { hostForUrl, isLoopbackHost, splitAuthority } from './loopback.js';

const LOOPBACK = [
  '127.0.0.1',
  '127.8.9.10',
  '127.255.255.255',
  '::1',
  '[::1]',
  '0:0:0:0:0:0:0:1',
  '::ffff:127.0.0.1',
  '[::ffff:127.0.0.1]',
  '::FFFF:7f00:1',
  'localhost',
  'LocalHost',
];
const NOT_LOOPBACK = [
  '0.0.0.0',
  '::',
  '10.0.0.1',
  '128.0.0.1',
  '::ffff:10.0.0.1',
  '::2',
  'example.org',
  'localhost.evil.example',
  '127.0.0.1.evil.example',
  '[::1',
  '127.0.0.1:8080',
  '',
];

describe('isLoopbackHost: one loopback semantics for every server', () => {
  it('accepts every spelling of a loopback address, brackets and IPv4-mapped included', () => {
    for (const host of LOOPBACK) expect(isLoopbackHost(host), host).toBe(true);
  });

  it('refuses the unspecified addresses, other addresses, look-alike names and a host with a port', () => {
    for (const host of NOT_LOOPBACK) expect(isLoopbackHost(host), host).toBe(false);
  });

  it('is the function the transport, the console and the agent bridge use (the agent once refused [::1] and ::ffff:127.0.0.1)', () => {
    for (const host of [...LOOPBACK, ...NOT_LOOPBACK]) {
      const expected = isLoopbackHost(host);
      expect([transportIsLoopback(host), consoleIsLoopback(host), agentIsLoopback(host)], host).toEqual([expected, expected, expected]);
    }
    expect(agentIsLoopback('[::1]')).toBe(true);
    expect(agentIsLoopback('::ffff:127.0.0.1')).toBe(true);
  });

  it('an IPv4 address is loopback exactly when its first octet is 127, also IPv4-mapped (property)', () => {
    const octet = fc.integer({ min: 0, max: 255 });
    fc.assert(
      fc.property(octet, octet, octet, octet, (a, b, c, d) => {
        const v4 = `${a}.${b}.${c}.${d}`;
        expect(isLoopbackHost(v4)).toBe(a === 127);
        expect(isLoopbackHost(`::ffff:${v4}`)).toBe(a === 127);
        expect(isLoopbackHost(`[::ffff:${v4}]`)).toBe(a === 127);
      }),
    );
  });
});

describe('splitAuthority: a Host header into host and port', () => {
  it('splits names, IPv4 and bracketed IPv6, with and without a port', () => {
    expect(splitAuthority('LocalHost:8080')).toEqual({ host: 'localhost', port: 8080 });
    expect(splitAuthority('127.0.0.1')).toEqual({ host: '127.0.0.1', port: undefined });
    expect(splitAuthority('[::1]:80')).toEqual({ host: '[::1]', port: 80 });
    expect(splitAuthority('[::1]')).toEqual({ host: '[::1]', port: undefined });
  });

  it('refuses what no client sends as Host', () => {
    for (const bad of ['', ':80', '[::1', '::1', 'a:b', 'host:99999', 'host:', '[]:80', 'host:80x'])
      expect(splitAuthority(bad), bad).toBeUndefined();
  });

  it('hostForUrl brackets an IPv6 address once', () => {
    expect(hostForUrl('::1')).toBe('[::1]');
    expect(hostForUrl('[::1]')).toBe('[::1]');
    expect(hostForUrl('127.0.0.1')).toBe('127.0.0.1');
  });
});
