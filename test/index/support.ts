/**
 * Random datasets and requests for the in-memory index tests: small worlds (a few dozen
 * Locations around Los Angeles, some across the antimeridian) whose words, amenities, items,
 * hours and coverage overlap enough that every operand both matches and misses.
 */
import fc from 'fast-check';
import type { DailyHour, Day, LocationRecord } from '../../src/domain/location.js';
import type { LookupRequest, SearchRequest } from '../../src/domain/requests.js';
import type { LocationService } from '../../src/service.js';

export const WORDS = [
  'grocery',
  'grocers',
  'groceries',
  'store',
  'stores',
  'coffee',
  'bakery',
  'pharmacy',
  'market',
  'fresh',
  'books',
  'running',
  'runner',
  'café',
  'tea',
  'house',
  'park',
  'valley',
  'downtown',
  'shopping',
  'hardware',
  'pet',
  'florist',
  'organic',
] as const;
/** Query words: dataset words, typos of them, prefixes, and words no Location has. */
export const QUERY_WORDS = [...WORDS, 'grcery', 'bakry', 'coffe', 'pharmcy', 'groc', 'sto', 'run', 'zzqxv', 'cafe', 'Los', 'CA'] as const;
export const AMENITIES = ['dev.ucp.amenity.parking', 'dev.ucp.amenity.wi_fi', 'dev.ucp.amenity.shopping.curbside_pickup'] as const;
export const ITEMS = ['sku-1', 'sku-2', 'sku-3'] as const;
const ALL_DAYS: Day[] = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const CENTERS = [
  { latitude: 34.05, longitude: -118.25 },
  { latitude: -16.8, longitude: 179.95 },
] as const;

const words = (max: number): fc.Arbitrary<string[]> => fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: max });

const hours: fc.Arbitrary<DailyHour[] | undefined> = fc.constantFrom(
  undefined,
  ALL_DAYS.map((day) => ({ day, opens: '08:00', closes: '20:00' })),
  ALL_DAYS.slice(0, 5).map((day) => ({ day, opens: '10:00', closes: '14:00' })),
);

const point = fc.record({
  center: fc.constantFrom(...CENTERS),
  dLat: fc.double({ min: -0.3, max: 0.3, noNaN: true }),
  dLon: fc.double({ min: -0.3, max: 0.3, noNaN: true }),
});

function wrapLongitude(lon: number): number {
  return lon > 180 ? lon - 360 : lon < -180 ? lon + 360 : lon;
}

const record = fc.record({
  name: words(3),
  keywords: fc.option(words(3), { nil: undefined }),
  geo: fc.option(point, { nil: undefined, freq: 6 }),
  amenities: fc.subarray([...AMENITIES]),
  amenityText: words(2),
  items: fc.subarray([...ITEMS]),
  hours,
  radius: fc.option(fc.integer({ min: 500, max: 40_000 }), { nil: undefined }),
  locality: fc.constantFrom(undefined, 'countries', 'regions', 'postal'),
  private: fc.boolean().map((b) => b && Math.random() < 0.3),
  alias: fc.constantFrom(undefined, 'shared-alias', 'other-alias'),
  city: fc.constantFrom('Los Angeles', 'Pasadena', 'Valley Village'),
  postal: fc.constantFrom('90012', '90013', '91101'),
});

/** A random dataset of valid records with distinct ids. */
export const dataset: fc.Arbitrary<LocationRecord[]> = fc.array(record, { minLength: 1, maxLength: 30 }).map((rows) =>
  rows.map((r, i): LocationRecord => {
    const rec: LocationRecord = {
      id: `loc_${String((i * 7919) % 1000).padStart(3, '0')}_${i}`,
      name: r.name.join(' '),
      address: { address_locality: r.city, postal_code: r.postal, address_region: 'CA', address_country: 'US' },
      timezone: 'America/Los_Angeles',
    };
    if (r.keywords !== undefined) rec.keywords = r.keywords;
    if (r.geo !== undefined) {
      rec.geo = { latitude: r.geo.center.latitude + r.geo.dLat, longitude: wrapLongitude(r.geo.center.longitude + r.geo.dLon) };
    }
    if (r.amenities.length > 0) {
      rec.amenities = Object.fromEntries(r.amenities.map((a) => [a, { description: r.amenityText.join(' ') }]));
    }
    if (r.items.length > 0) rec.items = r.items;
    if (r.hours !== undefined) rec.hours = r.hours;
    if (r.radius !== undefined || r.locality !== undefined) {
      rec.serves = {};
      if (r.radius !== undefined) rec.serves.radius_m = r.radius;
      if (r.locality === 'countries') rec.serves.countries = ['US'];
      if (r.locality === 'regions') rec.serves.regions = { US: ['CA'] };
      if (r.locality === 'postal') rec.serves.postal_codes = { US: [r.postal] };
    }
    if (r.private) rec.visibility = 'private';
    if (r.alias !== undefined) rec.aliases = [r.alias];
    return rec;
  }),
);

