import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../errors.js';
import { normaliseDomain } from './domain-name.js';

describe('normaliseDomain: a tenant name is a host name and a safe directory name', () => {
  it('lower-cases, drops a final dot and writes IDNA names in punycode', () => {
    expect(normaliseDomain('Stores.Brand-A.Example.')).toBe('stores.brand-a.example');
    expect(normaliseDomain('bäckerei.example')).toBe('xn--bckerei-5wa.example');
    expect(normaliseDomain('BÄCKEREI.example')).toBe('xn--bckerei-5wa.example');
  });

  it.each([
    ['..', 'is not a domain name'],
    ['../etc', 'is not a domain name'],
    ['brand/../../x.example', 'is not a domain name'],
    ['brand\\x.example', 'is not a domain name'],
    ['brand.example:8080', 'is not a domain name'],
    ['%2e%2e.example', 'is not a domain name'],
    ['127.0.0.1', 'is an IP address'],
    ['localhost', 'single label'],
    ['-brand.example', 'label "-brand"'],
    ['brand_a.example', 'label "brand_a"'],
    ['', 'is not a domain name'],
    [`${'a'.repeat(64)}.example`, 'must be 1–63'],
  ])('refuses %j with a message saying why', (raw, why) => {
    expect(() => normaliseDomain(raw)).toThrow(ConfigError);
    expect(() => normaliseDomain(raw)).toThrow(why);
  });

  it('is idempotent, and what it accepts is one path segment of letters, digits, hyphens and dots', () => {
    const label = fc.stringMatching(/^[A-Za-z0-9äöüé-]{1,20}$/);
    fc.assert(
      fc.property(fc.array(label, { minLength: 2, maxLength: 4 }), (labels) => {
        let name: string;
        try {
          name = normaliseDomain(labels.join('.'));
        } catch (err) {
          expect(err).toBeInstanceOf(ConfigError);
          return;
        }
        expect(normaliseDomain(name)).toBe(name);
        expect(name).toMatch(/^[a-z0-9.-]+$/);
        expect(name.split('.').every((l) => l.length > 0 && l !== '.' && l !== '..')).toBe(true);
      }),
    );
  });
});
