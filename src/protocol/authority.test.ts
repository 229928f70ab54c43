import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkAuthorityBinding, deriveAuthorityPrefix } from './authority.js';

function rejected(name: string, url: string): string {
  const r = checkAuthorityBinding(name, url);
  expect(r.ok, `${name} ← ${url} should be rejected`).toBe(false);
  return r.ok ? '' : r.reason;
}

describe('checkAuthorityBinding: the seed table (R-N2)', () => {
  // Seed 002, "Derivation algorithm": entity name, schema host, authority_prefix, result.
  const table: [string, string, string, 'exact' | 'prefix' | 'reject'][] = [
    ['dev.ucp.shopping.checkout', 'ucp.dev', 'dev.ucp', 'prefix'],
    ['dev.ucp.shopping.checkout', 'shopping.ucp.dev', 'dev.ucp.shopping', 'prefix'],
    ['com.example.payments.installments', 'example.com', 'com.example', 'prefix'],
    ['com.example.pay', 'pay.example.com', 'com.example.pay', 'exact'],
    ['com.example.pay', 'example.com', 'com.example', 'prefix'],
    ['com.example.pay', 'evil.example', 'example.evil', 'reject'],
    ['dev.ucp.shopping.checkout', 'evil.example', 'example.evil', 'reject'],
    ['com.examplecorp.pay', 'example.com', 'com.example', 'reject'],
    ['com.example.pay', 'cdn.example.com', 'com.example.cdn', 'reject'],
  ];

  it.each(table)('%s with schema host %s (authority %s) → %s', (name, host, prefix, expected) => {
    const url = `https://${host}/schemas/entity.json`;
    const derived = deriveAuthorityPrefix(url);
    expect(derived).toMatchObject({ ok: true, authorityPrefix: prefix });
    const r = checkAuthorityBinding(name, url);
    if (expected === 'reject') {
      expect(r.ok).toBe(false);
    } else {
      expect(r).toEqual({ ok: true, kind: expected, authorityPrefix: prefix });
    }
  });
});

