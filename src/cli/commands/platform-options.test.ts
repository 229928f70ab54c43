import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../errors.js';
import { buildRefinements, buildSearchRequest, parseLatLon, parseOpenAt, parseRadius } from './platform-options.js';

const NOW = new Date('2026-11-30T12:00:00.000Z');

describe('parseRadius', () => {
  it('accepts m, km and mi', () => {
    expect(parseRadius('800m')).toEqual({ meters: 800, unit: 'm' });
    expect(parseRadius('5km')).toEqual({ meters: 5000, unit: 'km' });
    expect(parseRadius('2mi')).toEqual({ meters: 3218.688, unit: 'mi' });
    expect(parseRadius('1.5 KM')).toEqual({ meters: 1500, unit: 'km' });
    expect(parseRadius('250m')).toEqual({ meters: 250, unit: 'm' });
  });

  it('refuses anything else with an example', () => {
    expect(() => parseRadius('5 miles')).toThrow(/e\.g\. 800m, 5km, 2mi/);
    // Fails before: a bare number silently meant metres (`--radius 5` searched 5 m).
    expect(() => parseRadius('5')).toThrow('--radius "5" has no unit; write 5km, 5m or 5mi (e.g. 800m, 5km, 3mi)');
    expect(() => parseRadius(' 2.5 ')).toThrow(/has no unit; write 2\.5km/);
    expect(() => parseRadius('-3km')).toThrow(ConfigError);
  });
});

describe('parseLatLon', () => {
  it('reads latitude first and checks ranges', () => {
    expect(parseLatLon('37.79, -122.39', '--near')).toEqual({ latitude: 37.79, longitude: -122.39 });
    expect(() => parseLatLon('-122.39,37.79', '--near')).toThrow(/latitude -122.39 is outside/);
    expect(() => parseLatLon('37.79', '--near')).toThrow(/latitude,longitude/);
    expect(() => parseLatLon('a,b', '--near')).toThrow(ConfigError);
  });
});

describe('parseOpenAt', () => {
  it('turns now into the current instant and keeps RFC 3339 instants exactly (R-S6)', () => {
    expect(parseOpenAt('now', NOW)).toBe('2026-11-30T12:00:00.000Z');
    expect(parseOpenAt('2026-11-30T18:30:00-05:00', NOW)).toBe('2026-11-30T18:30:00-05:00');
  });

  it('refuses instants without an offset (never guesses a zone)', () => {
    expect(() => parseOpenAt('2026-11-30T18:30:00', NOW)).toThrow(/Z or an offset/);
    expect(() => parseOpenAt('tomorrow', NOW)).toThrow(ConfigError);
  });
});

describe('buildRefinements', () => {
  it('creates only the predicates given (R-S3)', () => {
    expect(buildRefinements({}, NOW).request).toEqual({});
  });

  it('builds distance with the default radius, serves and filters', () => {
    const r = buildRefinements(
      { near: '27.7,85.3', servesPostal: 'US:94043', openAt: 'now', amenity: ['dev.ucp.amenity.parking'], item: ['sku-1'] },
      NOW,
    );
    expect(r.request).toEqual({
      distance: { center: { latitude: 27.7, longitude: 85.3 }, max: 5000 },
      serves: { address: { address_country: 'US', postal_code: '94043' } },
      filters: { hours: { open_at: '2026-11-30T12:00:00.000Z' }, amenities: ['dev.ucp.amenity.parking'], items: ['sku-1'] },
    });
    expect(r.radius?.unit).toBe('km');
  });

  it('maps each serves option to exactly one target (R-S5)', () => {
    expect(buildRefinements({ servesPoint: '1,2' }, NOW).request.serves).toEqual({ point: { latitude: 1, longitude: 2 } });
    expect(buildRefinements({ servesRegion: 'US:CA' }, NOW).request.serves).toEqual({
      address: { address_country: 'US', address_region: 'CA' },
    });
    expect(buildRefinements({ servesCountry: 'US' }, NOW).request.serves).toEqual({ address: { address_country: 'US' } });
    expect(() => buildRefinements({ servesCountry: 'US', servesPoint: '1,2' }, NOW)).toThrow(/cannot be combined/);
    expect(() => buildRefinements({ servesPostal: '94043' }, NOW)).toThrow(/COUNTRY:VALUE/);
  });

  it('refuses a radius without a center', () => {
    expect(() => buildRefinements({ radius: '5km' }, NOW)).toThrow(/--near/);
  });
});

describe('buildSearchRequest', () => {
  it('adds query, limit and cursor', () => {
    const r = buildSearchRequest({ query: 'grocery', limit: '5', cursor: 'abc' }, NOW);
    expect(r.request).toEqual({ query: 'grocery', pagination: { cursor: 'abc' } });
    expect(r.limit).toBe(5);
    expect(() => buildSearchRequest({ limit: '0' }, NOW)).toThrow(/at least 1/);
    expect(() => buildSearchRequest({ query: '  ' }, NOW)).toThrow(/empty/);
  });
});
