/**
 * SQLite-specific behaviour of the store (the shared behaviour is in test/contract/): files,
 * WAL, migrations, read-only use, key allocation, plan equivalence and prefilter soundness.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureRecords } from '../../../test/contract/fixture.js';
import type { BBox } from '../../domain/location.js';
import { compileCoverage, coverageContainsPoint } from '../../domain/serves.js';
import { tokenize } from '../../domain/text.js';
import { StoreError } from '../../errors.js';
import { SCHEMA_VERSION, SqliteLocationStore } from './index.js';

const dir = mkdtempSync(join(tmpdir(), 'ucp-location-sqlite-'));
let n = 0;
const file = (): string => join(dir, `t${++n}.db`);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('SqliteLocationStore: files and schema', () => {
  it('creates a WAL database at the current schema version', async () => {
    const path = file();
    const store = await SqliteLocationStore.open(path);
    await store.close();
    const raw = new Database(path, { readonly: true });
    expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(raw.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    raw.close();
  });

  it('reopens an existing file with its data', async () => {
    const path = file();
    const a = await SqliteLocationStore.open(path);
    await a.replaceAll(fixtureRecords());
    const g = await a.generation();
    await a.close();
    const b = await SqliteLocationStore.open(path);
    expect(await b.generation()).toBe(g);
    expect((await b.resolveIds(['loc_downtown'])).has('loc_downtown')).toBe(true);
    await b.close();
  });

  it('migrates a version-1 file: the languages table appears, the data stays, the next import keeps translations (R-C3)', async () => {
    const path = file();
    const a = await SqliteLocationStore.open(path);
    await a.replaceAll(fixtureRecords());
    await a.close();
    const raw = new Database(path);
    raw.exec('DROP TABLE languages');
    raw.pragma('user_version = 1');
    raw.close();

    const b = await SqliteLocationStore.open(path);
    const key = (await b.resolveIds(['loc_berlin'])).get('loc_berlin') ?? [];
    expect(key).toHaveLength(1);
    expect(await b.getLanguages(key)).toEqual(new Map());
    await b.replaceAll(fixtureRecords());
    const fresh = (await b.resolveIds(['loc_berlin'])).get('loc_berlin') ?? [];
    expect([...(await b.getLanguages(fresh)).values()]).toEqual([expect.objectContaining({ language: 'de' })]);
    await b.close();
    const check = new Database(path, { readonly: true });
    expect(check.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    check.close();
  });

  it('refuses a file written by a newer release, saying what to do', async () => {
    const path = file();
    const raw = new Database(path);
    raw.pragma('user_version = 999');
    raw.close();
    await expect(SqliteLocationStore.open(path)).rejects.toThrow(/newer than this release supports/);
    await expect(SqliteLocationStore.open(path, { readonly: true })).rejects.toMatchObject({ code: 'schema_too_new' });
  });

  it('refuses to open an unmigrated file read-only, saying how to migrate it', async () => {
    const path = file();
    new Database(path).close();
    const opening = SqliteLocationStore.open(path, { readonly: true });
    await expect(opening).rejects.toThrow(/open it once without readonly to migrate it/);
    await expect(opening).rejects.toMatchObject({ code: 'schema_outdated' });
  });

  it('opens read-only for queries (text included) and refuses writes', async () => {
    const path = file();
    const w = await SqliteLocationStore.open(path);
    await w.replaceAll(fixtureRecords());
    await w.close();
    const r = await SqliteLocationStore.open(path, { readonly: true });
    const found = await r.findCandidates({ text: { raw: 'grocers', terms: ['grocers'] } });
    expect(found.map((c) => c.id)).toEqual(['loc_valley_grocers']);
    await expect(r.replaceAll([])).rejects.toBeInstanceOf(StoreError);
    await expect(r.applyInventory([])).rejects.toMatchObject({ code: 'read_only' });
    await r.close();
  });

  it('reports a closed store clearly', async () => {
    const s = await SqliteLocationStore.open(':memory:');
    await s.close();
    await expect(s.generation()).rejects.toThrow(/closed/);
    await expect(s.findCandidates({})).rejects.toMatchObject({ code: 'closed' });
  });
});

describe('SqliteLocationStore: keys and writes', () => {
  it('never reuses a Location key across imports', async () => {
    const s = await SqliteLocationStore.open(':memory:');
    await s.replaceAll(fixtureRecords());
    const first = new Set((await s.findCandidates({})).map((c) => c.key));
    await s.replaceAll(fixtureRecords());
    const second = (await s.findCandidates({})).map((c) => c.key);
    expect(second.length).toBe(first.size);
    for (const k of second) expect(first.has(k)).toBe(false);
    await s.close();
  });

  it('serialises concurrent writes on one instance', async () => {
    const s = await SqliteLocationStore.open(':memory:');
    const g0 = await s.generation();
    await Promise.all([
      s.replaceAll(fixtureRecords()),
      s.applyInventory([{ line: 1, location_id: 'loc_downtown', item_id: 'sku_x', available: true }]),
      s.replaceAll(fixtureRecords()),
    ]);
    expect(await s.generation()).toBe(g0 + 3);
    // The inventory row was applied between the imports, then replaced by the second import.
    expect(await s.knownItems(['sku_x'])).toEqual(new Set());
    await s.close();
  });

  it('counts and describes the dataset', async () => {
    const s = await SqliteLocationStore.open(':memory:');
    const result = await s.replaceAll(fixtureRecords());
    const stats = await s.stats();
    expect(stats.locations).toBe(result.locations);
    expect(stats.items).toBe(3);
    expect(await s.localityModel()).toEqual({ postalCountries: new Set(['US', 'DE']), regionCountries: new Set(['US']) });
    await s.close();
  });
});

describe('SqliteLocationStore: candidates', () => {
  let both: { text: SqliteLocationStore; spatial: SqliteLocationStore };
  const records = fixtureRecords();
  const publicRecords = records.filter((r) => r.visibility !== 'private');

  beforeAll(async () => {
    const path = file();
    const text = await SqliteLocationStore.open(path, { textDriverMaxEstimate: Number.MAX_SAFE_INTEGER });
    await text.replaceAll(records);
    both = { text, spatial: await SqliteLocationStore.open(path, { textDriverMaxEstimate: 0 }) };
  });
  afterAll(async () => {
    await both.text.close();
    await both.spatial.close();
  });

  it('text-driven and spatially driven plans give the same candidates and relevance', async () => {
    const regions: BBox[] = [{ minLat: 33, maxLat: 35, minLon: -119, maxLon: -117 }];
    for (const q of ['store market grocers', 'park', 'curbside pickup', 'grcery', 'coffee']) {
      const text = { raw: q, terms: tokenize(q) };
      const sort = (cs: { key: number; relevance: number }[]) =>
        cs.map((c) => [c.key, c.relevance]).sort((a, b) => (a[0] as number) - (b[0] as number));
      const a = await both.text.findCandidates({ text, regions });
      const b = await both.spatial.findCandidates({ text, regions });
      expect(sort(b), q).toEqual(sort(a));
    }
  });

  it('the geo prefilter never misses a public Location inside the boxes (R-S4)', async () => {
    const lat = fc.double({ min: -90, max: 90, noNaN: true });
    const lon = fc.double({ min: -180, max: 180, noNaN: true });
    await fc.assert(
      fc.asyncProperty(lat, lat, lon, lon, async (a, b, c, d) => {
        const box = { minLat: Math.min(a, b), maxLat: Math.max(a, b), minLon: Math.min(c, d), maxLon: Math.max(c, d) };
        const got = new Set((await both.text.findCandidates({ regions: [box] })).map((x) => x.id));
        for (const r of publicRecords) {
          const g = r.geo;
          if (g === undefined) continue;
          if (g.latitude >= box.minLat && g.latitude <= box.maxLat && g.longitude >= box.minLon && g.longitude <= box.maxLon)
            expect(got.has(r.id)).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
    // A box whose edge is exactly a Location's coordinates (float32 rounding must not lose it).
    const v = { latitude: 34.0522, longitude: -118.2437 };
    const edge = await both.text.findCandidates({ regions: [{ minLat: v.latitude, maxLat: 40, minLon: v.longitude, maxLon: -100 }] });
    expect(edge.map((x) => x.id)).toContain('loc_valley_grocers');
  });

  it('the coverage prefilter never misses a Location that serves the point (R-S5)', async () => {
    const point = fc.oneof(
      fc.record({
        latitude: fc.double({ min: 33.8, max: 34.3, noNaN: true }),
        longitude: fc.double({ min: -118.6, max: -117.9, noNaN: true }),
      }),
      fc.record({
        latitude: fc.double({ min: 40.5, max: 40.9, noNaN: true }),
        longitude: fc.double({ min: -74.1, max: -73.8, noNaN: true }),
      }),
      fc.record({
        latitude: fc.double({ min: -17, max: -16.6, noNaN: true }),
        longitude: fc.constantFrom(179.8, 179.9, 180, -180, -179.9, -179.8),
      }),
    );
    await fc.assert(
      fc.asyncProperty(point, async (p) => {
        const got = new Set((await both.text.findCandidates({ coverageProbe: p })).map((x) => x.id));
        for (const r of publicRecords) {
          const s = r.serves;
          if (s === undefined || (s.radius_m === undefined && s.areas === undefined)) continue;
          const cov = compileCoverage({
            ...(s.radius_m !== undefined ? { radius_m: s.radius_m } : {}),
            ...(s.areas !== undefined ? { areas: s.areas } : {}),
          });
          if (coverageContainsPoint(cov, r.geo ?? null, p)) expect(got.has(r.id), `${r.id} at ${JSON.stringify(p)}`).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('returns shared schedule identities: equal scheduleKey means equal schedule', async () => {
    const cs = await both.text.findCandidates({ withSchedule: true });
    const byKey = new Map<number, string | null | undefined>();
    for (const c of cs) {
      if (c.scheduleKey === undefined) {
        expect(c.schedule).toBeNull();
        continue;
      }
      if (byKey.has(c.scheduleKey)) expect(c.schedule).toBe(byKey.get(c.scheduleKey));
      byKey.set(c.scheduleKey, c.schedule);
    }
    // The LA cluster shares one schedule document.
    expect(byKey.size).toBeLessThan(cs.length);
  });

  it('a limited browse with item / amenity filters gives the same rows driven by a list or by a scan', async () => {
    const path = file();
    const a = await SqliteLocationStore.open(path, { browseDriverMax: 1_000_000 });
    await a.replaceAll(records);
    const b = await SqliteLocationStore.open(path, { browseDriverMax: 0 });
    for (const q of [
      { amenities: ['dev.ucp.amenity.parking'] },
      { items: ['sku_milk'] },
      { items: ['sku_milk', 'sku_bread'], amenities: ['dev.ucp.amenity.parking'] },
    ]) {
      for (const limit of [1, 2, 100]) {
        const ra = (await a.findCandidates({ ...q, limit })).map((c) => c.id);
        expect((await b.findCandidates({ ...q, limit })).map((c) => c.id)).toEqual(ra);
        expect(ra.length).toBeGreaterThan(0);
      }
    }
    await a.close();
    await b.close();
  });

  it('amenity filters stay exact when there are more amenities than mask bits (R-S7)', async () => {
    const s = await SqliteLocationStore.open(':memory:');
    const names = Array.from({ length: 70 }, (_, i) => `com.example.amenity.a${i}`);
    const recs = Array.from({ length: 200 }, (_, i) => ({
      id: `loc_${i}`,
      name: `Store ${i}`,
      geo: { latitude: 10 + (i % 20) * 0.01, longitude: 20 + Math.floor(i / 20) * 0.01 },
      amenities: Object.fromEntries(names.filter((_, j) => (i * 7 + j * 3) % 11 < 3).map((n) => [n, { description: n }])),
    }));
    await s.replaceAll(recs);
    const regions = [{ minLat: 0, maxLat: 50, minLon: 0, maxLon: 50 }];
    for (const wanted of [
      [names[0] as string],
      [names[53] as string],
      [names[1] as string, names[54] as string],
      [names[69] as string, names[16] as string],
    ]) {
      const expected = recs
        .filter((r) => wanted.every((w) => w in r.amenities))
        .map((r) => r.id)
        .sort();
      const got = (await s.findCandidates({ regions, amenities: wanted })).map((c) => c.id).sort();
      expect(got, wanted.join(',')).toEqual(expected);
    }
    expect(await s.findCandidates({ regions, amenities: ['com.example.amenity.unknown'] })).toEqual([]);
    await s.close();
  });

  it('orders a limited browse by relevance, then id in code-point order', async () => {
    const limited = await both.text.findCandidates({ limit: 5 });
    const all = (await both.text.findCandidates({})).map((c) => c.id).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    expect(limited.map((c) => c.id)).toEqual(all.slice(0, 5));
  });
});
