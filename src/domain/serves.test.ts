import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UcpRequestError } from '../errors.js';
import { geodesicDestination, geodesicDistanceMeters, regionsContain } from './geodesy.js';
import type { Coverage, CoverageArea, Geo, Locality, Position } from './location.js';
import {
  compileCoverage,
  coverageContainsPoint,
  coverageExtents,
  localityMatches,
  normalizeCountryCode,
  normalizeLocalityTarget,
  normalizePostalCode,
  normalizeRegion,
  postalCodeKeys,
  validateCoverage,
  type LocalityModel,
} from './serves.js';

const geo = (latitude: number, longitude: number): Geo => ({ latitude, longitude });
/** A closed rectangle ring, GeoJSON [lon, lat] order, counterclockwise. */
const rect = (w: number, s: number, e: number, n: number): Position[] => [
  [w, s],
  [e, s],
  [e, n],
  [w, n],
  [w, s],
];
const polygon = (...rings: Position[][]): CoverageArea => ({ type: 'Polygon', coordinates: rings });

describe('coverageContainsPoint — areas (R-S5 serves.point)', () => {
  const withHole = compileCoverage({ areas: [polygon(rect(10, 40, 12, 42), rect(10.5, 40.5, 11, 41))] });

  it('serves a point inside the outer ring and not one inside the hole', () => {
    expect(coverageContainsPoint(withHole, null, geo(41.5, 11.5))).toBe(true);
    expect(coverageContainsPoint(withHole, null, geo(40.75, 10.75))).toBe(false);
    expect(coverageContainsPoint(withHole, null, geo(43, 11))).toBe(false);
  });

  it('counts the boundary as served: outer edge, vertex and hole edge', () => {
    expect(coverageContainsPoint(withHole, null, geo(40, 11))).toBe(true); // south edge
    expect(coverageContainsPoint(withHole, null, geo(42, 12))).toBe(true); // NE vertex
    expect(coverageContainsPoint(withHole, null, geo(40.75, 10.5))).toBe(true); // hole's west edge
    expect(coverageContainsPoint(withHole, null, geo(40, 12.000000000001))).toBe(false);
  });

  it('serves a point on a diagonal edge exactly, decided on the given doubles', () => {
    // Triangle with a diagonal edge from (0,0) to (0.3,0.3) in lon/lat; 0.1 is not exact in
    // binary, so whether (0.1, 0.1) lies on that edge is decided by exact arithmetic.
    const tri = compileCoverage({
      areas: [
        polygon([
          [0, 0],
          [0.3, 0],
          [0.3, 0.3],
          [0, 0],
        ]),
      ],
    });
    expect(coverageContainsPoint(tri, null, geo(0.15, 0.15))).toBe(true);
    expect(coverageContainsPoint(tri, null, geo(0.15 + 1e-15, 0.15))).toBe(false);
  });

  it('serves a point in any polygon of a MultiPolygon and of several areas', () => {
    const c = compileCoverage({
      areas: [{ type: 'MultiPolygon', coordinates: [[rect(0, 0, 1, 1)], [rect(5, 5, 6, 6)]] }, polygon(rect(-20, -20, -19, -19))],
    });
    expect(coverageContainsPoint(c, null, geo(0.5, 0.5))).toBe(true);
    expect(coverageContainsPoint(c, null, geo(5.5, 5.5))).toBe(true);
    expect(coverageContainsPoint(c, null, geo(-19.5, -19.5))).toBe(true);
    expect(coverageContainsPoint(c, null, geo(3, 3))).toBe(false);
  });

  it('evaluates antimeridian-adjacent polygons (a shape split at ±180) on both sides', () => {
    const fiji = compileCoverage({
      areas: [{ type: 'MultiPolygon', coordinates: [[rect(177, -19, 180, -16)], [rect(-180, -19, -179, -16)]] }],
    });
    expect(coverageContainsPoint(fiji, null, geo(-17, 178))).toBe(true);
    expect(coverageContainsPoint(fiji, null, geo(-17, -179.5))).toBe(true);
    expect(coverageContainsPoint(fiji, null, geo(-17, 180))).toBe(true);
    expect(coverageContainsPoint(fiji, null, geo(-17, -180))).toBe(true);
    expect(coverageContainsPoint(fiji, null, geo(-17, -178))).toBe(false);
    expect(coverageContainsPoint(fiji, null, geo(-17, 0))).toBe(false);
    // Only the east half published: a point spelled -180 is still on its edge.
    const eastOnly = compileCoverage({ areas: [polygon(rect(177, -19, 180, -16))] });
    expect(coverageContainsPoint(eastOnly, null, geo(-17, -180))).toBe(true);
  });

  it('rejects a polygon that crosses the antimeridian unsplit (not evaluable in lon/lat)', () => {
    expect(() =>
      compileCoverage({
        areas: [
          polygon([
            [179, 0],
            [-179, 0],
            [-179, 1],
            [179, 1],
            [179, 0],
          ]),
        ],
      }),
    ).toThrow(/spans 358° of longitude.*split/);
  });
});

