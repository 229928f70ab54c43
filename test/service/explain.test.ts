/**
 * LocationService.explain against the service's own search: for random requests over the demo
 * dataset, a Location is explained as matched exactly when the search returns it (R-S3..R-S8), and
 * exactly when every predicate's finding passes — on a plain SQLite store and on the in-memory
 * index `serve` reads from (which pins one snapshot per explanation).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocationRecord } from '../../src/domain/location.js';
import type { SearchRequest } from '../../src/domain/requests.js';
import { LocationService } from '../../src/service.js';
import { IndexedLocationStore } from '../../src/store/memory-index/index.js';
import { SqliteLocationStore } from '../../src/store/sqlite/index.js';
import type { LocationStore } from '../../src/store/store.js';
import { buildDemoStore, CONSOLE_NOW, demoRecords } from '../console/support.js';
import { useScratchDir } from '../support/scratch.js';

const scratch = useScratchDir('ucp-service-explain');
const RECORDS: LocationRecord[] = demoRecords();
const PUBLIC = RECORDS.filter((r) => r.visibility !== 'private');
const WITH_GEO = PUBLIC.filter((r) => r.geo !== undefined);
const AMENITIES = [...new Set(PUBLIC.flatMap((r) => Object.keys(r.amenities ?? {})))].sort();
const ITEMS = [...new Set(PUBLIC.flatMap((r) => r.items ?? []))].sort().slice(0, 12);
/** Every Location reachable: no page or browse cap hides a match from the comparison. */
const LIMITS = { defaultPageSize: 1000, maxPageSize: 1000, browseCap: 1000 };

const stores: Array<{ name: string; store: LocationStore }> = [];

beforeAll(async () => {
  const path = await buildDemoStore(scratch());
  stores.push({ name: 'SQLite', store: await SqliteLocationStore.open(path) });
  stores.push({ name: 'in-memory index', store: await IndexedLocationStore.open(await SqliteLocationStore.open(path)) });
});

afterAll(async () => {
  for (const { store } of stores) await store.close();
});

/**
 * A Location and a search request of up to six predicates drawn around it (its neighbourhood, its
 * own amenities and items, a word of its name), so that about as many requests keep it as not.
 */
const cases: fc.Arbitrary<{ subject: LocationRecord; request: SearchRequest }> = fc.constantFrom(...WITH_GEO).chain((subject) => {
  const geo = subject.geo!;
  const own = <T>(mine: readonly T[], others: readonly T[]): fc.Arbitrary<T[]> =>
    fc.uniqueArray(fc.constantFrom(...(mine.length > 0 ? mine : others), ...others.slice(0, 3)), { minLength: 1, maxLength: 2 });
  const words = subject.name.split(/\s+/).filter((w) => w.length > 2);
  return fc
    .record(
      {
        distance: fc.record({ dLat: fc.double({ min: -0.05, max: 0.05, noNaN: true }), max: fc.integer({ min: 0, max: 20_000 }) }),
        dLatPoint: fc.double({ min: -0.2, max: 0.2, noNaN: true }),
        openAt: fc.integer({ min: 0, max: 7 * 24 * 4 }).map((quarter) => new Date(CONSOLE_NOW + quarter * 900_000).toISOString()),
        amenities: own(Object.keys(subject.amenities ?? {}), AMENITIES),
        items: own(subject.items ?? [], [...ITEMS, 'item_id_nobody_sells']),
        query: fc.constantFrom(...words, 'bakery', 'zzxqvv', 'the'),
      },
      { requiredKeys: [] },
    )
    .map((p) => {
      const request: SearchRequest = {};
      if (p.distance !== undefined)
        request.distance = { center: { latitude: geo.latitude + p.distance.dLat, longitude: geo.longitude }, max: p.distance.max };
      if (p.dLatPoint !== undefined) request.serves = { point: { latitude: geo.latitude + p.dLatPoint, longitude: geo.longitude } };
      const filters: NonNullable<SearchRequest['filters']> = {};
      if (p.openAt !== undefined) filters.hours = { open_at: p.openAt };
      if (p.amenities !== undefined) filters.amenities = p.amenities;
      if (p.items !== undefined) filters.items = p.items;
      if (Object.keys(filters).length > 0) request.filters = filters;
      if (p.query !== undefined) request.query = p.query;
      return { subject, request };
    });
});

describe('LocationService.explain agrees with the search it explains (R-S3..R-S8)', () => {
  it('matched ⇔ the search returns the Location ⇔ every finding passes, on each store', async () => {
    const outcomes = { matched: 0, not: 0 };
    for (const { name, store } of stores) {
      const service = new LocationService(store, { cursorSecret: 'explain-test', limits: LIMITS, now: () => CONSOLE_NOW });
      await fc.assert(
        fc.asyncProperty(cases, async ({ subject, request }) => {
          const found = new Set((await service.search({ ...request, pagination: { limit: 1000 } })).locations.map((l) => l.id));
          const explanation = await service.explain(request, subject.id);
          expect(explanation.location?.id, name).toBe(subject.id);
          expect(explanation.matched, `${name}: ${JSON.stringify(request)}`).toBe(found.has(subject.id));
          expect(
            explanation.findings.every((f) => f.pass),
            `${name}: ${JSON.stringify(request)}`,
          ).toBe(explanation.matched);
          outcomes[explanation.matched ? 'matched' : 'not']++;
        }),
        { numRuns: 100 },
      );
    }
    // Both answers were exercised: the requests are drawn near the data, so some match.
    expect(outcomes.matched).toBeGreaterThan(5);
    expect(outcomes.not).toBeGreaterThan(5);
  });

  it('gives the numbers that decided: the exact distance against max, the unknown and unavailable items', async () => {
    const subject = WITH_GEO[0];
    const service = new LocationService(stores[0]!.store, { cursorSecret: 'explain-test' });
    const center = { latitude: subject!.geo!.latitude + 0.05, longitude: subject!.geo!.longitude };
    const near = await service.explain({ distance: { center, max: 500_000 } }, subject!.id);
    const finding = near.findings[0];
    expect(finding?.predicate).toBe('distance');
    if (finding?.predicate !== 'distance') return;
    expect(near.matched).toBe(true);
    expect(finding.maxMeters).toBe(500_000);
    expect(finding.distanceMeters).toBeGreaterThan(0);
    const far = await service.explain({ distance: { center, max: Math.floor(finding.distanceMeters! - 1) } }, subject!.id);
    expect(far).toMatchObject({
      matched: false,
      findings: [{ predicate: 'distance', pass: false, distanceMeters: finding.distanceMeters }],
    });
    const items = await service.explain({ filters: { items: ['item_id_nobody_sells'] } }, subject!.id);
    expect(items).toMatchObject({ matched: false, findings: [{ predicate: 'items', pass: false, unknown: ['item_id_nobody_sells'] }] });
  });

  it('names no Location for an unknown or private id, and refuses what search refuses', async () => {
    const service = new LocationService(stores[0]!.store, { cursorSecret: 'explain-test' });
    const hidden = RECORDS.find((r) => r.visibility === 'private');
    expect(await service.explain({}, hidden!.id)).toEqual({ asked: hidden!.id, location: null, matched: false, findings: [] });
    await expect(
      service.explain({ distance: { center: { latitude: 0, longitude: 0 }, max: 10_000_000 } }, PUBLIC[0]!.id),
    ).rejects.toMatchObject({ code: 'radius_too_large' });
  });
});
