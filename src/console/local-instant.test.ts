import { describe, expect, it } from 'vitest';
import { ConfigError } from '../errors.js';
import { parseInstant } from '../domain/hours.js';
import { localInstant } from './local-instant.js';

describe('localInstant: the playground’s zone-aware time picker', () => {
  it('writes a local reading as an RFC 3339 instant with the zone’s offset', () => {
    const r = localInstant('2026-12-01T10:00', 'America/New_York');
    expect(r).toEqual({ instant: '2026-12-01T10:00:00-05:00', note: null });
    expect(parseInstant(r.instant)).toBe(Date.UTC(2026, 11, 1, 15));
  });

  it('says when a reading falls in a spring-forward gap', () => {
    expect(localInstant('2026-03-08T02:30', 'America/New_York').note).toMatch(/does not exist in America\/New_York/);
  });

  it('says when a reading happens twice in a fall-back fold', () => {
    expect(localInstant('2026-11-01T01:30', 'America/New_York').note).toMatch(/happens twice in America\/New_York/);
  });

  it('refuses offsets as zones and malformed readings', () => {
    expect(() => localInstant('2026-12-01T10:00', '+05:00')).toThrow(ConfigError);
    expect(() => localInstant('2026-12-01 10:00', 'UTC')).toThrow(/YYYY-MM-DDTHH:MM/);
  });
});
