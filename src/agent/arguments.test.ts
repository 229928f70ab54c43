import { describe, expect, it } from 'vitest';
import { DEFAULT_RADIUS, parseFindArguments, parseGetArguments, parseRadius } from './arguments.js';
import { ToolInputError } from './errors.js';

function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    if (error instanceof ToolInputError) return error.message;
    throw error;
  }
  throw new Error('expected a ToolInputError');
}

describe('agent arguments: find_locations', () => {
  it('accepts the documented arguments and normalises them', () => {
    const parsed = parseFindArguments({
      business: ' acme ',
      query: 'grocery',
      near: { latitude: 40.71, longitude: -74.0 },
      radius: '3 mi',
      open_now: true,
      amenities: ['dev.ucp.amenity.parking', 'dev.ucp.amenity.parking'],
      items: ['sku-1'],
      limit: 5,
    });
    expect(parsed.list).toEqual({
      business: 'acme',
      query: 'grocery',
      near: { latitude: 40.71, longitude: -74.0 },
      radius: { meters: 3 * 1609.344, unit: 'mi' },
      openNow: true,
      amenities: ['dev.ucp.amenity.parking'],
      items: ['sku-1'],
    });
    expect(parsed.limit).toBe(5);
    expect(parsed.definesList).toBe(true);
  });

  it('near without radius means 5 km and says so; no arguments browse with the default limit', () => {
    const parsed = parseFindArguments({ near: { latitude: 1, longitude: 2 } });
    expect(parsed.list.radius).toEqual(DEFAULT_RADIUS);
    expect(parsed.list.radiusDefaulted).toBe(true);
    expect(parseFindArguments({})).toEqual({ list: {}, limit: 10, definesList: false });
    expect(parseFindArguments({ cursor: 'abc', limit: 3 })).toEqual({ list: {}, limit: 3, cursor: 'abc', definesList: false });
  });

  it('reads radius units and refuses a unitless string, zero and nonsense', () => {
    expect(parseRadius('5km')).toEqual({ meters: 5000, unit: 'km' });
    expect(parseRadius('800m')).toEqual({ meters: 800, unit: 'm' });
    expect(parseRadius('1.5 kilometers')).toEqual({ meters: 1500, unit: 'km' });
    expect(parseRadius(2500)).toEqual({ meters: 2500, unit: 'km' });
    expect(parseRadius(300)).toEqual({ meters: 300, unit: 'm' });
    expect(refusal(() => parseRadius('5'))).toMatch(/"5" has no unit; write "5km", "5 mi" or "5m"/);
    expect(refusal(() => parseRadius(0))).toMatch(/positive distance/);
    expect(refusal(() => parseRadius('far'))).toMatch(/not a distance/);
  });

  it('refuses radius without near, a place name for near, and open_now with open_at', () => {
    expect(refusal(() => parseFindArguments({ radius: '5km' }))).toMatch(/^"radius" needs "near"/);
    expect(refusal(() => parseFindArguments({ query: 'grocery', near: 'Los Angeles' }))).toMatch(
      /"near" got the text "Los Angeles", but it must be coordinates .*does not look up place names/,
    );
    expect(refusal(() => parseFindArguments({ near: { lat: 1, lon: 2 } }))).toMatch(/exactly "latitude" and "longitude"/);
    expect(refusal(() => parseFindArguments({ near: { latitude: 95, longitude: 2 } }))).toMatch(/"near" latitude got 95/);
    expect(refusal(() => parseFindArguments({ open_now: true, open_at: '2026-11-30T10:00:00Z' }))).toMatch(/give one of them/);
    expect(refusal(() => parseFindArguments({ open_at: 'Sunday 10am' }))).toMatch(/"open_at" got "Sunday 10am".*"2026-12-06T10:00"/);
    expect(refusal(() => parseFindArguments({ open_now: 'yes' }))).toMatch(/"open_now" got "yes" \(a string\)/);
  });

  it('refuses unknown arguments by name, with a suggestion or the envelope explained', () => {
    expect(refusal(() => parseFindArguments({ query: 'x', radius_km: 5 }))).toMatch(
      /^Unknown argument "radius_km": find_locations accepts only business, query, .* Did you mean "radius_km" → "radius"\?/,
    );
    expect(refusal(() => parseFindArguments({ meta: {}, location: { query: 'x' } }))).toMatch(/this bridge adds the UCP envelope/);
  });

  it('refuses amenity descriptions, bad limits and bad cursors, one sentence each', () => {
    expect(refusal(() => parseFindArguments({ limit: 51 }))).toMatch(/"limit" got 51; it must be a whole number from 1 to 50/);
    const both = refusal(() => parseFindArguments({ limit: 0, cursor: 7 }));
    expect(both.split('. "').length).toBe(2);
  });
});

