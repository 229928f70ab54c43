import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkNamingConvention, isReservedUcpName, isReverseDomainName, REVERSE_DOMAIN_PATTERN } from './names.js';

describe('REVERSE_DOMAIN_PATTERN', () => {
  it('is the exact pattern of R-N1', () => {
    expect(REVERSE_DOMAIN_PATTERN.source).toBe('^[a-z](?:[a-z0-9-]*[a-z0-9])?(?:\\.[a-z0-9](?:[a-z0-9_-]*[a-z0-9_])?)+$');
  });

  it.each([
    'dev.ucp.shopping.checkout',
    'dev.ucp.common.identity_linking',
    'com.example.loyalty_gold',
    'com.example-shop.checkout',
    'com.2example.cart',
    'uk.co.example-shop.checkout',
    'xn--p1ai.example.checkout',
    'dev.ucp.amenity.wi_fi',
  ])('accepts %s (R-N1)', (name) => {
    expect(isReverseDomainName(name)).toBe(true);
  });

  it.each([
    ['single label', 'ucp'],
    ['upper case', 'dev.UCP.common'],
    ['first label starts with a digit', '1dev.ucp'],
    ['first label holds an underscore', 'de_v.ucp'],
    ['label ends with a hyphen', 'com.example-.x'],
    ['label starts with an underscore', 'com._example'],
    ['empty label', 'com..example'],
    ['trailing dot', 'com.example.'],
    ['leading dot', '.com.example'],
    ['space', 'com.example .x'],
    ['empty string', ''],
  ])('rejects %s (R-N1)', (_why, name) => {
    expect(isReverseDomainName(name)).toBe(false);
  });

  it('rejects non-strings', () => {
    expect(isReverseDomainName(42)).toBe(false);
    expect(isReverseDomainName(undefined)).toBe(false);
  });
});

describe('checkNamingConvention (R-N1)', () => {
  it('accepts services shaped {reverse-domain}.{service}', () => {
    expect(checkNamingConvention('dev.ucp.common', 'service')).toEqual({ ok: true });
    expect(checkNamingConvention('com.example.shopping', 'service')).toEqual({ ok: true });
  });

  it('accepts capabilities shaped {reverse-domain}.{service}.{capability}', () => {
    expect(checkNamingConvention('dev.ucp.common.location.search', 'capability')).toEqual({ ok: true });
    expect(checkNamingConvention('com.example.payments.installments', 'capability')).toEqual({ ok: true });
    expect(checkNamingConvention('dev.ucp.common.identity_linking', 'capability')).toEqual({ ok: true });
  });

  it('rejects a service without a service label, saying which shape is expected', () => {
    const r = checkNamingConvention('com.example', 'service');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toContain('{reverse-domain}.{service}');
  });

  it('rejects a capability without a capability label', () => {
    const r = checkNamingConvention('dev.ucp.common', 'capability');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(/at least 4 labels/);
  });

  it('exempts payment handlers from the service/capability shape but not from the pattern', () => {
    expect(checkNamingConvention('com.example.pay', 'payment_handler')).toEqual({ ok: true });
    expect(checkNamingConvention('com.google.pay', 'payment_handler')).toEqual({ ok: true });
    expect(checkNamingConvention('Com.Example', 'payment_handler').ok).toBe(false);
  });

  it('explains a pattern failure', () => {
    const r = checkNamingConvention('Dev.UCP.common.x', 'capability');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(/not a reverse-domain name/);
  });
});

describe('isReservedUcpName (R-N1)', () => {
  it('reserves dev.ucp and everything under it', () => {
    expect(isReservedUcpName('dev.ucp')).toBe(true);
    expect(isReservedUcpName('dev.ucp.common.location.search')).toBe(true);
  });

  it('does not reserve textual neighbours', () => {
    expect(isReservedUcpName('dev.ucpx.common')).toBe(false);
    expect(isReservedUcpName('dev.uc')).toBe(false);
    expect(isReservedUcpName('com.example.dev.ucp')).toBe(false);
  });

  it('reserves every name below dev.ucp and none below a neighbouring label', () => {
    const label = fc.stringMatching(/^[a-z0-9](?:[a-z0-9_-]{0,8}[a-z0-9_])?$/);
    fc.assert(
      fc.property(fc.array(label, { maxLength: 4 }), label, (rest, extra) => {
        expect(isReservedUcpName(['dev', 'ucp', ...rest].join('.'))).toBe(true);
        expect(isReservedUcpName(['dev', `ucp${extra}`, ...rest].join('.'))).toBe(false);
        expect(isReservedUcpName(['com', 'example', 'dev', 'ucp', ...rest].join('.'))).toBe(false);
      }),
    );
  });
});