describe('coverageContainsPoint — radius (R-S5 with R-S4 distance rules)', () => {
  const shop = geo(51.5, -0.12);

  it('is inclusive at exactly the radius and excludes 1 µm beyond, geodesically', () => {
    fc.assert(
      fc.property(fc.double({ min: -180, max: 180, noNaN: true }), fc.double({ min: 0.001, max: 50_000, noNaN: true }), (az, d) => {
        const p = geodesicDestination(shop, az, d);
        const s = geodesicDistanceMeters(shop, p);
        expect(coverageContainsPoint(compileCoverage({ radius_m: s }), shop, p)).toBe(true);
        expect(coverageContainsPoint(compileCoverage({ radius_m: s - 1e-6 }), shop, p)).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it('does not serve by radius when the Location has no geo', () => {
    expect(coverageContainsPoint(compileCoverage({ radius_m: 1e7 }), null, shop)).toBe(false);
  });

  it('serves with radius 0 only the Location point itself', () => {
    const c = compileCoverage({ radius_m: 0 });
    expect(coverageContainsPoint(c, shop, shop)).toBe(true);
    expect(coverageContainsPoint(c, shop, geo(51.5, -0.1200001))).toBe(false);
  });

  it('combines radius and areas with OR', () => {
    const c = compileCoverage({ radius_m: 1000, areas: [polygon(rect(2, 48, 3, 49))] });
    expect(coverageContainsPoint(c, shop, geo(48.5, 2.5))).toBe(true);
    expect(coverageContainsPoint(c, shop, geodesicDestination(shop, 45, 900))).toBe(true);
    expect(coverageContainsPoint(c, shop, geodesicDestination(shop, 45, 1100))).toBe(false);
  });

  it('serves across the antimeridian by radius with no special case', () => {
    const c = compileCoverage({ radius_m: 25_000 });
    expect(coverageContainsPoint(c, geo(0, 179.9), geo(0, -179.9))).toBe(true);
    expect(coverageContainsPoint(c, geo(0, 179.9), geo(0, -179.6))).toBe(false);
  });

  it('is false for empty coverage', () => {
    expect(coverageContainsPoint(compileCoverage({}), shop, shop)).toBe(false);
  });
});

describe('compileCoverage / coverageExtents', () => {
  const latArb = fc.double({ min: -85, max: 85, noNaN: true });
  const lonArb = fc.oneof(
    fc.double({ min: -180, max: 180, noNaN: true }),
    fc.constantFrom(-180, 180),
    fc.double({ min: 178, max: 180, noNaN: true }),
  );
  /** A random rectangle or triangle, clipped to valid coordinates, never spanning > 180°. */
  const areaArb = fc
    .tuple(
      fc.double({ min: -180, max: 179, noNaN: true }),
      latArb,
      fc.double({ min: 0.001, max: 5, noNaN: true }),
      fc.double({ min: 0.001, max: 5, noNaN: true }),
      fc.boolean(),
    )
    .map(([w, s, dw, dh, triangle]): CoverageArea => {
      const e = Math.min(180, w + dw);
      const n = Math.min(90, s + dh);
      return triangle
        ? polygon([
            [w, s],
            [e, s],
            [w, n],
            [w, s],
          ])
        : polygon(rect(w, s, e, n));
    });
  const coverageArb = fc.record(
    {
      radius_m: fc.double({ min: 0, max: 300_000, noNaN: true }),
      areas: fc.array(areaArb, { maxLength: 3 }),
    },
    { requiredKeys: [] },
  );

  it('never leaves out a point the coverage serves (conservative extents for the store index)', () => {
    fc.assert(
      fc.property(
        coverageArb,
        fc.record({ latitude: latArb, longitude: lonArb }),
        fc.double({ min: -180, max: 180, noNaN: true }),
        fc.double({ min: 0, max: 1.05, noNaN: true }),
        fc.nat(3),
        (cov, locGeo, az, frac, pick) => {
          const c = compileCoverage(cov);
          // Probe near where something is served: around the Location or inside an area's box.
          const poly = c.polygons[pick % Math.max(1, c.polygons.length)];
          const probe =
            poly !== undefined && pick % 2 === 0
              ? geo(
                  poly.bbox.minLat + frac * (poly.bbox.maxLat - poly.bbox.minLat) * 0.95,
                  poly.bbox.minLon + frac * (poly.bbox.maxLon - poly.bbox.minLon) * 0.95,
                )
              : geodesicDestination(locGeo, az, frac * (cov.radius_m ?? 1000));
          const boxes = coverageExtents(cov, locGeo);
          if (coverageContainsPoint(c, locGeo, probe)) expect(regionsContain(boxes, probe)).toBe(true);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('mirrors a box touching the antimeridian so either spelling of ±180 is found', () => {
    const boxes = coverageExtents({ areas: [polygon(rect(177, -19, 180, -16))] }, null);
    expect(regionsContain(boxes, geo(-17, -180))).toBe(true);
    expect(regionsContain(boxes, geo(-17, 180))).toBe(true);
    expect(regionsContain(boxes, geo(-17, -179.9))).toBe(false);
  });

  it('has no extent without areas and without a usable radius', () => {
    expect(coverageExtents({}, geo(1, 1))).toEqual([]);
    expect(coverageExtents({ radius_m: 500 }, null)).toEqual([]);
    expect(compileCoverage({ radius_m: 500 }).radiusMeters).toBe(500);
    expect(compileCoverage({}).radiusMeters).toBeNull();
  });

  it('throws a RangeError listing the problems for invalid data', () => {
    expect(() => compileCoverage({ radius_m: -1 })).toThrow(RangeError);
    expect(() => compileCoverage({ radius_m: Number.NaN })).toThrow(/radius_m/);
    expect(() =>
      compileCoverage({
        areas: [
          polygon([
            [0, 0],
            [1, 0],
            [1, 1],
            [0, 1],
          ]),
        ],
      }),
    ).toThrow(/not closed/);
  });
});

describe('validateCoverage', () => {
  const cases: [string, unknown, string, RegExp][] = [
    ['non-object', 'x', '', /must be an object/],
    ['unknown key', { radius: 5 }, 'radius', /unknown coverage field/],
    ['negative radius', { radius_m: -5 }, 'radius_m', /finite number of metres >= 0/],
    ['infinite radius', { radius_m: Number.POSITIVE_INFINITY }, 'radius_m', /finite/],
    ['string radius', { radius_m: '5' }, 'radius_m', /finite/],
    ['areas not array', { areas: {} }, 'areas', /array of GeoJSON/],
    ['bad geometry type', { areas: [{ type: 'Point', coordinates: [0, 0] }] }, 'areas[0].type', /unsupported geometry type "Point"/],
    [
      'short ring',
      {
        areas: [
          polygon([
            [0, 0],
            [1, 0],
            [0, 0],
          ]),
        ],
      },
      'areas[0].coordinates[0]',
      /at least 4 positions/,
    ],
    [
      'open ring',
      {
        areas: [
          polygon([
            [0, 0],
            [1, 0],
            [1, 1],
            [0, 1],
          ]),
        ],
      },
      'areas[0].coordinates[0]',
      /not closed/,
    ],
    [
      'lat/lon swapped',
      {
        areas: [
          polygon([
            [10, 100],
            [11, 100],
            [11, 101],
            [10, 100],
          ]),
        ],
      },
      'areas[0].coordinates[0][0]',
      /latitude 100 is outside/,
    ],
    [
      'longitude out of range',
      {
        areas: [
          polygon([
            [181, 0],
            [182, 0],
            [182, 1],
            [181, 0],
          ]),
        ],
      },
      'areas[0].coordinates[0][0]',
      /longitude 181/,
    ],
    [
      'non-numeric position',
      { areas: [polygon([[0, 0], [1, 0], ['1', 1] as unknown as Position, [0, 0]])] },
      'areas[0].coordinates[0][2]',
      /finite numbers/,
    ],
    [
      'hole problem',
      {
        areas: [
          polygon(rect(0, 0, 10, 10), [
            [1, 1],
            [2, 1],
            [1, 1],
          ]),
        ],
      },
      'areas[0].coordinates[1]',
      /at least 4/,
    ],
    [
      'multipolygon member',
      { areas: [{ type: 'MultiPolygon', coordinates: [[rect(0, 0, 1, 1)], []] }] },
      'areas[0].coordinates[1]',
      /non-empty array of linear rings/,
    ],
    ['empty multipolygon', { areas: [{ type: 'MultiPolygon', coordinates: [] }] }, 'areas[0].coordinates', /non-empty array of polygons/],
    [
      'antimeridian span',
      {
        areas: [
          polygon([
            [-170, 0],
            [170, 0],
            [170, 1],
            [-170, 0],
          ]),
        ],
      },
      'areas[0].coordinates[0]',
      /340° .*antimeridian/,
    ],
    ['lower-case country', { countries: ['us'] }, 'countries[0]', /upper-case ISO 3166-1 alpha-2/],
    ['alpha-3 country', { countries: ['USA'] }, 'countries[0]', /"USA" is not/],
    ['countries not array', { countries: 'US' }, 'countries', /array of ISO 3166-1/],
    ['region key', { regions: { usa: ['NY'] } }, 'regions.usa', /key "usa"/],
    ['empty region list', { regions: { US: [] } }, 'regions.US', /empty list/],
    ['blank region', { regions: { US: ['NY', '  '] } }, 'regions.US[1]', /non-blank string/],
    ['postal not map', { postal_codes: ['10005'] }, 'postal_codes', /object mapping a country code/],
    ['postal not list', { postal_codes: { US: '10005' } }, 'postal_codes.US', /array of postal code strings/],
    ['postal blank', { postal_codes: { US: [' \t'] } }, 'postal_codes.US[0]', /non-blank/],
  ];
  it.each(cases)('reports %s with its field path', (_name, input, field, message) => {
    const issues = validateCoverage(input);
    const hit = issues.find((i) => i.field === field);
    expect(hit, JSON.stringify(issues)).toBeDefined();
    expect(hit!.message).toMatch(message);
  });

  it('accepts a complete valid coverage', () => {
    const good: Coverage = {
      radius_m: 0,
      areas: [polygon(rect(177, -19, 180, -16)), { type: 'MultiPolygon', coordinates: [[rect(0, 0, 1, 1), rect(0.2, 0.2, 0.4, 0.4)]] }],
      countries: ['DE'],
      regions: { US: ['NY', 'us-nj'] },
      postal_codes: { GB: ['SW1A 1AA'] },
    };
    expect(validateCoverage(good)).toEqual([]);
    expect(validateCoverage({})).toEqual([]);
  });
});

describe('normalizePostalCode / normalizeRegion / normalizeCountryCode', () => {
  it('normalise postal codes: trim, upper case, inner spaces removed', () => {
    expect(normalizePostalCode(' sw1a 1aa ')).toBe('SW1A1AA');
    expect(normalizePostalCode('10005-1234')).toBe('10005-1234');
    expect(normalizePostalCode('123\u00a045')).toBe('12345');
  });

  it('normalise postal codes per country: US ZIP+4 spelled with a hyphen, ZIP kept apart', () => {
    expect(normalizePostalCode('100051234', 'US')).toBe('10005-1234');
    expect(normalizePostalCode(' 10005 - 1234 ', 'us')).toBe('10005-1234');
    expect(normalizePostalCode('10005', 'US')).toBe('10005');
    expect(normalizePostalCode('k1a 0b1', 'CA')).toBe('K1A0B1');
    expect(normalizePostalCode('1012 ab', 'NL')).toBe('1012AB');
    expect(normalizePostalCode('100-0001', 'JP')).toBe('100-0001');
  });

  it('postalCodeKeys: the code and the coarser codes it nests in, or null when malformed', () => {
    expect(postalCodeKeys('10005-1234', 'US')).toEqual(['10005-1234', '10005']);
    expect(postalCodeKeys('10005', 'US')).toEqual(['10005']);
    expect(postalCodeKeys('1000', 'US')).toBeNull();
    expect(postalCodeKeys('SW1A1AA', 'GB')).toEqual(['SW1A1AA', 'SW1A', 'SW']);
    expect(postalCodeKeys('E11AA', 'GB')).toEqual(['E11AA', 'E1', 'E']);
    expect(postalCodeKeys('E111AA', 'GB')).toEqual(['E111AA', 'E11', 'E']);
    expect(postalCodeKeys('SW1A', 'GB')).toEqual(['SW1A', 'SW']);
    expect(postalCodeKeys('SW', 'GB')).toEqual(['SW']);
    expect(postalCodeKeys('12345', 'GB')).toBeNull();
    expect(postalCodeKeys('K1A0B1', 'CA')).toEqual(['K1A0B1', 'K1A']);
    expect(postalCodeKeys('K1A', 'CA')).toEqual(['K1A']);
    expect(postalCodeKeys('D1A0B1', 'CA')).toBeNull();
    expect(postalCodeKeys('1012AB', 'NL')).toEqual(['1012AB', '1012']);
    expect(postalCodeKeys('0123AB', 'NL')).toBeNull();
    expect(postalCodeKeys('75001', 'FR')).toEqual(['75001']);
  });

  it('normalise regions to ISO 3166-2 codes by code or English/local name; other text trimmed, collapsed, upper-cased', () => {
    expect(normalizeRegion('  new   york ', 'US')).toBe('NY');
    expect(normalizeRegion('California', 'US')).toBe('CA');
    expect(normalizeRegion('US-California', 'US')).toBe('CA');
    expect(normalizeRegion('Bavaria', 'DE')).toBe('BY');
    expect(normalizeRegion('bayern', 'de')).toBe('BY');
    expect(normalizeRegion('Île-de-France', 'FR')).toBe('IDF');
    expect(normalizeRegion('ile de france', 'FR')).toBe('IDF');
    expect(normalizeRegion('Scotland', 'GB')).toBe('SCT');
    expect(normalizeRegion('  bay   area ', 'US')).toBe('BAY AREA');
    expect(normalizeRegion('us-ny', 'US')).toBe('NY');
    expect(normalizeRegion('US-NY', 'us')).toBe('NY');
    expect(normalizeRegion('CA-ON', 'US')).toBe('CA-ON');
  });

  it('are idempotent, so data and targets normalised once or twice compare equal', () => {
    fc.assert(
      fc.property(fc.string(), fc.constantFrom('US', 'GB', 'DE'), (s, c) => {
        expect(normalizePostalCode(normalizePostalCode(s))).toBe(normalizePostalCode(s));
        expect(normalizePostalCode(normalizePostalCode(s, c), c)).toBe(normalizePostalCode(s, c));
        expect(normalizeRegion(normalizeRegion(s, c), c)).toBe(normalizeRegion(s, c));
        expect(normalizeRegion(`${c}-${s}`, c)).toBe(normalizeRegion(normalizeRegion(`${c}-${s}`, c), c));
      }),
    );
  });

  it('accepts two-letter country codes in any case and nothing else', () => {
    expect(normalizeCountryCode(' de ')).toBe('DE');
    expect(normalizeCountryCode('DEU')).toBeNull();
    expect(normalizeCountryCode('Germany')).toBeNull();
    expect(normalizeCountryCode('D1')).toBeNull();
  });
});

describe('normalizeLocalityTarget (R-S5 serves.address)', () => {
  const model: LocalityModel = { postalCountries: new Set(['US', 'GB']), regionCountries: new Set(['US']) };

  function errorOf(address: Locality | Record<string, unknown>, pointer?: string): UcpRequestError {
    try {
      normalizeLocalityTarget(address, model, ...(pointer === undefined ? [] : [pointer]));
    } catch (e) {
      if (e instanceof UcpRequestError) return e;
      throw e;
    }
    throw new Error('expected a UcpRequestError');
  }

  it('normalises a full target', () => {
    expect(normalizeLocalityTarget({ address_country: 'us', address_region: ' us-ny', postal_code: '10005 ' }, model)).toEqual({
      country: 'US',
      region: 'NY',
      postalCode: '10005',
      postalKeys: ['10005'],
    });
    expect(normalizeLocalityTarget({ address_country: 'gb', postal_code: 'sw1a 1aa' }, model)).toEqual({
      country: 'GB',
      postalCode: 'SW1A1AA',
      postalKeys: ['SW1A1AA', 'SW1A', 'SW'],
    });
    expect(normalizeLocalityTarget({ address_country: 'FR' }, model)).toEqual({ country: 'FR' });
  });

  it('reads countries and regions by name and ZIP+4 codes (R-C4)', () => {
    expect(
      normalizeLocalityTarget({ address_country: 'United States', address_region: 'California', postal_code: '94043-1351' }, model),
    ).toEqual({
      country: 'US',
      region: 'CA',
      postalCode: '94043-1351',
      postalKeys: ['94043-1351', '94043'],
    });
    expect(normalizeLocalityTarget({ address_country: 'USA' }, model)).toEqual({ country: 'US' });
    expect(normalizeLocalityTarget({ address_country: 'Deutschland' }, model)).toEqual({ country: 'DE' });
    expect(normalizeLocalityTarget({ address_country: 'germany' }, model)).toEqual({ country: 'DE' });
  });

  const errors: [string, Record<string, unknown>, string, string, RegExp][] = [
    ['empty address', {}, 'invalid_request', '/serves/address', /at least one non-empty field/],
    ['only unrecognised fields', { address_locality: 'Paris' }, 'invalid_request', '/serves/address', /at least one/],
    ['only blank fields', { address_country: '', postal_code: '  ' }, 'invalid_request', '/serves/address', /at least one/],
    [
      'a blank field next to a real one',
      { address_country: 'US', postal_code: ' ' },
      'invalid_request',
      '/serves/address/postal_code',
      /empty.*broaden/,
    ],
    [
      'a non-string field',
      { address_country: 'US', postal_code: 10005 },
      'invalid_request',
      '/serves/address/postal_code',
      /must be a string/,
    ],
    [
      'postal code without country',
      { postal_code: '10005' },
      'serves_target_unsupported',
      '/serves/address/address_country',
      /postal_code cannot be interpreted without address_country/,
    ],
    [
      'region without country',
      { address_region: 'NY' },
      'serves_target_unsupported',
      '/serves/address/address_country',
      /address_region cannot be interpreted/,
    ],
    ['unknown alpha-3 code', { address_country: 'ZZZ' }, 'serves_target_unsupported', '/serves/address/address_country', /"ZZZ".*alpha-2/],
    [
      'unknown country name',
      { address_country: 'Atlantis' },
      'serves_target_unsupported',
      '/serves/address/address_country',
      /not a known country.*alpha-2 code.*English or local name/,
    ],
    [
      'unassigned alpha-2 code',
      { address_country: 'XX' },
      'serves_target_unsupported',
      '/serves/address/address_country',
      /"XX" is not a known country/,
    ],
    [
      'unknown subdivision',
      { address_country: 'US', address_region: 'Narnia' },
      'serves_target_unsupported',
      '/serves/address/address_region',
      /not a known ISO 3166-2 subdivision of US.*"California" or "CA"/,
    ],
    [
      'malformed US ZIP code',
      { address_country: 'US', postal_code: '1000' },
      'serves_target_unsupported',
      '/serves/address/postal_code',
      /not a well-formed postal code for US.*ZIP\+4/,
    ],
    [
      'malformed GB postcode',
      { address_country: 'GB', postal_code: '12345' },
      'serves_target_unsupported',
      '/serves/address/postal_code',
      /not a well-formed postal code for GB.*outward code/,
    ],
    [
      'postal code in an unmodelled postal system',
      { address_country: 'DE', postal_code: '10115' },
      'serves_target_unsupported',
      '/serves/address/postal_code',
      /no postal-code coverage data for country DE/,
    ],
    [
      'region in a country without region data',
      { address_country: 'GB', address_region: 'ENG' },
      'serves_target_unsupported',
      '/serves/address/address_region',
      /no region coverage data for country GB/,
    ],
  ];
  it.each(errors)('rejects %s with its code and JSON pointer', (_name, address, code, pointer, message) => {
    const e = errorOf(address);
    expect(e.code).toBe(code);
    expect(e.pointer).toBe(pointer);
    expect(e.message).toMatch(message);
    expect(e.details).toEqual([{ pointer, message: e.message }]);
  });

  it('never echoes the buyer postal code in an error', () => {
    const e = errorOf({ address_country: 'DE', postal_code: '10115' });
    expect(e.message).not.toContain('10115');
  });

  it('uses the caller-supplied pointer base', () => {
    expect(errorOf({ postal_code: '1' }, '/x/address').pointer).toBe('/x/address/address_country');
  });
});

describe('localityMatches (reference semantics the stores reproduce)', () => {
  const coverage: Coverage = {
    countries: ['DE'],
    regions: { US: ['NY', 'us-nj'] },
    postal_codes: { US: ['10005', '94105'], GB: ['sw1a 1aa'] },
  };

  it.each([
    ['whole country listed', { country: 'DE' }, true],
    ['country-only target needs whole-country coverage', { country: 'US' }, false],
    ['covered region', { country: 'US', region: 'NY' }, true],
    ['region listed in ISO 3166-2 form', { country: 'US', region: 'NJ' }, true],
    ['uncovered region', { country: 'US', region: 'CA' }, false],
    ['listed postal code', { country: 'US', postalCode: '94105' }, true],
    ['postal code listed un-normalised', { country: 'GB', postalCode: 'SW1A1AA' }, true],
    ['postal code of another country', { country: 'GB', postalCode: '10005' }, false],
    ['postal not listed but region covered', { country: 'US', region: 'NY', postalCode: '10001' }, true],
    ['region not covered but postal listed', { country: 'US', region: 'CA', postalCode: '94105' }, true],
    ['neither', { country: 'US', region: 'CA', postalCode: '90001' }, false],
    ['whole country covers any region/postal of it', { country: 'DE', region: 'BE', postalCode: '10115' }, true],
    ['inherited property names never match', { country: 'US', region: 'CONSTRUCTOR' }, false],
  ] as const)('%s', (_name, target, expected) => {
    expect(localityMatches(coverage, target)).toBe(expected);
  });

  it('a listed coarser code serves the finer codes nested in it, never the reverse', () => {
    const model: LocalityModel = { postalCountries: new Set(['US', 'GB', 'CA', 'NL']), regionCountries: new Set() };
    const matches = (listed: Coverage, address: Locality): boolean => localityMatches(listed, normalizeLocalityTarget(address, model));
    expect(matches({ postal_codes: { US: ['10005'] } }, { address_country: 'US', postal_code: '10005-1234' })).toBe(true);
    expect(matches({ postal_codes: { US: ['100051234'] } }, { address_country: 'US', postal_code: '10005-1234' })).toBe(true);
    expect(matches({ postal_codes: { US: ['10005-1234'] } }, { address_country: 'US', postal_code: '10005' })).toBe(false);
    expect(matches({ postal_codes: { GB: ['sw1a'] } }, { address_country: 'GB', postal_code: 'SW1A 1AA' })).toBe(true);
    expect(matches({ postal_codes: { GB: ['SW'] } }, { address_country: 'GB', postal_code: 'sw1a 2aa' })).toBe(true);
    expect(matches({ postal_codes: { GB: ['E11'] } }, { address_country: 'GB', postal_code: 'E1 1AA' })).toBe(false);
    expect(matches({ postal_codes: { GB: ['SW1A 1AA'] } }, { address_country: 'GB', postal_code: 'SW1A' })).toBe(false);
    expect(matches({ postal_codes: { CA: ['K1A'] } }, { address_country: 'CA', postal_code: 'k1a 0b1' })).toBe(true);
    expect(matches({ postal_codes: { NL: ['1012'] } }, { address_country: 'NL', postal_code: '1012 ab' })).toBe(true);
    expect(matches({ postal_codes: { NL: ['1013'] } }, { address_country: 'NL', postal_code: '1012 ab' })).toBe(false);
  });

  it('matches a region listed by name against a target sent as code, and the reverse', () => {
    const model: LocalityModel = { postalCountries: new Set(), regionCountries: new Set(['US', 'DE']) };
    expect(
      localityMatches(
        { regions: { US: ['California'] } },
        normalizeLocalityTarget({ address_country: 'us', address_region: 'US-CA' }, model),
      ),
    ).toBe(true);
    expect(
      localityMatches({ regions: { DE: ['BY'] } }, normalizeLocalityTarget({ address_country: 'DE', address_region: 'Bavaria' }, model)),
    ).toBe(true);
  });

  it('does not match anything with empty coverage', () => {
    expect(localityMatches({}, { country: 'US', region: 'NY', postalCode: '10005' })).toBe(false);
  });

  it('matches exactly when a normalised target equals a normalised list entry (property)', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 8 }), fc.string({ minLength: 1, maxLength: 8 }), (listed, asked) => {
        fc.pre(normalizePostalCode(listed) !== '' && normalizePostalCode(asked) !== '');
        // A country without a known postal format: codes match only themselves.
        const cov: Coverage = { postal_codes: { DE: [listed] } };
        const target = normalizeLocalityTarget(
          { address_country: 'de', postal_code: asked },
          { postalCountries: new Set(['DE']), regionCountries: new Set() },
        );
        expect(localityMatches(cov, target)).toBe(normalizePostalCode(listed) === normalizePostalCode(asked));
      }),
    );
  });
});