describe('checkAuthorityBinding: adversarial inputs (R-N2)', () => {
  it('takes the host after "@", never text before it (userinfo trick)', () => {
    const reason = rejected('dev.ucp.shopping.checkout', 'https://ucp.dev@evil.example/x.json');
    expect(reason).toMatch(/userinfo/);
    expect(reason).toContain('evil.example');
  });

  it.each([
    ['empty userinfo', 'https://@ucp.dev/x.json'],
    ['empty user and password', 'https://:@ucp.dev/x.json'],
    ['user and password', 'https://u:p@ucp.dev/x.json'],
    ['userinfo after backslashes', 'https:\\\\@ucp.dev/x.json'],
    ['userinfo with a tab inside', 'https://u\t@ucp.dev/x.json'],
  ])('rejects %s even when the host is right', (_why, url) => {
    expect(rejected('dev.ucp.common.location.search', url)).toMatch(/userinfo/);
  });

  it('does not mistake an "@" in the path, query or fragment for userinfo', () => {
    for (const url of ['https://ucp.dev/a@b.json', 'https://ucp.dev/x.json?by=a@b', 'https://ucp.dev/x.json#a@b']) {
      expect(checkAuthorityBinding('dev.ucp.common.location.search', url).ok).toBe(true);
    }
  });

  it.each([
    ['http', 'http://ucp.dev/x.json'],
    ['ftp', 'ftp://ucp.dev/x.json'],
    ['file', 'file:///etc/passwd'],
    ['data', 'data:application/json,{}'],
  ])('rejects the %s scheme and says https is required', (_why, url) => {
    expect(rejected('dev.ucp.common.location.search', url)).toMatch(/only https/);
  });

  it('rejects what does not parse, with an example of what would', () => {
    expect(rejected('dev.ucp.common.location.search', 'not a url')).toMatch(/does not parse.*https:\/\//);
    expect(rejected('dev.ucp.common.location.search', '/schemas/x.json')).toMatch(/does not parse/);
    expect(rejected('dev.ucp.common.location.search', 'https://ucp.dev:99999/x.json')).toMatch(/does not parse/);
  });

  it('ignores the port', () => {
    expect(checkAuthorityBinding('dev.ucp.common', 'https://ucp.dev:8443/x.json')).toMatchObject({ ok: true, kind: 'prefix' });
    expect(checkAuthorityBinding('dev.ucp.common', 'https://ucp.dev:443/x.json')).toMatchObject({ ok: true, kind: 'prefix' });
  });

  it('strips exactly one trailing dot', () => {
    expect(checkAuthorityBinding('dev.ucp.common', 'https://ucp.dev./x.json')).toMatchObject({ ok: true, authorityPrefix: 'dev.ucp' });
    expect(checkAuthorityBinding('dev.ucp.common', 'https://ucp.dev%2e/x.json')).toMatchObject({ ok: true });
    expect(rejected('dev.ucp.common', 'https://ucp.dev../x.json')).toMatch(/empty label/);
  });

  it('compares case-insensitively on the host (the parser lower-cases it)', () => {
    expect(checkAuthorityBinding('dev.ucp.common', 'https://UCP.DEV/x.json')).toMatchObject({ ok: true, kind: 'prefix' });
    expect(checkAuthorityBinding('dev.ucp.common', 'https://Shopping.Ucp.Dev/x.json').ok).toBe(false);
  });

  it('compares internationalised hosts in A-label form', () => {
    expect(deriveAuthorityPrefix('https://bücher.example/x.json')).toMatchObject({ ok: true, authorityPrefix: 'example.xn--bcher-kva' });
    expect(checkAuthorityBinding('example.xn--bcher-kva.books', 'https://bücher.example/x.json')).toMatchObject({
      ok: true,
      kind: 'prefix',
    });
    expect(checkAuthorityBinding('example.xn--bcher-kva', 'https://BÜCHER.example/x.json')).toMatchObject({ ok: true, kind: 'exact' });
    // Full-width letters and ideographic dots normalise to ASCII before the comparison.
    expect(checkAuthorityBinding('com.example.pay', 'https://ｐａｙ。example.com/x.json')).toMatchObject({ ok: true, kind: 'exact' });
  });

  it.each([
    ['dotted quad', 'https://127.0.0.1/x.json'],
    ['hex and short form', 'https://0x7f.1/x.json'],
    ['a single 32-bit number', 'https://2130706433/x.json'],
    ['two-part short form', 'https://127.1/x.json'],
    ['octal', 'https://0177.0.0.1/x.json'],
    ['public IPv4', 'https://203.0.113.10/x.json'],
    ['trailing dot after IPv4', 'https://203.0.113.10./x.json'],
  ])('rejects an IPv4 host written as %s', (_why, url) => {
    expect(rejected('com.example.pay', url)).toMatch(/IPv4/);
  });

  it.each(['https://[::1]/x.json', 'https://[2001:db8::1]:8443/x.json', 'https://[::ffff:127.0.0.1]/x.json'])(
    'rejects the IPv6 literal %s',
    (url) => {
      expect(rejected('com.example.pay', url)).toMatch(/IPv6/);
    },
  );

  it('rejects single-label hosts', () => {
    expect(rejected('localhost.anything', 'https://localhost/x.json')).toMatch(/single label/);
    expect(rejected('dev.ucp.common', 'https://dev./x.json')).toMatch(/single label/);
  });

  it('rejects empty labels and non-LDH labels', () => {
    expect(rejected('com.example.pay', 'https://pay..example.com/x.json')).toMatch(/empty label/);
    expect(rejected('com.example.foo_bar', 'https://foo_bar.example.com/x.json')).toMatch(/not a DNS host label/);
    expect(rejected('com.example.a', 'https://-a.example.com/x.json')).toMatch(/not a DNS host label/);
    expect(rejected('com.example.a', `https://${'a'.repeat(64)}.example.com/x.json`)).toMatch(/at most 63/);
  });

  it('keeps the match label-aligned: com.example does not own com.examplecorp', () => {
    const reason = rejected('com.examplecorp.shopping.pay', 'https://example.com/x.json');
    expect(reason).toContain('"com.example"');
    expect(reason).toMatch(/label-aligned/);
    expect(checkAuthorityBinding('com.example.shopping.pay', 'https://example.com/x.json')).toMatchObject({ ok: true });
  });

  it('rejects a name shorter than the authority prefix', () => {
    expect(rejected('com.example', 'https://pay.example.com/x.json')).toMatch(/does not own/);
    expect(rejected('dev.ucp', 'https://shopping.ucp.dev/x.json')).toMatch(/does not own/);
  });

  it('rejects a name that is not reverse-domain, whatever the URL', () => {
    expect(rejected('Dev.Ucp.Common', 'https://ucp.dev/x.json')).toMatch(/not a reverse-domain name/);
    expect(rejected('ucp', 'https://ucp.dev/x.json')).toMatch(/not a reverse-domain name/);
  });

  it('never looks at the path, query or fragment', () => {
    expect(rejected('dev.ucp.common', 'https://evil.example/ucp.dev/x.json?h=ucp.dev#ucp.dev')).toMatch(/does not own/);
  });
});

// Seed 002 ("Derivation algorithm"): the check uses the host as written and does not consult the
// Public Suffix List, so a public suffix (co.uk, github.io) is an ordinary authority and the only
// guard is label alignment. These cases would come out differently with PSL-aware code.
describe('checkAuthorityBinding: no Public Suffix List (R-N2)', () => {
  it('derives the authority from every label of a host under a multi-label suffix: foo.co.uk → uk.co.foo', () => {
    expect(deriveAuthorityPrefix('https://foo.co.uk/schemas/x.json')).toEqual({
      ok: true,
      authorityPrefix: 'uk.co.foo',
      host: 'foo.co.uk',
    });
    expect(checkAuthorityBinding('uk.co.foo', 'https://foo.co.uk/x.json')).toEqual({
      ok: true,
      kind: 'exact',
      authorityPrefix: 'uk.co.foo',
    });
    expect(checkAuthorityBinding('uk.co.foo.loyalty', 'https://foo.co.uk/x.json')).toEqual({
      ok: true,
      kind: 'prefix',
      authorityPrefix: 'uk.co.foo',
    });
    // A subdomain binds only the names that follow its labels, as under any other domain.
    expect(checkAuthorityBinding('uk.co.foo.shop.cart', 'https://shop.foo.co.uk/x.json')).toMatchObject({ ok: true, kind: 'prefix' });
    expect(rejected('uk.co.foo.loyalty', 'https://shop.foo.co.uk/x.json')).toMatch(/does not own/);
  });

  it('keeps registrants under one suffix apart only by label alignment', () => {
    expect(rejected('uk.co.bar.pay', 'https://foo.co.uk/x.json')).toMatch(/does not own/);
    expect(rejected('uk.co.foobar.pay', 'https://foo.co.uk/x.json')).toMatch(/does not own/);
    expect(rejected('io.github.bob.pay', 'https://alice.github.io/x.json')).toMatch(/does not own/);
  });

  it('treats a two-label public suffix as an ordinary authority over every name beneath it', () => {
    // Two labels pass the "registered domain of ≥2 labels" test by counting, not by list lookup:
    // whoever serves co.uk or github.io vouches for uk.co.* or io.github.*, as the seed warns.
    expect(checkAuthorityBinding('uk.co.foo.pay', 'https://co.uk/x.json')).toEqual({ ok: true, kind: 'prefix', authorityPrefix: 'uk.co' });
    expect(checkAuthorityBinding('io.github.alice.pay', 'https://github.io/x.json')).toMatchObject({ ok: true, kind: 'prefix' });
    // A single label stays refused even though "uk" is a suffix too: that is the label count, not a list.
    expect(rejected('uk.co.foo', 'https://uk/x.json')).toMatch(/single label/);
  });
});

// Labels valid both in a reverse-domain name and as DNS host labels. The first label of a name
// (the host's top-level label) starts with a letter, so no host built here can read as IPv4;
// `xn--` labels are avoided because the URL parser validates them as punycode.
const hostLabel = fc.stringMatching(/^[a-z0-9](?:[a-z0-9-]{0,10}[a-z0-9])?$/).filter((l) => !l.startsWith('xn--'));
const firstLabel = fc.stringMatching(/^[a-z](?:[a-z0-9-]{0,10}[a-z0-9])?$/).filter((l) => !l.startsWith('xn--'));
const nameLabels = fc.tuple(firstLabel, fc.array(hostLabel, { minLength: 1, maxLength: 5 })).map(([f, r]) => [f, ...r]);
const hostOf = (labels: readonly string[]): string => [...labels].reverse().join('.');

describe('checkAuthorityBinding: properties (R-N2)', () => {
  it('binds every name to the reversal of any of its first k ≥ 2 labels', () => {
    fc.assert(
      fc.property(nameLabels, fc.nat(), fc.constantFrom('', ':8443'), (labels, seed, port) => {
        const k = 2 + (seed % (labels.length - 1));
        const name = labels.join('.');
        const r = checkAuthorityBinding(name, `https://${hostOf(labels.slice(0, k))}${port}/s.json`);
        expect(r).toEqual({ ok: true, kind: k === labels.length ? 'exact' : 'prefix', authorityPrefix: labels.slice(0, k).join('.') });
      }),
    );
  });

  it('rejects a host whose reversal is only a textual, not label-aligned, prefix', () => {
    fc.assert(
      fc.property(nameLabels, fc.nat(), hostLabel, (labels, seed, tail) => {
        // Host labels [l0 … l(k-1) + tail]: the name then continues with `tail…` inside a label.
        const k = 2 + (seed % (labels.length - 1));
        const host = [...labels.slice(0, k - 1), labels[k - 1] as string].reverse().join('.');
        const name = [...labels.slice(0, k - 1), `${labels[k - 1] as string}${tail}`, ...labels.slice(k)].join('.');
        expect(checkAuthorityBinding(name, `https://${host}/s.json`).ok).toBe(false);
      }),
    );
  });

  it('rejects a host whose reversal diverges from the name or runs past it', () => {
    fc.assert(
      fc.property(nameLabels, fc.nat(), hostLabel, (labels, seed, other) => {
        const k = 1 + (seed % labels.length);
        const name = labels.join('.');
        // Longer than the name: the name is a prefix of the authority, not the other way round.
        expect(checkAuthorityBinding(name, `https://${hostOf([...labels, other])}/s.json`).ok).toBe(false);
        // Same first k-1 labels, then a different label at position k-1.
        const diverged = [...labels.slice(0, k - 1), `${labels[k - 1] as string}-${other}`];
        if (diverged.length >= 2) expect(checkAuthorityBinding(name, `https://${hostOf(diverged)}/s.json`).ok).toBe(false);
      }),
    );
  });

  it('never binds when the URL carries userinfo, whatever it says', () => {
    fc.assert(
      fc.property(nameLabels, fc.stringMatching(/^[a-z0-9.:]{0,12}$/), (labels, userinfo) => {
        const r = checkAuthorityBinding(labels.join('.'), `https://${userinfo}@${hostOf(labels.slice(0, 2))}/s.json`);
        expect(r.ok).toBe(false);
      }),
    );
  });
});
