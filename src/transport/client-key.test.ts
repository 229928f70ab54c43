import { describe, expect, it } from 'vitest';
import { clientKey } from './client-key.js';

describe('clientKey: what a peer’s budgets are kept under (R-P2)', () => {
  it('keeps an IPv4 address as it is, and unwraps IPv4-mapped IPv6', () => {
    expect(clientKey('192.0.2.7')).toBe('192.0.2.7');
    expect(clientKey('::ffff:192.0.2.7')).toBe('192.0.2.7');
    expect(clientKey('::FFFF:127.0.0.2')).toBe('127.0.0.2');
    expect(clientKey(undefined)).toBeUndefined();
  });

  it('keys IPv6 by its /64: addresses one host can rotate through share one budget', () => {
    const key = clientKey('2001:db8:aa:bb::1');
    expect(key).toBe('2001:db8:aa:bb::/64');
    expect(clientKey('2001:0db8:00aa:00bb:ffff:1:2:3')).toBe(key);
    expect(clientKey('2001:db8:aa:bb:1234::9%eth0')).toBe(key);
    expect(clientKey('2001:db8:aa:bc::1')).not.toBe(key);
    expect(clientKey('::1')).toBe('0:0:0:0::/64');
    expect(clientKey('2001:db8::')).toBe('2001:db8:0:0::/64');
    expect(clientKey('64:ff9b::192.0.2.1')).toBe('64:ff9b:0:0::/64');
  });
});
