import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkAddress, isIpLiteral } from './address-guard.js';

describe('checkAddress (R-N4 special-use addresses)', () => {
  const refused: [string, string, string?][] = [
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.5.4', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['100.64.0.1', 'shared-cgnat'],
    ['100.127.255.255', 'shared-cgnat'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['255.255.255.255', 'broadcast'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.0.8', 'ietf-protocol'],
    ['192.0.2.10', 'documentation'],
    ['198.51.100.7', 'documentation'],
    ['203.0.113.99', 'documentation'],
    ['198.18.0.1', 'benchmarking'],
    ['198.19.255.255', 'benchmarking'],
    ['192.88.99.1', 'reserved'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['fd00::1', 'unique-local'],
    ['fc00::1', 'unique-local'],
    ['fe80::1', 'link-local'],
    ['febf::1', 'link-local'],
    ['fec0::1', 'site-local'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'documentation'],
    ['3fff::1', 'documentation'],
    ['100::1', 'discard'],
    ['64:ff9b:1::a00:1', 'nat64-local'],
    ['2001:2::1', 'ietf-protocol'],
    ['::a00:1', 'not-global-unicast'], // deprecated IPv4-compatible form
    ['4000::1', 'not-global-unicast'],
    ['::ffff:127.0.0.1', 'loopback', 'ipv4-mapped'],
    ['::ffff:10.0.0.1', 'private', 'ipv4-mapped'],
    ['::ffff:169.254.169.254', 'link-local', 'ipv4-mapped'],
    ['64:ff9b::a00:1', 'private', 'nat64'],
    ['64:ff9b::7f00:1', 'loopback', 'nat64'],
    ['2002:a00:1::1', 'private', '6to4'],
    ['2002:a9fe:a9fe::1', 'link-local', '6to4'],
    // Teredo: server 65.54.227.120, client 10.0.0.1 stored bit-inverted (f5ff:fffe).
    ['2001:0:4136:e378:8000:63bf:f5ff:fffe', 'private', 'teredo'],
    // Teredo with a private server address.
    ['2001:0:a00:1:8000:63bf:3fff:fdd2', 'private', 'teredo'],
  ];

  it.each(refused)('refuses %s as %s (R-N4)', (address, range, via) => {
    const verdict = checkAddress(address);
    expect(verdict.allowed).toBe(false);
    expect(verdict.range).toBe(range);
    expect(verdict.via).toBe(via);
  });

  const allowed: [string, string?][] = [
    ['93.184.215.14'],
    ['8.8.8.8'],
    ['1.1.1.1'],
    ['172.32.0.1'], // just outside 172.16/12
    ['100.128.0.1'], // just outside 100.64/10
    ['2606:4700:4700::1111'],
    ['2a00:1450:4001:80b::200e'],
    ['::ffff:8.8.8.8', 'ipv4-mapped'],
    ['64:ff9b::808:808', 'nat64'],
    ['2002:808:808::1', '6to4'],
    // Teredo: server 65.54.227.120, client 8.8.8.8 (inverted f7f7:f7f7).
    ['2001:0:4136:e378:8000:63bf:f7f7:f7f7', 'teredo'],
  ];

  it.each(allowed)('allows the public address %s', (address, via) => {
    const verdict = checkAddress(address);
    expect(verdict).toMatchObject({ allowed: true, range: 'global' });
    expect(verdict.via).toBe(via);
  });

  it('allows loopback only when allowLoopback is set (local development, R-N4)', () => {
    for (const address of ['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1']) {
      expect(checkAddress(address).allowed).toBe(false);
      expect(checkAddress(address, { allowLoopback: true }).allowed).toBe(true);
    }
  });

  it('never allows loopback reached through NAT64 or 6to4, even in development', () => {
    expect(checkAddress('64:ff9b::7f00:1', { allowLoopback: true }).allowed).toBe(false);
    expect(checkAddress('2002:7f00:1::1', { allowLoopback: true }).allowed).toBe(false);
  });

  it('allowLoopback does not open private or link-local space', () => {
    for (const address of ['10.0.0.1', '169.254.169.254', 'fd00::1', 'fe80::1', '0.0.0.0', '::']) {
      expect(checkAddress(address, { allowLoopback: true }).allowed).toBe(false);
    }
  });

  it('refuses text that is not an IP address', () => {
    expect(checkAddress('example.com')).toMatchObject({ allowed: false, range: 'invalid' });
    expect(checkAddress('')).toMatchObject({ allowed: false, range: 'invalid' });
  });

  it('accepts bracketed IPv6 as found in URL host names', () => {
    expect(checkAddress('[::1]')).toMatchObject({ allowed: false, range: 'loopback', address: '::1' });
  });

  const octet = fc.integer({ min: 0, max: 255 });
  const ipv4 = fc.tuple(octet, octet, octet, octet).map((o) => o.join('.'));

  it('judges an IPv4-mapped address exactly like the IPv4 address it carries (property)', () => {
    fc.assert(
      fc.property(ipv4, fc.boolean(), (v4, allowLoopback) => {
        const plain = checkAddress(v4, { allowLoopback });
        const mapped = checkAddress(`::ffff:${v4}`, { allowLoopback });
        expect(mapped.allowed).toBe(plain.allowed);
        expect(mapped.range).toBe(plain.range);
      }),
    );
  });

  it('refuses NAT64 and 6to4 forms whenever the embedded IPv4 address is refused (property)', () => {
    fc.assert(
      fc.property(fc.tuple(octet, octet, octet, octet), (o) => {
        const v4 = checkAddress(o.join('.'));
        const hex = (a: number, b: number): string => ((a << 8) | b).toString(16);
        const nat64 = checkAddress(`64:ff9b::${hex(o[0], o[1])}:${hex(o[2], o[3])}`);
        const sixToFour = checkAddress(`2002:${hex(o[0], o[1])}:${hex(o[2], o[3])}::1`);
        expect(nat64.allowed).toBe(v4.allowed);
        expect(sixToFour.allowed).toBe(v4.allowed);
      }),
    );
  });

  it('refuses every address of 10/8, 172.16/12, 192.168/16, 127/8, 169.254/16 and 100.64/10 (property)', () => {
    const inBlock = (a: number, bMin: number, bMax: number) =>
      fc.tuple(fc.integer({ min: bMin, max: bMax }), octet, octet).map(([b, c, d]) => `${a}.${b}.${c}.${d}`);
    fc.assert(
      fc.property(
        fc.oneof(
          inBlock(10, 0, 255),
          inBlock(172, 16, 31),
          inBlock(192, 168, 168),
          inBlock(127, 0, 255),
          inBlock(169, 254, 254),
          inBlock(100, 64, 127),
        ),
        (address) => {
          expect(checkAddress(address).allowed).toBe(false);
        },
      ),
    );
  });
});

describe('isIpLiteral', () => {
  it('recognises IPv4 and bracketed or bare IPv6 literals, not names', () => {
    expect(isIpLiteral('10.0.0.1')).toBe(true);
    expect(isIpLiteral('[::1]')).toBe(true);
    expect(isIpLiteral('::ffff:127.0.0.1')).toBe(true);
    expect(isIpLiteral('profiles.example.com')).toBe(false);
    expect(isIpLiteral('1.2.3')).toBe(false);
  });
});
