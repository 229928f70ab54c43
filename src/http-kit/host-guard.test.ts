import { describe, expect, it } from 'vitest';
import { HostGuard, loopbackHosts, loopbackOrigins } from './host-guard.js';

describe('HostGuard: the DNS-rebinding guard every server shares', () => {
  const port = 8123;
  const guard = new HostGuard({ hosts: loopbackHosts(port, '127.0.0.1'), origins: loopbackOrigins(port, '127.0.0.1') });

  it('admits this machine’s own names on the bound port, in any letter case', () => {
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`, `[::1]:${port}`])
      expect(guard.check({ host }), host).toBeUndefined();
  });

  it('refuses a rebound name, another port, no Host at all, and says which names are served', () => {
    for (const host of ['evil.example', `evil.example:${port}`, '127.0.0.1:1', 'localhost', undefined]) {
      const refusal = guard.check({ host });
      expect(refusal, String(host)).toMatch(/is not served here; use one of: 127\.0\.0\.1:8123, localhost:8123, \[::1\]:8123/);
    }
  });

  it('refuses a foreign Origin, admits its own and the opaque `null`', () => {
    const host = `127.0.0.1:${port}`;
    expect(guard.check({ host, origin: 'https://evil.example' })).toMatch(/Origin "https:\/\/evil\.example" is not allowed/);
    expect(guard.check({ host, origin: `http://localhost:${port}` })).toBeUndefined();
    expect(guard.check({ host, origin: 'null' })).toBeUndefined();
  });

  it('checks no Origin when it was given none to admit', () => {
    const hostsOnly = new HostGuard({ hosts: loopbackHosts(port) });
    expect(hostsOnly.check({ host: `localhost:${port}`, origin: 'https://anywhere.example' })).toBeUndefined();
  });

  it('admits the names it is given, so one process can serve many businesses by Host', () => {
    const tenants = new HostGuard({ hosts: ['shop-a.example', 'Shop-B.example:8443', '[2001:db8::1]:443'] });
    expect(tenants.hosts).toEqual(['shop-a.example', 'shop-b.example:8443', '[2001:db8::1]:443']);
    // A bare name is admitted on any port (behind a proxy it arrives with or without one).
    expect(tenants.admitsHost('shop-a.example')).toBe(true);
    expect(tenants.admitsHost('SHOP-A.example:443')).toBe(true);
    // A name given with its port is admitted on that port only.
    expect(tenants.admitsHost('shop-b.example:8443')).toBe(true);
    expect(tenants.admitsHost('shop-b.example')).toBe(false);
    expect(tenants.admitsHost('[2001:db8::1]:443')).toBe(true);
    expect(tenants.admitsHost('shop-c.example')).toBe(false);
    expect(tenants.admitsHost('shop-a.example.evil.example')).toBe(false);
  });

  it('refuses to be built from something that is not a host name', () => {
    expect(() => new HostGuard({ hosts: ['::1'] })).toThrow(/not a host name or name:port/);
  });

  it('adds the bound address to the loopback names when it is another one', () => {
    expect(loopbackHosts(80, '127.0.0.2')).toEqual(['127.0.0.1:80', 'localhost:80', '[::1]:80', '127.0.0.2:80']);
    expect(loopbackHosts(80, '::1')).toEqual(['127.0.0.1:80', 'localhost:80', '[::1]:80']);
  });
});
