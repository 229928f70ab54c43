import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { UcpProfile } from './types.js';
import { businessVersions, checkLeafProfile, checkPlatformVersion, compareVersions, selectVersion } from './versions.js';

const business = {
  version: '2026-08-25',
  supported_versions: {
    '2026-01-11': 'https://b.example.com/.well-known/ucp/2026-01-11',
    '2026-04-08': 'https://b.example.com/.well-known/ucp/2026-04-08',
  },
};

describe('selectVersion (R-D6)', () => {
  it('prefers the current version when the Platform supports it', () => {
    expect(selectVersion(business, ['2026-01-11', '2026-08-25'])).toEqual({ version: '2026-08-25' });
  });

  it('falls back to the most recent older release and names its leaf profile', () => {
    expect(selectVersion(business, ['2026-01-11', '2026-04-08', '2025-12-01'])).toEqual({
      version: '2026-04-08',
      profileUrl: 'https://b.example.com/.well-known/ucp/2026-04-08',
    });
  });

  it('returns null when there is no mutual release', () => {
    expect(selectVersion(business, ['2025-01-01', '2027-01-01'])).toBeNull();
    expect(selectVersion(business, [])).toBeNull();
    expect(selectVersion({ version: '2026-08-25' }, ['2026-01-11'])).toBeNull();
  });

  it('uses exact string equality and never selects a non-date version', () => {
    expect(selectVersion({ version: '2026-08-25', supported_versions: { draft: 'https://b.example.com/d' } }, ['draft'])).toBeNull();
    expect(selectVersion(business, ['2026-08-25 ', '2026-8-25'])).toBeNull();
  });

  it('ignores inherited keys (supported_versions is data, not a prototype chain)', () => {
    expect(selectVersion({ version: '2026-08-25' }, ['toString', 'constructor'])).toBeNull();
  });

  it('picks the newest mutual release, and one the Platform asked for (property)', () => {
    const date = fc
      .tuple(fc.integer({ min: 2024, max: 2030 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 28 }))
      .map(([y, m, d]) => `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`);
    fc.assert(
      fc.property(date, fc.uniqueArray(date, { maxLength: 5 }), fc.array(date, { maxLength: 6 }), (current, older, platform) => {
        const b = { version: current, supported_versions: Object.fromEntries(older.map((v) => [v, `https://b.example.com/${v}`])) };
        const mutual = [current, ...older].filter((v) => platform.includes(v));
        const r = selectVersion(b, platform);
        if (mutual.length === 0) {
          expect(r).toBeNull();
          return;
        }
        expect(r).not.toBeNull();
        const chosen = r?.version as string;
        expect(mutual).toContain(chosen);
        for (const v of mutual) expect(compareVersions(v, chosen)).toBeLessThanOrEqual(0);
        expect(r?.profileUrl).toBe(chosen === current ? undefined : `https://b.example.com/${chosen}`);
      }),
    );
  });
});

describe('businessVersions', () => {
  it('lists the current and older releases, newest first, without duplicates', () => {
    expect(
      businessVersions({ ...business, supported_versions: { ...business.supported_versions, '2026-08-25': 'https://x.example/y' } }),
    ).toEqual(['2026-08-25', '2026-04-08', '2026-01-11']);
  });
});

describe('checkLeafProfile (R-D6)', () => {
  const leaf = (ucp: Record<string, unknown>): UcpProfile =>
    ({ ucp: { services: {}, payment_handlers: {}, ...ucp } }) as unknown as UcpProfile;

  it('accepts a leaf declaring exactly the selected release', () => {
    expect(checkLeafProfile(leaf({ version: '2026-04-08' }), '2026-04-08')).toEqual({ ok: true });
  });

  it('rejects a leaf whose ucp.version differs from the selected key', () => {
    const r = checkLeafProfile(leaf({ version: '2026-08-25' }), '2026-04-08');
    expect(r).toEqual({ ok: false, errors: [{ pointer: '/ucp/version', message: expect.stringMatching(/"2026-08-25".*"2026-04-08"/) }] });
  });

  it('rejects a leaf carrying supported_versions', () => {
    const r = checkLeafProfile(leaf({ version: '2026-04-08', supported_versions: {} }), '2026-04-08');
    expect(r).toEqual({ ok: false, errors: [{ pointer: '/ucp/supported_versions', message: expect.any(String) }] });
  });

  it('reports both problems at once', () => {
    const r = checkLeafProfile(leaf({ version: '2026-01-11', supported_versions: { '2025-01-01': 'https://x.example/y' } }), '2026-04-08');
    expect(r.ok ? [] : r.errors.map((e) => e.pointer)).toEqual(['/ucp/version', '/ucp/supported_versions']);
  });
});

describe('checkPlatformVersion (R-G3)', () => {
  it('accepts the Business version', () => {
    expect(checkPlatformVersion('2026-08-25', business)).toEqual({ ok: true, version: '2026-08-25' });
  });

  it('accepts a supported_versions key and points at its leaf profile', () => {
    expect(checkPlatformVersion('2026-01-11', business)).toEqual({
      ok: true,
      version: '2026-01-11',
      profileUrl: 'https://b.example.com/.well-known/ucp/2026-01-11',
    });
  });

  it('refuses anything else with a message listing what is supported (version_unsupported)', () => {
    const r = checkPlatformVersion('2026-01-12', business);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.reason).toContain('"2026-01-12" is not supported');
      expect(r.reason).toContain('2026-08-25, 2026-04-08, 2026-01-11');
    }
  });

  it('does not treat a newer or older date as compatible (no ranges)', () => {
    expect(checkPlatformVersion('2026-09-01', { version: '2026-08-25' }).ok).toBe(false);
    expect(checkPlatformVersion('2026-08-24', { version: '2026-08-25' }).ok).toBe(false);
  });

  it('does not resolve prototype members as supported versions', () => {
    expect(checkPlatformVersion('constructor', business).ok).toBe(false);
    expect(checkPlatformVersion('__proto__', business).ok).toBe(false);
  });
});