/** A search request using any mix of operands. */
export const searchRequest: fc.Arbitrary<SearchRequest> = fc
  .record({
    query: fc.option(fc.array(fc.constantFrom(...QUERY_WORDS), { minLength: 1, maxLength: 3 }), { nil: undefined }),
    distance: fc.option(fc.record({ center: point, max: fc.integer({ min: 1000, max: 60_000 }) }), { nil: undefined }),
    serves: fc.constantFrom(undefined, 'point', 'region', 'postal'),
    servesPoint: point,
    amenities: fc.subarray([...AMENITIES], { maxLength: 2 }),
    items: fc.subarray([...ITEMS, 'sku-unknown'], { maxLength: 2 }),
    openAt: fc.constantFrom(undefined, '2026-12-01T18:00:00Z', '2026-12-05T23:30:00Z'),
    limit: fc.option(fc.integer({ min: 1, max: 12 }), { nil: undefined }),
    context: fc.constantFrom(undefined, { address_country: 'US', address_region: 'CA' }, { postal_code: '90013', address_country: 'US' }),
  })
  .map((r) => {
    const req: SearchRequest = {};
    if (r.query !== undefined) req.query = r.query.join(' ');
    if (r.distance !== undefined) {
      const c = r.distance.center;
      req.distance = {
        center: { latitude: c.center.latitude + c.dLat, longitude: wrapLongitude(c.center.longitude + c.dLon) },
        max: r.distance.max,
      };
    }
    if (r.serves === 'point') {
      const c = r.servesPoint;
      req.serves = { point: { latitude: c.center.latitude + c.dLat, longitude: wrapLongitude(c.center.longitude + c.dLon) } };
    } else if (r.serves === 'region') req.serves = { address: { address_country: 'US', address_region: 'CA' } };
    else if (r.serves === 'postal') req.serves = { address: { address_country: 'US', postal_code: '90013' } };
    const filters: NonNullable<SearchRequest['filters']> = {};
    if (r.amenities.length > 0) filters.amenities = r.amenities;
    if (r.items.length > 0) filters.items = r.items;
    if (r.openAt !== undefined) filters.hours = { open_at: r.openAt };
    if (Object.keys(filters).length > 0) req.filters = filters;
    if (r.limit !== undefined) req.pagination = { limit: r.limit };
    if (r.context !== undefined) req.context = r.context;
    return req;
  });

export const lookupRequest: fc.Arbitrary<LookupRequest> = fc
  .record({
    ids: fc.array(fc.constantFrom('loc_000_0', 'loc_919_1', 'loc_838_2', 'shared-alias', 'other-alias', 'missing'), {
      minLength: 1,
      maxLength: 4,
    }),
    search: searchRequest,
  })
  .map(({ ids, search }) => {
    const req: LookupRequest = { ids };
    if (search.distance !== undefined) req.distance = search.distance;
    if (search.serves !== undefined) req.serves = search.serves;
    if (search.filters !== undefined) req.filters = search.filters;
    return req;
  });

/** Every page of a search (at most 20), or the error it ends with. */
export async function walk(service: LocationService, request: SearchRequest): Promise<unknown> {
  const pages: unknown[] = [];
  let req = request;
  try {
    for (let i = 0; i < 20; i++) {
      const r = await service.search(req);
      pages.push({
        ids: r.locations.map((l) => l.id),
        total: r.pagination.total_count,
        more: r.pagination.has_next_page,
        messages: r.messages,
      });
      if (r.pagination.cursor === undefined) break;
      req = { ...request, pagination: { ...request.pagination, cursor: r.pagination.cursor } };
    }
  } catch (error) {
    pages.push({ error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) });
  }
  return pages;
}

/** Ids of every page of a walk, sorted (the set, not the order), plus the total count. */
export function walkSet(pages: unknown): unknown {
  const list = pages as { ids?: string[]; total?: number; error?: string }[];
  return {
    ids: list.flatMap((p) => p.ids ?? []).sort(),
    total: list[0]?.total,
    error: list.find((p) => p.error !== undefined)?.error,
  };
}
