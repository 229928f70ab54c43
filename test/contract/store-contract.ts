/**
 * The LocationStore contract, driven through LocationService so that every store (SQLite now,
 * PostgreSQL later) is held to the same observable answers. Test names cite SPEC rule ids.
 *
 *   runStoreContract({ name, newStore, openPeer?, skip? })
 *
 * `newStore` returns an empty, independent store. `openPeer` (optional) opens a second instance
 * on the same data as a given store — another connection pool / another process's view — for the
 * cross-instance tests; without it those tests are skipped with a reason. `skip` lists tests a
 * store cannot run, each group with a written reason.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { geodesicDestination, geodesicDistanceMeters } from '../../src/domain/geodesy.js';
import { toPublicLocation, type Geo, type LocationRecord } from '../../src/domain/location.js';
import type { LookupRequest, SearchRequest, SearchResult } from '../../src/domain/requests.js';
import { DataValidationError, UcpRequestError } from '../../src/errors.js';
import { LocationService, type EngineLimits } from '../../src/service.js';
import type { LocationStore } from '../../src/store/store.js';
import { buyerLocality, localityTier } from '../../src/domain/context-rank.js';
import { AMENITY, fixtureRecords, GEO, PRIVATE_ALIASES, PRIVATE_IDS } from './fixture.js';
import { localizationContract } from './localization-contract.js';

export interface StoreContractOptions {
  name: string;
  newStore: () => Promise<LocationStore>;
  /** A second instance on the same data as `store` (other connections, as another process would have). */
  openPeer?: (store: LocationStore) => Promise<LocationStore>;
  skip?: { reason: string; tests: string[] }[];
}

const SECRET = 'contract-suite-cursor-secret-0123456789';

const ids = (r: { locations: { id: string }[] }): string[] => r.locations.map((l) => l.id);

/**
 * Wait until `peer` answers from `generation`: at once for a store read directly; an in-memory
 * index in front of PostgreSQL follows another instance's writes when their notification arrives.
 */
async function caughtUp(peer: LocationStore, generation: number): Promise<void> {
  await peer.caughtUp?.(generation);
}

function geoOf(id: string): Geo {
  const rec = fixtureRecords().find((r) => r.id === id);
  if (rec?.geo === undefined) throw new Error(`fixture ${id} has no geo`);
  return rec.geo;
}

/** Only this Location (1 m around its own geo), for schedule tests. */
function only(id: string, openAt: string): SearchRequest {
  return { distance: { center: geoOf(id), max: 1 }, filters: { hours: { open_at: openAt } } };
}

async function expectRequestError(p: Promise<unknown>, code: string, pointer: string): Promise<UcpRequestError> {
  let caught: unknown;
  try {
    await p;
  } catch (e) {
    caught = e;
  }
  expect(caught).toBeInstanceOf(UcpRequestError);
  const err = caught as UcpRequestError;
  expect({ code: err.code, pointer: err.pointer }).toEqual({ code, pointer });
  expect(err.message.length).toBeGreaterThan(20);
  return err;
}

/** Every page of a search, following cursors; `limits` gives the page size per page (cycled). */
async function allPages(
  service: LocationService,
  request: SearchRequest,
  limits: readonly number[],
): Promise<{ ids: string[]; pages: SearchResult[] }> {
  const pages: SearchResult[] = [];
  const out: string[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 1000; i++) {
    const limit = limits[i % limits.length] as number;
    const page = await service.search({ ...request, pagination: cursor === undefined ? { limit } : { limit, cursor } });
    pages.push(page);
    out.push(...ids(page));
    expect(page.pagination.has_next_page === (page.pagination.cursor !== undefined)).toBe(true);
    if (!page.pagination.has_next_page) return { ids: out, pages };
    cursor = page.pagination.cursor;
  }
  throw new Error('pagination did not terminate');
}

async function* slowly(records: LocationRecord[], midway: () => Promise<void>, failAfter?: number): AsyncGenerator<LocationRecord> {
  let n = 0;
  for (const r of records) {
    if (failAfter !== undefined && n === failAfter) throw new Error('source failed mid-import');
    yield r;
    n++;
    if (n === Math.ceil(records.length / 2)) await midway();
  }
}