describe('agent arguments: get_locations', () => {
  it('needs ids; trims them; refuses unknown keys', () => {
    expect(parseGetArguments({ business: 'acme', ids: [' loc_1 ', 'alias-2'] })).toEqual({ business: 'acme', ids: ['loc_1', 'alias-2'] });
    expect(refusal(() => parseGetArguments({ business: 'acme' }))).toMatch(/"ids" is required/);
    expect(refusal(() => parseGetArguments({ ids: [] }))).toMatch(/non-empty array/);
    expect(refusal(() => parseGetArguments({ ids: ['a'], id: 'b' }))).toMatch(/Unknown argument "id".*"id" → "ids"\?/);
  });
});

describe('agent arguments: as models write them (#26)', () => {
  it('reads "lat,lng" for near, and reports every problem of a call at once', () => {
    expect(parseFindArguments({ near: '40.758,-73.9855' }).list.near).toEqual({ latitude: 40.758, longitude: -73.9855 });
    expect(parseFindArguments({ near: ' 40.758 , -73.9855 ' }).list.near).toEqual({ latitude: 40.758, longitude: -73.9855 });
    const both = refusal(() => parseFindArguments({ near: { latitude: 200, longitude: 500 }, radius: '5', limit: 0 }));
    expect(both).toMatch(/"near" latitude got 200/);
    expect(both).toMatch(/"near" longitude got 500/);
    expect(both).toMatch(/"radius" "5" has no unit/);
    expect(both).toMatch(/"limit" got 0/);
    expect(refusal(() => parseFindArguments({ near: '200,500' }))).toMatch(/latitude got 200.*longitude got 500/);
  });

  it('takes open_at as a local wall time (kept apart, never an instant) or as an instant with an offset', () => {
    expect(parseFindArguments({ open_at: '2026-12-06T10:00' }).list).toEqual({ openAtLocal: '2026-12-06T10:00' });
    expect(parseFindArguments({ open_at: '2026-12-06T10:00:00' }).list).toEqual({ openAtLocal: '2026-12-06T10:00' });
    expect(parseFindArguments({ open_at: '2026-12-06T10:00:00-05:00' }).list).toEqual({ openAt: '2026-12-06T10:00:00-05:00' });
    expect(refusal(() => parseFindArguments({ open_at: '2026-02-30T10:00' }))).toMatch(/not a real date and time/);
  });

  it('splits amenities into ids (sent to businesses) and labels (matched by the bridge); takes a BCP 47 language', () => {
    const { list } = parseFindArguments({ amenities: ['dev.ucp.amenity.parking', 'wheelchair accessible', 'Wi-Fi'], language: 'de' });
    expect(list).toEqual({ amenities: ['dev.ucp.amenity.parking'], amenityLabels: ['wheelchair accessible', 'Wi-Fi'], language: 'de' });
    expect(refusal(() => parseFindArguments({ language: 'German language' }))).toMatch(/BCP 47 language tag such as "en"/);
    expect(parseGetArguments({ business: 'a', ids: ['x'], language: 'pt-BR' })).toEqual({ business: 'a', ids: ['x'], language: 'pt-BR' });
  });
});