export function runStoreContract(opts: StoreContractOptions): void {
  const skipped = new Map<string, string>();
  for (const group of opts.skip ?? []) for (const t of group.tests) skipped.set(t, group.reason);
  const test = (name: string, fn: () => Promise<void>, needsPeer = false): void => {
    const reason = skipped.get(name) ?? (needsPeer && opts.openPeer === undefined ? 'no openPeer given for this store' : undefined);
    if (reason !== undefined) it.skip(`${name} [skipped: ${reason}]`, fn);
    else it(name, fn);
  };

  describe(`LocationStore contract: ${opts.name}`, () => {
    let store: LocationStore;
    let service: LocationService;
    const svc = (limits: Partial<EngineLimits>): LocationService => new LocationService(store, { cursorSecret: SECRET, limits });

    beforeAll(async () => {
      store = await opts.newStore();
      await store.replaceAll(fixtureRecords());
      service = new LocationService(store, { cursorSecret: SECRET });
    });
    afterAll(async () => {
      await store?.close();
    });

    localizationContract(() => service, test);

    // ─────────────────────────── text ───────────────────────────
    describe('search: free text (R-S1)', () => {
      test('finds the seed\'s "Valley Grocers" for the query "grocery store" (seed example)', async () => {
        const r = await service.search({ query: 'grocery store' });
        expect(ids(r)).toContain('loc_valley_grocers');
      });

      test('tolerates stems, prefixes and typos: grocers, grocer, groceries, grcery, groc (R-S1)', async () => {
        for (const q of ['grocers', 'grocer', 'groceries', 'grcery', 'groc', 'Grocers!']) {
          expect(ids(await service.search({ query: q })), q).toContain('loc_valley_grocers');
        }
      });

      test('ranks the better text match first (ranking)', async () => {
        expect(ids(await service.search({ query: 'valley grocers' }))[0]).toBe('loc_valley_grocers');
        expect(ids(await service.search({ query: 'silver lake coffee' }))[0]).toBe('loc_la_silver');
        // More matched terms outrank fewer: both names contain "store", only one "downtown".
        expect(ids(await service.search({ query: 'downtown store' }))[0]).toBe('loc_downtown');
      });

      test('matches keywords, locality and amenity descriptions as text (R-S1)', async () => {
        expect(ids(await service.search({ query: 'camping' }))).toEqual(['loc_kathmandu']);
        expect(ids(await service.search({ query: 'curbside', pagination: { limit: 50 } })).sort()).toEqual(
          ['loc_la_chinatown', 'loc_la_prefix_outlet', 'loc_valley_grocers'].sort(),
        );
        expect(ids(await service.search({ query: 'Berlin' }))).toEqual(['loc_berlin']);
      });

      test('text narrows but never relaxes a structured predicate (R-S1)', async () => {
        const r = await service.search({ query: 'Downtown Store', distance: { center: GEO.laCityHall, max: 20_000 } });
        expect(ids(r)).not.toContain('loc_downtown');
        for (const id of ids(r)) expect(geodesicDistanceMeters(GEO.laCityHall, geoOf(id))).toBeLessThanOrEqual(20_000);
        expect(ids(await service.search({ query: 'zzqxv' }))).toEqual([]);
      });
    });

    describe('search: natural-language query (R-C2)', () => {
      // A store of its own: amenity descriptions in several languages, one Location per case.
      let nl: LocationStore;
      let nlService: LocationService;
      const pharmacy = 'com.example.amenity.pharmacy';
      const curbside = 'dev.ucp.amenity.shopping.curbside_pickup';
      const hours = [{ day: 'monday' as const, opens: '09:00', closes: '10:00' }];
      const records: LocationRecord[] = [
        { id: 'nl_apotheke', name: 'Eckladen', amenities: { [pharmacy]: { description: 'Apotheke' } } },
        { id: 'nl_yakkyoku', name: 'Kiosk Shinjuku', amenities: { [pharmacy]: { description: '薬局' } } },
        { id: 'nl_plaza', name: 'Pharmacy Plaza', timezone: 'UTC', hours },
        { id: 'nl_bakery', name: 'Bakery', amenities: { [curbside]: { description: 'Abholung am Straßenrand' } } },
        { id: 'nl_the_corner', name: 'The Corner Shop', keywords: ['open late'] },
      ];
      beforeAll(async () => {
        nl = await opts.newStore();
        await nl.replaceAll(records);
        nlService = new LocationService(nl, { cursorSecret: SECRET });
      });
      afterAll(async () => {
        await nl?.close();
      });

      test('an amenity named by its id words matches every Location that has it, whatever its description language (R-C2)', async () => {
        const r = ids(await nlService.search({ query: 'pharmacy' }));
        expect([...r].sort()).toEqual(['nl_apotheke', 'nl_plaza', 'nl_yakkyoku']);
        expect(r[0]).toBe('nl_plaza'); // the name outweighs the amenities field
        expect(ids(await nlService.search({ query: 'curbside pickup' }))).toEqual(['nl_bakery']);
        // A description in any language names its amenity too: "Apotheke" and "薬局" reach every
        // Location with the pharmacy amenity (and what else matches "pharmacy"), own words first.
        for (const [query, own] of [
          ['Apotheke', 'nl_apotheke'],
          ['薬局', 'nl_yakkyoku'],
        ] as const) {
          const found = ids(await nlService.search({ query }));
          expect([...found].sort(), query).toEqual(['nl_apotheke', 'nl_plaza', 'nl_yakkyoku']);
          expect(found.indexOf(own), query).toBeLessThan(found.indexOf(own === 'nl_apotheke' ? 'nl_yakkyoku' : 'nl_apotheke'));
        }
      });

      test('filler ("near me", "open now", "please", articles, in English, German, French, Japanese) neither empties nor skews the answer (R-C2)', async () => {
        const plain = await allPages(nlService, { query: 'pharmacy' }, [50]);
        for (const query of [
          'pharmacy near me please',
          'find the pharmacy open now',
          'show me a pharmacy nearby',
          'pharmacy in der Nähe bitte',
          'pharmacy près de moi',
          '近くの pharmacy を探しています',
        ]) {
          const r = await allPages(nlService, { query }, [2]);
          expect(r.ids, query).toEqual(plain.ids);
        }
        // "the" and "open" would otherwise match "The Corner Shop" and its "open late".
        expect(ids(await nlService.search({ query: 'the pharmacy open now' }))).not.toContain('nl_the_corner');
        // Nothing but filler: the same as no query (a browse), never an empty answer.
        expect(ids(await nlService.search({ query: 'near me please', pagination: { limit: 50 } })).sort()).toEqual(
          ids(await nlService.search({ pagination: { limit: 50 } })).sort(),
        );
      });

      test('query text never becomes a predicate: "open now" does not filter by hours, an amenity word does not filter by amenity (R-C2, R-S1)', async () => {
        // nl_plaza is closed at almost every instant, yet still matched.
        const r = ids(await nlService.search({ query: 'pharmacy open now' }));
        expect(r).toContain('nl_plaza');
        // With the filters it is a predicate, and only then.
        const filtered = ids(await nlService.search({ query: 'pharmacy', filters: { amenities: [pharmacy] } }));
        expect(filtered.sort()).toEqual(['nl_apotheke', 'nl_yakkyoku']);
      });
    });

    describe('returned schedules and closures at the request instant (R-C5)', () => {
      // 05:00 UTC on 15 July is still 14 July in Los Angeles: "today" is the Location's own date.
      const NOW = Date.parse('2026-07-15T05:00:00Z');
      const week = (['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const).map((day) => ({
        day,
        opens: '09:00',
        closes: '17:00',
      }));
      const records: LocationRecord[] = [
        {
          id: 'c5_spent',
          name: 'Schedule Keeper',
          timezone: 'America/Los_Angeles',
          hours: week,
          exception_hours: [
            { title: 'Old holiday', valid_from: '2026-07-01', valid_through: '2026-07-04' },
            { title: 'Yesterday', valid_from: '2026-07-13', valid_through: '2026-07-13', opens: '10:00', closes: '12:00' },
            { title: 'Last night', valid_from: '2026-07-13', valid_through: '2026-07-13', opens: '20:00', closes: '02:00' },
            { title: 'Today', valid_from: '2026-07-14', valid_through: '2026-07-14', opens: '10:00', closes: '12:00' },
            { title: 'Summer sale', valid_from: '2026-08-01', valid_through: '2026-08-01', opens: '08:00', closes: '22:00' },
          ],
        },
        {
          id: 'c5_night',
          name: 'Night Owl',
          timezone: 'America/Los_Angeles',
          hours: week,
          exception_hours: [
            { title: 'Late opening', valid_from: '2026-07-13', valid_through: '2026-07-13', opens: '20:00', closes: '02:00' },
          ],
        },
        {
          id: 'c5_temp',
          name: 'Under Renovation',
          timezone: 'Europe/Berlin',
          hours: week,
          exception_hours: [{ title: 'Renovation', valid_from: '2026-07-10', valid_through: '2026-07-20' }],
        },
        {
          id: 'c5_perm',
          name: 'Gone For Good',
          timezone: 'Asia/Tokyo',
          hours: week,
          exception_hours: [{ valid_from: '2026-01-31', valid_through: '9999-12-31' }],
        },
      ];
      let c5: LocationStore;
      let c5Service: LocationService;
      beforeAll(async () => {
        c5 = await opts.newStore();
        await c5.replaceAll(records);
        c5Service = new LocationService(c5, { cursorSecret: SECRET, now: () => NOW });
      });
      afterAll(async () => {
        await c5?.close();
      });

      test('exception_hours that can no longer affect the schedule are omitted from the returned Location, judged in its own zone (R-C5)', async () => {
        const r = await c5Service.lookup({ ids: ['c5_spent'] });
        const titles = r.locations[0]?.exception_hours?.map((e) => e.title);
        // "Old holiday", "Yesterday" and "Last night" (which ran to 02:00 today) are over. "Today"
        // is 14 July in Los Angeles although it is already 15 July in UTC.
        expect(titles).toEqual(['Today', 'Summer sale']);
        const searched = (await c5Service.search({ query: 'schedule keeper' })).locations[0];
        expect(searched?.exception_hours?.map((e) => e.title)).toEqual(['Today', 'Summer sale']);
        // An overnight interval that began yesterday still counts until it closes this morning.
        const at = (iso: string): LocationService => new LocationService(c5, { cursorSecret: SECRET, now: () => Date.parse(iso) });
        const nightAt = async (iso: string): Promise<unknown> =>
          (await at(iso).lookup({ ids: ['c5_night'] })).locations[0]?.exception_hours;
        expect(await nightAt('2026-07-14T08:00:00Z')).toHaveLength(1); // 01:00 local
        expect(await nightAt('2026-07-14T10:00:00Z')).toBeUndefined(); // 03:00 local
        // A Location whose exceptions are all spent returns none at all.
        const later = new LocationService(c5, { cursorSecret: SECRET, now: () => Date.parse('2026-09-01T12:00:00Z') });
        const doc = (await later.lookup({ ids: ['c5_spent'] })).locations[0];
        expect(doc).toBeDefined();
        expect(doc && 'exception_hours' in doc).toBe(false);
        expect(doc?.hours).toEqual(week);
      });

      test('filters.hours.open_at still evaluates every stored exception, past instants included (R-C5, R-S6)', async () => {
        const open = async (at: string): Promise<boolean> =>
          ids(await c5Service.search({ query: 'schedule keeper', filters: { hours: { open_at: at } } })).includes('c5_spent');
        expect(await open('2026-07-02T19:00:00Z')).toBe(false); // noon on 2 July: "Old holiday" closure
        expect(await open('2026-07-06T19:00:00Z')).toBe(true); // noon on 6 July: regular hours
        expect(await open('2026-07-13T18:00:00Z')).toBe(true); // 11:00 on 13 July: "Yesterday" 10–12
        expect(await open('2026-07-13T21:00:00Z')).toBe(false); // 14:00 on 13 July: between its two shifts
        expect(await open('2026-07-14T08:00:00Z')).toBe(false); // 01:00 on 14 July: "Today" governs from midnight
        const night = ids(await c5Service.search({ query: 'night owl', filters: { hours: { open_at: '2026-07-14T08:00:00Z' } } }));
        expect(night).toEqual(['c5_night']); // its overnight exception runs on to 02:00
      });

      test('closures known from the data produce the draft warnings permanently_closed / temporary_closure, pointing at the Location, which is still returned (R-C5)', async () => {
        const r = await c5Service.search({});
        expect(ids(r)).toEqual(['c5_night', 'c5_perm', 'c5_spent', 'c5_temp']);
        expect(r.messages?.map((m) => [m.type, m.code, m.path])).toEqual([
          ['warning', 'permanently_closed', '$.locations[1]'],
          ['warning', 'temporary_closure', '$.locations[3]'],
        ]);
        expect(r.messages?.[1]?.content).toContain('2026-07-20');
        const looked = await c5Service.lookup({ ids: ['c5_temp', 'nope', 'c5_perm'] });
        expect(looked.locations.map((l) => l.id)).toEqual(['c5_temp', 'c5_perm']);
        expect(looked.messages?.filter((m) => m.type === 'warning').map((m) => [m.code, m.path])).toEqual([
          ['temporary_closure', '$.locations[0]'],
          ['permanently_closed', '$.locations[1]'],
        ]);
        // Before the renovation starts there is nothing to warn about.
        const before = new LocationService(c5, { cursorSecret: SECRET, now: () => Date.parse('2026-07-01T12:00:00Z') });
        expect((await before.lookup({ ids: ['c5_temp'] })).messages).toBeUndefined();
      });
    });

    // ─────────────────────────── distance ───────────────────────────
    describe('search: distance (R-S4)', () => {
      test('matches at exactly the geodesic distance and not 1e-6 m closer (R-S4)', async () => {
        const center = GEO.laCityHall;
        const d = geodesicDistanceMeters(center, GEO.valleyGrocers);
        expect(ids(await service.search({ distance: { center, max: d }, pagination: { limit: 50 } }))).toContain('loc_valley_grocers');
        expect(ids(await service.search({ distance: { center, max: d - 1e-6 }, pagination: { limit: 50 } }))).not.toContain(
          'loc_valley_grocers',
        );
      });

      test('returns exactly the Locations within the radius, none outside (R-S4)', async () => {
        const center = GEO.laCityHall;
        const max = 6_000;
        const expected = fixtureRecords()
          .filter((r) => r.visibility !== 'private' && r.geo !== undefined && geodesicDistanceMeters(center, r.geo) <= max)
          .map((r) => r.id)
          .sort();
        expect(expected.length).toBeGreaterThan(3);
        expect(ids(await service.search({ distance: { center, max }, pagination: { limit: 50 } })).sort()).toEqual(expected);
      });

      test('a Location without geo never matches distance (R-S4)', async () => {
        const r = await service.search({ distance: { center: GEO.downtown, max: 500_000 }, pagination: { limit: 50 } });
        expect(ids(r)).toContain('loc_downtown');
        expect(ids(r)).not.toContain('loc_online');
        const l = await service.lookup({ ids: ['loc_online'], distance: { center: GEO.downtown, max: 500_000 } });
        expect(ids(l)).toEqual([]);
      });

      test('rejects a radius over the cap with radius_too_large and never clamps (R-S4)', async () => {
        await expectRequestError(
          service.search({ distance: { center: GEO.laCityHall, max: 500_000.5 } }),
          'radius_too_large',
          '/distance/max',
        );
        await expectRequestError(
          svc({ maxRadiusMeters: 1000 }).search({ distance: { center: GEO.laCityHall, max: 1001 } }),
          'radius_too_large',
          '/distance/max',
        );
        await expectRequestError(
          svc({ maxRadiusMeters: 1000 }).lookup({ ids: ['loc_valley_grocers'], distance: { center: GEO.laCityHall, max: 5000 } }),
          'radius_too_large',
          '/distance/max',
        );
        expect(ids(await svc({ maxRadiusMeters: 1000 }).search({ distance: { center: GEO.valleyGrocers, max: 1000 } }))).toContain(
          'loc_valley_grocers',
        );
      });

      test('crosses the antimeridian with no special case: Fiji (R-S4)', async () => {
        for (const lon of [179.99, -179.99]) {
          const r = await service.search({ distance: { center: { latitude: -16.8, longitude: lon }, max: 12_000 } });
          expect(ids(r).sort()).toEqual(['loc_fiji_east', 'loc_fiji_west']);
        }
        // Ranked by proximity: from 179.99 the western store is nearer (4.3 km vs 6.4 km).
        expect(ids(await service.search({ distance: { center: { latitude: -16.8, longitude: 179.99 }, max: 7000 } }))).toEqual([
          'loc_fiji_west',
          'loc_fiji_east',
        ]);
      });

      test('crosses the antimeridian with no special case: Chukotka (R-S4)', async () => {
        const center = { latitude: 65.5, longitude: 180 };
        expect(ids(await service.search({ distance: { center, max: 480_000 } }))).toEqual(['loc_chukotka_anadyr', 'loc_chukotka_uelen']);
        expect(ids(await service.search({ distance: { center, max: 200_000 } }))).toEqual(['loc_chukotka_anadyr']);
        expect(ids(await service.search({ distance: { center: { latitude: 65.5, longitude: -180 }, max: 200_000 } }))).toEqual([
          'loc_chukotka_anadyr',
        ]);
      });

      test('works next to the pole, across meridians (R-S4)', async () => {
        const center = { latitude: 89.95, longitude: 170 };
        const d = geodesicDistanceMeters(center, GEO.northPole);
        expect(ids(await service.search({ distance: { center, max: d } }))).toEqual(['loc_north_pole']);
        expect(ids(await service.search({ distance: { center, max: d - 1e-6 } }))).toEqual([]);
      });

      test('ranks by proximity to distance.center, then id (ranking)', async () => {
        const center = GEO.laCityHall;
        const r = await service.search({ distance: { center, max: 30_000 }, pagination: { limit: 50 } });
        const dist = ids(r).map((id) => geodesicDistanceMeters(center, geoOf(id)));
        expect(dist.length).toBeGreaterThan(8);
        expect([...dist].sort((a, b) => a - b)).toEqual(dist);
      });
    });

    // ─────────────────────────── serves ───────────────────────────
    describe('search: serves (R-S5)', () => {
      test('serves.point within a coverage radius, inclusive (R-S5)', async () => {
        const inside = geodesicDestination(GEO.valleyGrocers, 90, 7_999.99);
        const outside = geodesicDestination(GEO.valleyGrocers, 90, 8_000.01);
        expect(ids(await service.search({ serves: { point: inside }, pagination: { limit: 50 } }))).toContain('loc_valley_grocers');
        expect(ids(await service.search({ serves: { point: outside }, pagination: { limit: 50 } }))).not.toContain('loc_valley_grocers');
      });

      test('serves.point inside a declared area, with or without geo (R-S5)', async () => {
        expect(ids(await service.search({ serves: { point: { latitude: 40.65, longitude: -73.95 } } }))).toEqual(['loc_ny_brooklyn']);
        expect(ids(await service.search({ serves: { point: { latitude: 40.8, longitude: -73.95 } } }))).toEqual(['loc_online']);
        expect(ids(await service.search({ serves: { point: { latitude: 40.72, longitude: -73.95 } } })).sort()).toEqual([
          'loc_ny_brooklyn',
          'loc_online',
        ]);
        expect(ids(await service.search({ serves: { point: { latitude: 10, longitude: 10 } } }))).toEqual([]);
      });

      test('serves.point radius reaching across the antimeridian (R-S5)', async () => {
        expect(ids(await service.search({ serves: { point: { latitude: -16.8, longitude: 179.9 } } }))).toEqual(['loc_fiji_east']);
      });

      test('serves.point ranks by proximity to the point (ranking)', async () => {
        // Both cover this point: the area of Brooklyn Deli and the country-less area of loc_online (no geo → last).
        expect(ids(await service.search({ serves: { point: { latitude: 40.72, longitude: -73.95 } } }))).toEqual([
          'loc_ny_brooklyn',
          'loc_online',
        ]);
      });

      test('serves.address by postal code, region or whole country (R-S5)', async () => {
        const s = async (address: Record<string, string>): Promise<string[]> =>
          ids(await service.search({ serves: { address }, pagination: { limit: 50 } })).sort();
        expect(await s({ address_country: 'US', postal_code: '10005' })).toEqual(['loc_downtown', 'loc_online']);
        expect(await s({ address_country: 'us', postal_code: ' 10005 ' })).toEqual(['loc_downtown', 'loc_online']);
        expect(await s({ address_country: 'US', postal_code: '90013' })).toEqual(['loc_online', 'loc_valley_grocers']);
        expect(await s({ address_country: 'US', address_region: 'NY' })).toEqual(['loc_ny_albany', 'loc_online']);
        expect(await s({ address_country: 'US' })).toEqual(['loc_online']);
        expect(await s({ address_country: 'DE', postal_code: '10115' })).toEqual(['loc_berlin']);
        expect(await s({ address_country: 'DE', postal_code: '99999' })).toEqual(['loc_berlin']);
      });

      test('serves.address in the forms buyers write: ISO codes in any case, ISO 3166-2 regions, spaced lower-case postcodes (R-C4)', async () => {
        const s = async (address: Record<string, string>): Promise<string[]> =>
          ids(await service.search({ serves: { address }, pagination: { limit: 50 } })).sort();
        const forms: [Record<string, string>, Record<string, string>][] = [
          [
            { address_country: 'US', postal_code: '10005' },
            { address_country: ' us ', postal_code: '10005' },
          ],
          [
            { address_country: 'US', address_region: 'NY' },
            { address_country: 'Us', address_region: 'ny' },
          ],
          [
            { address_country: 'US', address_region: 'NY' },
            { address_country: 'US', address_region: 'US-NY' },
          ],
          [
            { address_country: 'US', address_region: 'NY' },
            { address_country: 'us', address_region: ' us-ny ' },
          ],
          [
            { address_country: 'US', postal_code: '90013' },
            { address_country: 'us', postal_code: ' 900 13 ' },
          ],
        ];
        for (const [canonical, written] of forms) {
          const expected = await s(canonical);
          expect(expected.length, JSON.stringify(canonical)).toBeGreaterThan(0);
          expect(await s(written), JSON.stringify(written)).toEqual(expected);
        }
        // A form that cannot be read is refused at its pointer, not answered with an empty success.
        await expectRequestError(
          service.search({ serves: { address: { address_country: 'Atlantis', postal_code: '10005' } } }),
          'serves_target_unsupported',
          '/serves/address/address_country',
        );
      });

      test('serves.address with a ZIP+4 code or a subdivision name is evaluated or refused, never silently empty (R-C4)', async () => {
        const s = async (address: Record<string, string>): Promise<string[]> =>
          ids(await service.search({ serves: { address }, pagination: { limit: 50 } })).sort();
        const forms: [Record<string, string>, Record<string, string>][] = [
          [
            { address_country: 'US', postal_code: '10005' },
            { address_country: 'US', postal_code: '10005-1234' },
          ],
          [
            { address_country: 'US', postal_code: '10005' },
            { address_country: 'us', postal_code: '100051234' },
          ],
          [
            { address_country: 'US', postal_code: '90013' },
            { address_country: 'United States', postal_code: '90013-0001' },
          ],
          [
            { address_country: 'US', address_region: 'NY' },
            { address_country: 'US', address_region: 'New York' },
          ],
          [
            { address_country: 'US', address_region: 'NY' },
            { address_country: 'usa', address_region: ' new  york ' },
          ],
          [
            { address_country: 'US', address_region: 'NY', postal_code: '90013' },
            { address_country: 'United States of America', address_region: 'US-New York', postal_code: '90013-4321' },
          ],
        ];
        for (const [canonical, written] of forms) {
          const expected = await s(canonical);
          expect(expected.length, JSON.stringify(canonical)).toBeGreaterThan(0);
          expect(await s(written), JSON.stringify(written)).toEqual(expected);
        }
        // A region the Business has data for but that is not listed still answers (an empty list is then the truth).
        expect(await s({ address_country: 'US', address_region: 'California' })).toEqual(['loc_online']);
        // What still cannot be evaluated is refused with the accepted forms, at its pointer.
        const refused: [Record<string, string>, string, RegExp][] = [
          [
            { address_country: 'US', address_region: 'Narnia' },
            '/serves/address/address_region',
            /ISO 3166-2 subdivision of US.*"California"/,
          ],
          [{ address_country: 'US', postal_code: '1000' }, '/serves/address/postal_code', /well-formed postal code for US.*ZIP\+4/],
          [{ address_country: 'US', postal_code: '10005-12' }, '/serves/address/postal_code', /well-formed postal code for US/],
          [{ address_country: 'ZZ' }, '/serves/address/address_country', /not a known country/],
        ];
        for (const [address, pointer, message] of refused) {
          const err = await expectRequestError(service.search({ serves: { address } }), 'serves_target_unsupported', pointer);
          expect(err.message).toMatch(message);
        }
      });

      test('an address target the Business cannot evaluate is an actionable error, never broadened (R-S5)', async () => {
        // Only a private Location lists French postal codes; that must not make France evaluable.
        await expectRequestError(
          service.search({ serves: { address: { address_country: 'FR', postal_code: '75001' } } }),
          'serves_target_unsupported',
          '/serves/address/postal_code',
        );
        await expectRequestError(
          service.search({ serves: { address: { address_country: 'DE', address_region: 'BE' } } }),
          'serves_target_unsupported',
          '/serves/address/address_region',
        );
        await expectRequestError(
          service.lookup({ ids: ['loc_berlin'], serves: { address: { postal_code: '10115' } } }),
          'serves_target_unsupported',
          '/serves/address/address_country',
        );
      });

      test('an un-negotiated extension target is rejected (R-S5)', async () => {
        await expectRequestError(
          service.search({ serves: { 'com.example.delivery_zone': { zone: 'A' } } }),
          'serves_target_unsupported',
          '/serves/com.example.delivery_zone',
        );
      });

      test("never serves from a private Location's coverage (R-S11)", async () => {
        // Pasadena is inside the private hub's 50 km radius and nobody public covers it.
        expect(ids(await service.search({ serves: { point: geoOf('loc_la_pasadena') } }))).toEqual([]);
      });
    });

    // ─────────────────────────── hours ───────────────────────────
    describe('search: filters.hours.open_at (R-S6)', () => {
      test("an instant in another offset is evaluated in the Location's own zone (R-S6)", async () => {
        // Monday 2026-11-30 17:45 in Los Angeles, written three ways.
        for (const t of ['2026-12-01T07:30:00+05:45', '2026-12-01T01:45:00Z', '2026-11-30T17:45:00-08:00']) {
          expect(ids(await service.search(only('loc_valley_grocers', t))), t).toEqual(['loc_valley_grocers']);
        }
        // Monday 21:15 in Los Angeles (already Tuesday in Kathmandu): closed.
        expect(ids(await service.search(only('loc_valley_grocers', '2026-12-01T11:00:00+05:45')))).toEqual([]);
      });

      test('opens is inclusive, closes is exclusive (R-H1)', async () => {
        expect(ids(await service.search(only('loc_valley_grocers', '2026-12-01T04:59:59Z')))).toEqual(['loc_valley_grocers']);
        expect(ids(await service.search(only('loc_valley_grocers', '2026-12-01T05:00:00Z')))).toEqual([]);
        expect(ids(await service.search(only('loc_valley_grocers', '2026-11-30T16:00:00Z')))).toEqual(['loc_valley_grocers']);
        expect(ids(await service.search(only('loc_valley_grocers', '2026-11-30T15:59:59Z')))).toEqual([]);
      });

      test('an overnight interval carries into the next local date (R-H1, R-H2)', async () => {
        expect(ids(await service.search(only('loc_ny_night_owl', '2026-12-05T06:30:00Z')))).toEqual(['loc_ny_night_owl']);
        expect(ids(await service.search(only('loc_ny_night_owl', '2026-12-05T07:00:00Z')))).toEqual([]);
        expect(ids(await service.search(only('loc_ny_night_owl', '2026-12-04T21:00:00Z')))).toEqual([]);
        expect(ids(await service.search(only('loc_ny_night_owl', '2026-12-06T07:30:00Z')))).toEqual(['loc_ny_night_owl']);
      });

      test('split shifts: open in each shift, closed in the gap (R-H1)', async () => {
        expect(ids(await service.search(only('loc_madrid_split', '2026-12-01T12:59:00Z')))).toEqual(['loc_madrid_split']);
        expect(ids(await service.search(only('loc_madrid_split', '2026-12-01T14:00:00Z')))).toEqual([]);
        expect(ids(await service.search(only('loc_madrid_split', '2026-12-01T16:00:00Z')))).toEqual(['loc_madrid_split']);
      });

      test('unknown and empty schedules never match (R-H2, R-S6)', async () => {
        for (const t of ['2026-11-30T20:00:00Z', '2026-12-02T03:00:00Z', '2026-12-05T18:00:00Z']) {
          expect(ids(await service.search(only('loc_la_mystery', t)))).toEqual([]);
          expect(ids(await service.search(only('loc_la_closed_corner', t)))).toEqual([]);
          const near = await service.search({
            distance: { center: GEO.laCityHall, max: 3000 },
            filters: { hours: { open_at: t } },
            pagination: { limit: 50 },
          });
          expect(ids(near)).not.toContain('loc_la_mystery');
          expect(ids(near)).not.toContain('loc_la_closed_corner');
        }
        expect(ids(await service.search({ distance: { center: geoOf('loc_la_mystery'), max: 1 } }))).toEqual(['loc_la_mystery']);
      });

      test('an exception closure replaces the regular schedule (R-H4)', async () => {
        expect(ids(await service.search(only('loc_berlin', '2026-12-24T11:00:00Z')))).toEqual(['loc_berlin']);
        expect(ids(await service.search(only('loc_berlin', '2026-12-25T11:00:00Z')))).toEqual([]);
      });

      test('an instant without offset is a request error at /filters/hours/open_at (R-S6)', async () => {
        await expectRequestError(
          service.search({ filters: { hours: { open_at: '2026-12-01T10:00:00' } } }),
          'invalid_request',
          '/filters/hours/open_at',
        );
        await expectRequestError(
          service.lookup({ ids: ['loc_berlin'], filters: { hours: { open_at: 'tomorrow' } } }),
          'invalid_request',
          '/filters/hours/open_at',
        );
      });
    });

    // ─────────────────────────── amenities, items, custom filters ───────────────────────────
    describe('search: filters.amenities and filters.items (R-S7, R-S8)', () => {
      const la = { center: GEO.laCityHall, max: 20_000 };

      test('amenities match exact keys only; prefixes and descriptions never match (R-S7)', async () => {
        const s = async (amenities: string[]): Promise<string[]> =>
          ids(await service.search({ distance: la, filters: { amenities }, pagination: { limit: 50 } })).sort();
        expect(await s([AMENITY.curbside])).toEqual(['loc_la_chinatown', 'loc_valley_grocers']);
        expect(await s([AMENITY.shoppingPrefix])).toEqual(['loc_la_prefix_outlet']);
        expect(await s(['dev.ucp.amenity.curbside_pickup'])).toEqual([]);
        expect(await s(['dev.ucp.amenity'])).toEqual([]);
        expect(await s([AMENITY.curbside, AMENITY.parking])).toEqual(['loc_valley_grocers']);
      });

      test('items: every referenced item must be available, AND (R-S8)', async () => {
        const s = async (items: string[]): Promise<SearchResult> =>
          service.search({ distance: la, filters: { items }, pagination: { limit: 50 } });
        expect(ids(await s(['sku_milk'])).sort()).toEqual(['loc_la_arts', 'loc_valley_grocers']);
        expect(ids(await s(['sku_bread'])).sort()).toEqual(['loc_la_boyle', 'loc_valley_grocers']);
        expect(ids(await s(['sku_milk', 'sku_bread']))).toEqual(['loc_valley_grocers']);
        expect((await s(['sku_milk'])).messages).toBeUndefined();
      });

      test('an unknown item yields an empty result with item_not_found per unknown id (R-S8)', async () => {
        const r = await service.search({ distance: la, filters: { items: ['sku_milk', 'sku_nope', 'sku_other'] } });
        expect(r.locations).toEqual([]);
        expect(r.pagination.has_next_page).toBe(false);
        expect(r.messages?.map((m) => [m.type, m.code])).toEqual([
          ['info', 'item_not_found'],
          ['info', 'item_not_found'],
        ]);
        expect(r.messages?.[0]?.content).toContain('sku_nope');
        expect(r.messages?.[1]?.content).toContain('sku_other');
      });

      test('an item stocked only by a private Location is unknown (R-S8, R-S11)', async () => {
        const r = await service.search({ filters: { items: ['sku_secret'] } });
        expect(r.locations).toEqual([]);
        expect(r.messages?.map((m) => m.code)).toEqual(['item_not_found']);
      });

      test('no implicit availability check without filters.items (R-S3)', async () => {
        expect(ids(await service.search({ distance: la, pagination: { limit: 50 } }))).toContain('loc_la_echo');
      });

      test('an unsupported custom filter is rejected, never ignored (R-S1)', async () => {
        await expectRequestError(
          service.search({ filters: { 'com.example.loyalty_tier': 'gold' } }),
          'unsupported_filter',
          '/filters/com.example.loyalty_tier',
        );
        await expectRequestError(
          service.lookup({ ids: ['loc_downtown'], filters: { inventory: [] } }),
          'unsupported_filter',
          '/filters/inventory',
        );
      });
    });

    describe('search: predicates combine with AND (R-S1)', () => {
      const monday1745 = '2026-12-01T01:45:00Z';
      const base = (filters: Record<string, unknown>): SearchRequest => ({
        distance: { center: GEO.laCityHall, max: 5_000 },
        filters: { hours: { open_at: monday1745 }, ...filters },
        pagination: { limit: 50 },
      });

      test('distance AND amenities AND items AND open_at (R-S1)', async () => {
        const all = { amenities: [AMENITY.curbside], items: ['sku_milk'] };
        expect(ids(await service.search(base(all)))).toEqual(['loc_valley_grocers']);
        expect(ids(await service.search(base({ amenities: [AMENITY.curbside] }))).sort()).toEqual([
          'loc_la_chinatown',
          'loc_valley_grocers',
        ]);
        expect(ids(await service.search(base({ items: ['sku_milk'] }))).sort()).toEqual(['loc_la_arts', 'loc_valley_grocers']);
        // Monday 21:30 local: Valley Grocers closed at 21:00.
        expect(ids(await service.search({ ...base(all), filters: { ...all, hours: { open_at: '2026-12-01T05:30:00Z' } } }))).toEqual([]);
        // Same filters around New York (Monday 20:45 there): only Downtown Store; the radius decides.
        expect(ids(await service.search({ ...base({ items: ['sku_milk'] }), distance: { center: GEO.downtown, max: 5_000 } }))).toEqual([
          'loc_downtown',
        ]);
      });

      test('distance AND serves (R-S1)', async () => {
        const point = { latitude: 40.72, longitude: -73.95 };
        expect(ids(await service.search({ serves: { point }, distance: { center: GEO.brooklyn, max: 10_000 } }))).toEqual([
          'loc_ny_brooklyn',
        ]);
        expect(ids(await service.search({ serves: { point }, distance: { center: GEO.laCityHall, max: 10_000 } }))).toEqual([]);
      });
    });

    // ─────────────────────────── privacy ───────────────────────────
    describe('privacy (R-S11)', () => {
      test('private Locations are never returned by search', async () => {
        const requests: SearchRequest[] = [
          { query: 'Dark Kitchen' },
          { query: 'Valley Grocers Hub' },
          { query: 'warehouse' },
          { distance: { center: geoOf('loc_la_private_hub'), max: 100 } },
          { distance: { center: { latitude: 40.7075, longitude: -74.01 }, max: 10 } },
          { filters: { amenities: [AMENITY.curbside] }, pagination: { limit: 50 } },
          { serves: { point: geoOf('loc_la_private_hub') } },
          { serves: { address: { address_country: 'US', postal_code: '90012' } } },
        ];
        for (const req of requests) {
          const found = ids(await service.search(req));
          for (const p of PRIVATE_IDS) expect(found, JSON.stringify(req)).not.toContain(p);
        }
        const browse = await allPages(service, {}, [50]);
        for (const p of PRIVATE_IDS) expect(browse.ids).not.toContain(p);
      });

      test('private Locations are never returned by lookup, by id or by alias', async () => {
        const r = await service.lookup({ ids: [...PRIVATE_IDS, ...PRIVATE_ALIASES] });
        expect(r.locations).toEqual([]);
        expect(r.messages?.filter((m) => m.code === 'not_found')).toHaveLength(PRIVATE_IDS.length + PRIVATE_ALIASES.length);
      });

      test('returned documents carry only public fields', async () => {
        const r = await service.lookup({ ids: ['loc_valley_grocers', 'loc_downtown'] });
        for (const loc of r.locations) {
          for (const k of ['aliases', 'visibility', 'keywords', 'serves', 'items']) expect(loc).not.toHaveProperty(k);
        }
      });
    });

    describe('amenity ids shown to callers (R-S7, R-S11)', () => {
      test('amenityIds lists the ids public Locations use (private ones do not count), most used first, then by id', async () => {
        const uses = new Map<string, number>();
        for (const r of fixtureRecords()) {
          if (r.visibility === 'private') continue;
          for (const key of Object.keys(r.amenities ?? {})) uses.set(key, (uses.get(key) ?? 0) + 1);
        }
        const expected = [...uses].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([key]) => key);
        // A store without the optional capability answers undefined here, never the list.
        expect(await store.amenityIds?.(100)).toEqual(expected);
        expect(await store.amenityIds?.(2)).toEqual(expected.slice(0, 2));
      });
    });

    // ─────────────────────────── browse and paging ───────────────────────────
    describe('bounded browse and pagination (R-S2, R-S9, R-S10)', () => {
      const publicCount = fixtureRecords().filter((r) => r.visibility !== 'private').length;

      test('default page size is 10; has_next_page and cursor agree (R-S9)', async () => {
        const r = await service.search({});
        expect(r.locations).toHaveLength(10);
        expect(r.pagination.has_next_page).toBe(true);
        expect(typeof r.pagination.cursor).toBe('string');
        expect(r.pagination.total_count).toBe(Math.min(publicCount, 100));
      });

      test('a limit above the maximum is served with maxPageSize (R-S9)', async () => {
        const r = await svc({ maxPageSize: 4, defaultPageSize: 3 }).search({ pagination: { limit: 1000 } });
        expect(r.locations).toHaveLength(4);
        expect((await svc({ maxPageSize: 4, defaultPageSize: 3 }).search({})).locations).toHaveLength(3);
      });

      test('a browse reaches at most browseCap Locations across all pages (R-S2)', async () => {
        const capped = svc({ browseCap: 5 });
        const { ids: all, pages } = await allPages(capped, {}, [2]);
        expect(pages.map((p) => p.locations.length)).toEqual([2, 2, 1]);
        expect(new Set(all).size).toBe(5);
        for (const p of pages) expect(p.pagination.total_count).toBe(5);
        // Filters alone are still a browse.
        const filtered = await allPages(svc({ browseCap: 3 }), { filters: { hours: { open_at: '2026-12-01T01:45:00Z' } } }, [2]);
        expect(filtered.ids.length).toBe(3);
        // A spatial operand lifts the browse cap.
        const spatial = await allPages(capped, { distance: { center: GEO.laCityHall, max: 30_000 } }, [4]);
        expect(spatial.ids.length).toBeGreaterThan(5);
      });

      test('context and signals are ignored as operands: still a bounded browse, the same set while the matches fit under the cap (R-S3, R-C1)', async () => {
        const context = { address_country: 'US', postal_code: '10005', location: 'loc_downtown' };
        const plain = await allPages(svc({ browseCap: 1000 }), {}, [50]);
        const withContext = await allPages(svc({ browseCap: 1000 }), { context, signals: { 'dev.ucp.buyer_ip': '203.0.113.7' } }, [7]);
        // The same set; only its order follows the context (R-C2).
        expect([...withContext.ids].sort()).toEqual([...plain.ids].sort());
        expect(withContext.ids[0]).toBe('loc_downtown');
        // Text and filters too: under the cap, context never changes the set.
        for (const request of [{ query: 'store' }, { filters: { amenities: [AMENITY.curbside] } }]) {
          const without = (await allPages(svc({ browseCap: 1000 }), request, [50])).ids;
          const hinted = (await allPages(svc({ browseCap: 1000 }), { ...request, context }, [3])).ids;
          expect([...hinted].sort(), JSON.stringify(request)).toEqual([...without].sort());
        }
      });

      /** Locality tier of each fixture Location for a buyer context, as the rule defines it. */
      const tierOf = (context: Record<string, unknown>): ((id: string) => number) => {
        const buyer = buyerLocality(context);
        const byId = new Map(fixtureRecords().map((r) => [r.id, r]));
        return (id) => (buyer === null ? 0 : localityTier(buyer, byId.get(id)?.address));
      };

      test('over browseCap, the capped browse selection follows context: the closest tiers are kept (R-C1, R-C2)', async () => {
        const context = { address_country: 'US', address_region: 'NY' };
        const tier = tierOf(context);
        const all = (await allPages(svc({ browseCap: 1000 }), {}, [50])).ids;
        const cap = 4;
        expect(all.length).toBeGreaterThan(cap);
        const capped = (await allPages(svc({ browseCap: cap }), { context }, [3])).ids;
        // The best `cap` by (tier, id) of every match (a browse without query scores 0 everywhere).
        const expected = [...all].sort((a, b) => tier(a) - tier(b) || (a < b ? -1 : a > b ? 1 : 0)).slice(0, cap);
        expect(capped).toEqual(expected);
        // Without context the cap keeps the first by id instead, which here differs.
        const plainCapped = (await allPages(svc({ browseCap: cap }), {}, [3])).ids;
        expect(plainCapped).toEqual(all.slice(0, cap));
        expect([...capped].sort()).not.toEqual([...plainCapped].sort());
      });

      test('context orders by the Location address: same postal code > same region > same country > elsewhere, text scores only within a tier, every page walked (R-C2, R-C1)', async () => {
        const big = svc({ browseCap: 1000, maxPageSize: 200 });
        const context = { address_country: 'us', address_region: 'California', postal_code: '90012-3456' };
        const tier = tierOf(context);
        const requests: SearchRequest[] = [
          {},
          { query: 'store' },
          { query: 'los angeles store pharmacy' },
          { filters: { amenities: [AMENITY.curbside] } },
        ];
        for (const request of requests) {
          const label = JSON.stringify(request);
          const without = (await allPages(big, request, [200])).ids;
          const walked = (await allPages(big, { ...request, context }, [3])).ids;
          expect(without.length, label).toBeGreaterThan(1);
          // Same matches (R-C1), and exactly the context-free order stably regrouped by tier:
          // a closer tier first, the old (text score, id) order inside each tier.
          const expected = [...without].sort((a, b) => tier(a) - tier(b));
          expect(walked, label).toEqual(expected);
        }
        const browse = (await allPages(big, { context }, [200])).ids;
        expect(browse[0]).toBe('loc_valley_grocers'); // the only Location at 90012
        expect(browse.indexOf('loc_downtown')).toBeGreaterThan(browse.indexOf('loc_la_usc')); // NY after CA
        expect(browse.indexOf('loc_downtown')).toBeLessThan(browse.indexOf('loc_berlin')); // US before DE
        // Text relevance no longer beats locality: with a New York buyer the NY store leads a text search.
        const ny = (await allPages(big, { query: 'store', context: { address_country: 'US', address_region: 'NY' } }, [200])).ids;
        expect(ny[0]).toBe('loc_downtown');
      });

      test("context.location puts the buyer's saved store first; unknown, private or malformed context is ignored (R-C2)", async () => {
        const big = svc({ browseCap: 1000, maxPageSize: 200 });
        const plain = (await allPages(big, { query: 'store' }, [200])).ids;
        expect(plain.length).toBeGreaterThan(1);
        const last = plain[plain.length - 1] as string;
        const saved = (await allPages(big, { query: 'store', context: { location: last } }, [1])).ids;
        expect(saved).toEqual([last, ...plain.filter((id) => id !== last)]);
        // By alias too.
        expect((await allPages(big, { context: { location: 'downtown-store', address_country: 'DE' } }, [200])).ids[0]).toBe(
          'loc_downtown',
        );
        const ignored: Record<string, unknown>[] = [
          { location: 'dark-kitchen' }, // a private Location's alias
          { location: 'loc_nowhere' },
          { location: 17, address_country: 'XX', postal_code: { a: 1 } },
          { address_region: 'CA', postal_code: '90012' }, // no country: not interpretable
          { address_country: 'Atlantis' },
        ];
        for (const context of ignored) {
          expect((await allPages(big, { query: 'store', context }, [2])).ids, JSON.stringify(context)).toEqual(plain);
        }
      });

      test('with distance, distance rules and context only breaks exact ties (R-C2)', async () => {
        const context = { address_country: 'DE', postal_code: '10115', location: 'loc_berlin' };
        for (const request of [
          { distance: { center: GEO.laCityHall, max: 40_000 } },
          { distance: { center: GEO.laCityHall, max: 40_000 }, query: 'pharmacy bakery' },
        ] satisfies SearchRequest[]) {
          const without = (await allPages(service, request, [50])).ids;
          expect((await allPages(service, { ...request, context }, [2])).ids).toEqual(without);
        }
        // serves.point: Locations without geo are all "infinitely" far and tie; context orders them.
        const point = { serves: { point: { latitude: 40.72, longitude: -73.95 } } } satisfies SearchRequest;
        const plainPoint = (await allPages(service, point, [50])).ids;
        const withPoint = (await allPages(service, { ...point, context: { address_country: 'US', address_region: 'NY' } }, [1])).ids;
        expect([...withPoint].sort()).toEqual([...plainPoint].sort());
      });

      test('context never adds, removes or relaxes a match: the same set with and without it, every page walked (R-C1)', async () => {
        // A context pointing somewhere else entirely (Berlin, German, a Berlin home store), so a
        // context that leaked into matching would show. Only the order may follow it.
        const context = {
          address_country: 'DE',
          address_region: 'BE',
          postal_code: '10115',
          location: 'loc_berlin',
          language: 'de-DE',
          intent: 'buy bread near me, open now',
        };
        const requests: SearchRequest[] = [
          { distance: { center: GEO.laCityHall, max: 40_000 } },
          { distance: { center: GEO.downtown, max: 20_000 }, filters: { items: ['sku_milk'] } },
          { serves: { address: { address_country: 'US', address_region: 'NY' } } },
          { serves: { point: { latitude: 40.72, longitude: -73.95 } } },
          { distance: { center: GEO.laCityHall, max: 40_000 }, query: 'grocery', filters: { amenities: [AMENITY.curbside] } },
        ];
        for (const request of requests) {
          const without = await allPages(service, request, [2]);
          const withContext = await allPages(service, { ...request, context }, [2]);
          expect(without.ids.length, JSON.stringify(request)).toBeGreaterThan(0);
          expect(withContext.ids.length, JSON.stringify(request)).toBe(new Set(withContext.ids).size);
          expect([...withContext.ids].sort(), JSON.stringify(request)).toEqual([...without.ids].sort());
        }
        const lookup = { ids: ['loc_berlin', 'loc_downtown', 'loc_valley_grocers'], distance: { center: GEO.downtown, max: 5_000 } };
        expect(ids(await service.lookup({ ...lookup, context }))).toEqual(ids(await service.lookup(lookup)));
      });

      test('paging never duplicates or skips a Location, whatever the page sizes (R-S9)', async () => {
        const big = svc({ maxPageSize: 200, browseCap: 12 });
        const requests: SearchRequest[] = [
          { distance: { center: GEO.laCityHall, max: 40_000 } },
          { query: 'store market shop' },
          {},
          { serves: { address: { address_country: 'US' } } },
          { distance: { center: GEO.laCityHall, max: 40_000 }, query: 'park' },
        ];
        const reference = await Promise.all(requests.map(async (req) => ids(await big.search({ ...req, pagination: { limit: 200 } }))));
        await fc.assert(
          fc.asyncProperty(
            fc.integer({ min: 0, max: requests.length - 1 }),
            fc.array(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 6 }),
            async (i, limits) => {
              const { ids: paged } = await allPages(big, requests[i] as SearchRequest, limits);
              expect(paged).toEqual(reference[i]);
            },
          ),
          { numRuns: 40 },
        );
      });

      test('a cursor continues on another instance sharing the secret, with another limit (R-S9)', async () => {
        const req: SearchRequest = { distance: { center: GEO.laCityHall, max: 40_000 } };
        const full = ids(await service.search({ ...req, pagination: { limit: 50 } }));
        const first = await service.search({ ...req, pagination: { limit: 3 } });
        const other = new LocationService(store, { cursorSecret: SECRET });
        const second = await other.search({ ...req, pagination: { limit: 5, cursor: first.pagination.cursor as string } });
        expect([...ids(first), ...ids(second)]).toEqual(full.slice(0, 8));
      });

      test('a cursor replayed with another query is rejected with invalid_cursor (R-S9)', async () => {
        const first = await service.search({ query: 'store', pagination: { limit: 1 } });
        const cursor = first.pagination.cursor as string;
        await expectRequestError(service.search({ query: 'coffee', pagination: { cursor } }), 'invalid_cursor', '/pagination/cursor');
        await expectRequestError(
          service.search({ query: 'store', filters: { amenities: [AMENITY.wifi] }, pagination: { cursor } }),
          'invalid_cursor',
          '/pagination/cursor',
        );
      });

      test('an edited or foreign cursor is rejected with invalid_cursor (R-S9)', async () => {
        const first = await service.search({ pagination: { limit: 2 } });
        const cursor = first.pagination.cursor as string;
        const mid = Math.floor(cursor.length / 2);
        const flipped = cursor.slice(0, mid) + (cursor[mid] === 'A' ? 'B' : 'A') + cursor.slice(mid + 1);
        for (const bad of [flipped, cursor.slice(0, -1), `${cursor}A`, 'not-a-cursor', '']) {
          await expectRequestError(service.search({ pagination: { cursor: bad } }), 'invalid_cursor', '/pagination/cursor');
        }
        const foreign = new LocationService(store, { cursorSecret: 'another-secret-entirely-0123456789' });
        await expectRequestError(foreign.search({ pagination: { cursor } }), 'invalid_cursor', '/pagination/cursor');
      });

      test('no match is a successful empty result (R-S10)', async () => {
        const r = await service.search({ distance: { center: { latitude: -40, longitude: -140 }, max: 100_000 } });
        expect(r).toEqual({ locations: [], pagination: { has_next_page: false, total_count: 0 } });
      });
    });

    // ─────────────────────────── lookup ───────────────────────────
    describe('lookup (R-L1, R-L2, R-L3)', () => {
      test('the seed example: loc_downtown is Downtown Store with its input (R-L1)', async () => {
        const r = await service.lookup({ ids: ['loc_downtown'] });
        expect(r.locations).toHaveLength(1);
        expect(r.locations[0]).toMatchObject({ id: 'loc_downtown', name: 'Downtown Store', inputs: [{ id: 'loc_downtown' }] });
        expect(r.messages).toBeUndefined();
      });

      test('dedupes ids; a Location reached by several ids is returned once with each input, in order of first input (R-L1)', async () => {
        const r = await service.lookup({
          ids: ['loc_valley_grocers', 'downtown-store', 'loc_downtown', 'loc_downtown', 'loc_valley_grocers'],
        });
        expect(r.locations.map((l) => [l.id, l.inputs])).toEqual([
          ['loc_valley_grocers', [{ id: 'loc_valley_grocers' }]],
          ['loc_downtown', [{ id: 'downtown-store' }, { id: 'loc_downtown' }]],
        ]);
      });

      test('identifiers are exact strings (R-L1)', async () => {
        const r = await service.lookup({ ids: ['LOC_DOWNTOWN', ' loc_downtown', 'loc_downtown '] });
        expect(r.locations).toEqual([]);
        expect(r.messages?.map((m) => m.code)).toEqual(['not_found', 'not_found', 'not_found']);
      });

      test('unresolved ids get not_found messages and the request still succeeds (R-L2)', async () => {
        const r = await service.lookup({ ids: ['nope_1', 'loc_berlin', 'nope_2', 'nope_1'] });
        expect(ids(r)).toEqual(['loc_berlin']);
        expect(r.messages).toEqual([
          { type: 'info', code: 'not_found', content: expect.stringContaining('nope_1'), path: '$.ids[0]' },
          { type: 'info', code: 'not_found', content: expect.stringContaining('nope_2'), path: '$.ids[2]' },
        ]);
      });

      test('refines resolved Locations with distance, serves and filters (R-L2)', async () => {
        const all = ['loc_valley_grocers', 'loc_downtown', 'loc_online', 'loc_la_arts'];
        expect(ids(await service.lookup({ ids: all, distance: { center: GEO.laCityHall, max: 10_000 } }))).toEqual([
          'loc_valley_grocers',
          'loc_la_arts',
        ]);
        expect(ids(await service.lookup({ ids: all, filters: { items: ['sku_bread'] } }))).toEqual(['loc_valley_grocers']);
        expect(ids(await service.lookup({ ids: all, serves: { address: { address_country: 'US', postal_code: '10005' } } }))).toEqual([
          'loc_downtown',
          'loc_online',
        ]);
        expect(ids(await service.lookup({ ids: all, serves: { point: { latitude: 40.8, longitude: -73.95 } } }))).toEqual(['loc_online']);
        expect(
          ids(await service.lookup({ ids: all, filters: { amenities: [AMENITY.parking], hours: { open_at: '2026-12-01T01:45:00Z' } } })),
        ).toEqual(['loc_valley_grocers', 'loc_la_arts']);
        const r = await service.lookup({ ids: all, distance: { center: GEO.downtown, max: 1_000 } });
        expect(ids(r)).toEqual(['loc_downtown']);
        expect(r.messages?.map((m) => m.path)).toEqual(['$.ids[0]', '$.ids[2]', '$.ids[3]']);
      });

      test('an unknown item in lookup filters: item_not_found and no Locations (R-S8, R-L2)', async () => {
        const r = await service.lookup({ ids: ['loc_valley_grocers'], filters: { items: ['sku_nope'] } });
        expect(r.locations).toEqual([]);
        expect(r.messages?.map((m) => m.code)).toEqual(['item_not_found', 'not_found']);
      });

      test('batch limit: the first 50 distinct ids are processed and the message states N and the rest (R-L3)', async () => {
        const distinct = Array.from({ length: 73 }, (_, i) => `unknown_${i}`);
        distinct[0] = 'loc_downtown';
        distinct[49] = 'loc_berlin';
        distinct[50] = 'loc_valley_grocers'; // first id beyond the limit: never evaluated
        const withDuplicates = [...distinct.slice(0, 10), 'loc_downtown', 'unknown_3', ...distinct.slice(10)];
        const r = await service.lookup({ ids: withDuplicates });
        expect(ids(r)).toEqual(['loc_downtown', 'loc_berlin']);
        const batch = r.messages?.filter((m) => m.code === 'batch_limit_applied') ?? [];
        expect(batch).toEqual([
          {
            type: 'info',
            code: 'batch_limit_applied',
            content: 'Processed the first 50 of 73 distinct identifiers; 23 identifiers were not processed.',
          },
        ]);
        const notFound = r.messages?.filter((m) => m.code === 'not_found') ?? [];
        expect(notFound).toHaveLength(48);
        for (const m of notFound) {
          const n = Number(/unknown_(\d+)/.exec(m.content)?.[1]);
          expect(n).toBeLessThan(50);
        }
      });

      test('the batch limit counts distinct ids, not raw ids (R-L3)', async () => {
        const distinct = Array.from({ length: 50 }, (_, i) => (i === 0 ? 'loc_downtown' : `unknown_${i}`));
        const r = await service.lookup({ ids: [...distinct, ...distinct.slice(0, 20)] });
        expect(r.messages?.some((m) => m.code === 'batch_limit_applied')).toBe(false);
        const small = await svc({ lookupBatchMax: 10 }).lookup({ ids: Array.from({ length: 11 }, (_, i) => `id_${i}`) });
        expect(small.messages?.[0]).toEqual({
          type: 'info',
          code: 'batch_limit_applied',
          content: 'Processed the first 10 of 11 distinct identifiers; 1 identifier was not processed.',
        });
      });

      test('every returned Location has at least one input (R-L2)', async () => {
        const requests: LookupRequest[] = [
          { ids: ['loc_downtown', 'downtown-store'] },
          { ids: fixtureRecords().map((r) => r.id) },
          { ids: ['loc_berlin', 'x'], filters: { hours: { open_at: '2026-12-24T11:00:00Z' } } },
        ];
        for (const req of requests) {
          const r = await service.lookup(req);
          expect(r.locations.length).toBeGreaterThan(0);
          for (const l of r.locations) {
            expect(l.inputs.length).toBeGreaterThan(0);
            for (const i of l.inputs) expect(req.ids).toContain(i.id);
          }
        }
      });
    });

    // ─────────────────────────── writes ───────────────────────────
    describe('storedLocations (what import --dry-run compares)', () => {
      it('lists every Location sorted by id: public ones with their served document and sorted aliases, private ones bare', async () => {
        const stored = await store.storedLocations();
        const records = [...fixtureRecords()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
        expect(stored.map((s) => s.id)).toEqual(records.map((r) => r.id));
        for (const [i, r] of records.entries()) {
          const isPublic = r.visibility !== 'private';
          expect(stored[i], r.id).toEqual({
            id: r.id,
            public: isPublic,
            doc: isPublic ? JSON.stringify(toPublicLocation(r)) : null,
            aliases: isPublic ? [...new Set((r.aliases ?? []).filter((a) => a !== r.id))].sort() : [],
          });
        }
      });
    });

    describe('writes: replaceAll, applyInventory, generation', () => {
      async function fresh(): Promise<{ s: LocationStore; svc: LocationService }> {
        const s = await opts.newStore();
        await s.replaceAll(fixtureRecords());
        return { s, svc: new LocationService(s, { cursorSecret: SECRET }) };
      }

      test('replaceAll reports progress and counts', async () => {
        const s = await opts.newStore();
        try {
          const phases: string[] = [];
          const g0 = await s.generation();
          const result = await s.replaceAll(fixtureRecords(), (p) => phases.push(p.phase));
          const n = fixtureRecords().length;
          expect(result).toMatchObject({ locations: n, publicLocations: n - PRIVATE_IDS.length });
          expect(result.generation).toBeGreaterThan(g0);
          expect(result.generation).toBe(await s.generation());
          expect(phases[phases.length - 1]).toBe('done');
          const stats = await s.stats();
          expect(stats).toMatchObject({ locations: n, publicLocations: n - PRIVATE_IDS.length, generation: result.generation });
        } finally {
          await s.close();
        }
      });

      test('lastImport keeps the notes of the last committed replaceAll, not of a failed one nor an inventory update', async () => {
        const s = await opts.newStore();
        try {
          if (s.lastImport === undefined) throw new Error(`${opts.name} does not keep the last import`);
          expect(await s.lastImport()).toBeNull();
          const notes = {
            at: '2026-12-03T15:35:00.000Z',
            files: [{ file: 'stores.geojson', format: 'osm', records: 3 }],
            warnings: [
              { file: 'stores.geojson', line: 2, unit: 'feature' as const, field: 'opening_hours', message: 'dropped: a comment' },
              { file: 'stores.geojson', line: 3, field: 'amenities', message: 'unknown tag' },
            ],
            warningCount: 7,
          };
          const result = await s.replaceAll(fixtureRecords(), undefined, notes);
          expect(await s.lastImport()).toEqual({ ...notes, ...result });
          // An inventory update moves the generation on but is not an import.
          await s.applyInventory([{ line: 1, location_id: 'loc_downtown', item_id: 'sku_notes', available: true }]);
          expect(await s.lastImport()).toEqual({ ...notes, ...result });
          // A rolled-back import leaves the record of the committed one.
          await expect(
            s.replaceAll(
              [
                { id: 'dup', name: 'One' },
                { id: 'dup', name: 'Two' },
              ],
              undefined,
              { ...notes, warningCount: 0 },
            ),
          ).rejects.toThrow();
          expect(await s.lastImport()).toEqual({ ...notes, ...result });
          // An import given no notes is still recorded, with none.
          const bare = await s.replaceAll(fixtureRecords().slice(0, 2));
          expect(await s.lastImport()).toMatchObject({ ...bare, files: [], warnings: [], warningCount: 0 });
        } finally {
          await s.close();
        }
      });

      test('replaceAll is atomic: a failing source leaves the previous dataset untouched (atomic replaceAll)', async () => {
        const { s, svc: service2 } = await fresh();
        try {
          const g = await s.generation();
          const before = await allPages(service2, {}, [50]);
          const replacement = [
            { id: 'loc_new_a', name: 'New A' },
            { id: 'loc_new_b', name: 'New B' },
            { id: 'loc_new_c', name: 'New C' },
          ];
          await expect(s.replaceAll(slowly(replacement, async () => {}, 2))).rejects.toThrow();
          expect(await s.generation()).toBe(g);
          expect((await allPages(service2, {}, [50])).ids).toEqual(before.ids);
          expect(ids(await service2.lookup({ ids: ['loc_new_a'] }))).toEqual([]);
          // A rejected record (duplicate id) also leaves everything as it was.
          await expect(
            s.replaceAll([
              { id: 'dup', name: 'One' },
              { id: 'dup', name: 'Two' },
            ]),
          ).rejects.toBeInstanceOf(DataValidationError);
          expect(ids(await service2.lookup({ ids: ['loc_downtown'] }))).toEqual(['loc_downtown']);
          expect(await s.generation()).toBe(g);
        } finally {
          await s.close();
        }
      });

      test(
        'readers keep seeing the old dataset until replaceAll commits, on this and on another instance (atomic replaceAll)',
        async () => {
          const { s, svc: own } = await fresh();
          const peer = await (opts.openPeer as NonNullable<StoreContractOptions['openPeer']>)(s);
          try {
            const peerSvc = new LocationService(peer, { cursorSecret: SECRET });
            const g = await peer.generation();
            const replacement: LocationRecord[] = Array.from({ length: 20 }, (_, i) => ({
              id: `loc_new_${i}`,
              name: `New ${i}`,
              geo: GEO.berlin,
            }));
            let checked = false;
            const replaced = await s.replaceAll(
              slowly(replacement, async () => {
                for (const view of [own, peerSvc]) {
                  expect(ids(await view.lookup({ ids: ['loc_new_0', 'loc_downtown'] }))).toEqual(['loc_downtown']);
                  expect(ids(await view.search({ distance: { center: GEO.berlin, max: 1 } }))).toEqual(['loc_berlin']);
                }
                expect(await peer.generation()).toBe(g);
                checked = true;
              }),
            );
            expect(checked).toBe(true);
            await caughtUp(peer, replaced.generation);
            for (const view of [own, peerSvc]) {
              expect(ids(await view.lookup({ ids: ['loc_new_0', 'loc_downtown'] }))).toEqual(['loc_new_0']);
              expect((await view.search({ distance: { center: GEO.berlin, max: 1 } })).pagination.total_count).toBe(20);
            }
            expect(await peer.generation()).toBeGreaterThan(g);
          } finally {
            await peer.close();
            await s.close();
          }
        },
        true,
      );

      test(
        'generation changes when another instance commits a change (cache invalidation)',
        async () => {
          const { s } = await fresh();
          const peer = await (opts.openPeer as NonNullable<StoreContractOptions['openPeer']>)(s);
          try {
            const g0 = await peer.generation();
            expect(await peer.generation()).toBe(g0);
            await s.applyInventory([{ line: 1, location_id: 'loc_downtown', item_id: 'sku_new', available: true }]);
            const g1 = await peer.generation();
            expect(g1).toBeGreaterThan(g0);
            await s.replaceAll(fixtureRecords());
            const g2 = await peer.generation();
            expect(g2).toBeGreaterThan(g1);
            // And the other way round.
            await peer.applyInventory([{ line: 1, location_id: 'loc_downtown', item_id: 'sku_new', available: false }]);
            expect(await s.generation()).toBeGreaterThan(g2);
            // A service on the peer sees its own write at once, and the writer's once the change
            // reached it: at once for a store read directly, on notification for an in-memory index.
            const peerSvc = new LocationService(peer, { cursorSecret: SECRET });
            expect(ids(await peerSvc.lookup({ ids: ['loc_downtown'], filters: { items: ['sku_new'] } }))).toEqual([]);
            const batch = await s.applyInventory([{ line: 1, location_id: 'loc_downtown', item_id: 'sku_new', available: true }]);
            await caughtUp(peer, batch.generation);
            expect(ids(await peerSvc.lookup({ ids: ['loc_downtown'], filters: { items: ['sku_new'] } }))).toEqual(['loc_downtown']);
          } finally {
            await peer.close();
            await s.close();
          }
        },
        true,
      );

      test('applyInventory rejects the whole batch for an unknown location, naming line and location_id (inventory atomicity)', async () => {
        const { s, svc: service2 } = await fresh();
        try {
          const g = await s.generation();
          const err = await s
            .applyInventory(
              [
                { line: 1, location_id: 'loc_valley_grocers', item_id: 'sku_new', available: true },
                { line: 2, location_id: 'loc_nope', item_id: 'sku_new', available: true },
                { line: 3, location_id: 'loc_downtown', item_id: 'sku_milk', available: false },
              ],
              'feed.csv',
            )
            .then(
              () => null,
              (e: unknown) => e,
            );
          expect(err).toBeInstanceOf(DataValidationError);
          expect((err as DataValidationError).issues).toEqual([
            { file: 'feed.csv', line: 2, field: 'location_id', message: expect.stringContaining('loc_nope') },
          ]);
          expect(await s.generation()).toBe(g);
          const r = await service2.search({ filters: { items: ['sku_new'] } });
          expect(r.messages?.map((m) => m.code)).toEqual(['item_not_found']);
          expect(ids(await service2.lookup({ ids: ['loc_downtown'], filters: { items: ['sku_milk'] } }))).toEqual(['loc_downtown']);
        } finally {
          await s.close();
        }
      });

      test('applyInventory changes availability; known but unavailable items match nothing and are not "not found" (R-S8)', async () => {
        const { s, svc: service2 } = await fresh();
        try {
          const la = { center: GEO.laCityHall, max: 20_000 };
          const res = await s.applyInventory([{ line: 7, location_id: 'loc_valley_grocers', item_id: 'sku_bread', available: false }]);
          expect(res.applied).toBe(1);
          expect(res.generation).toBe(await s.generation());
          expect(ids(await service2.search({ distance: la, filters: { items: ['sku_bread'] } }))).toEqual(['loc_la_boyle']);
          await s.applyInventory([{ line: 1, location_id: 'loc_la_boyle', item_id: 'sku_bread', available: false }]);
          const none = await service2.search({ distance: la, filters: { items: ['sku_bread'] } });
          expect(none.locations).toEqual([]);
          expect(none.messages).toBeUndefined();
          await s.applyInventory([{ line: 1, location_id: 'loc_la_echo', item_id: 'sku_bread', available: true }]);
          expect(ids(await service2.search({ distance: la, filters: { items: ['sku_bread'] } }))).toEqual(['loc_la_echo']);
        } finally {
          await s.close();
        }
      });

      test('inventory for a private Location is accepted but never exposes it (R-S11)', async () => {
        const { s, svc: service2 } = await fresh();
        try {
          await s.applyInventory([{ line: 1, location_id: 'loc_la_private_hub', item_id: 'sku_hidden', available: true }]);
          const r = await service2.search({ filters: { items: ['sku_hidden'] } });
          expect(r.locations).toEqual([]);
          expect(r.messages?.map((m) => m.code)).toEqual(['item_not_found']);
        } finally {
          await s.close();
        }
      });
    });
  });
}
