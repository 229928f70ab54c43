/**
 * Generations of the in-memory index: a request, and a cursor walk, read one generation only,
 * however the dataset is replaced meanwhile; an inventory batch is visible to the next request
 * once it commits — on this instance at once, on another one sharing the store once the change
 * reaches it (SQLite: its next request reads the counter; PostgreSQL: the notification, which
 * `caughtUp` waits for) — with no rebuild and no waiting for a clock.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { LocationRecord } from '../../src/domain/location.js';
import type { SearchRequest, SearchResult } from '../../src/domain/requests.js';
import { LocationService } from '../../src/service.js';
import { IndexedLocationStore } from '../../src/store/memory-index/index.js';
import { PostgresLocationStore } from '../../src/store/postgres/index.js';
import { SqliteLocationStore } from '../../src/store/sqlite/index.js';
import type { LocationStore } from '../../src/store/store.js';
import { createTestDatabase, withSchema } from '../scale/support/pg.js';
import { describeWith } from '../support/services.js';

const SECRET = 'generation-swap-secret';
const SIZE = 23;

/** A dataset whose every id starts with `prefix`, all near one point, all matching "market". */
function generation(prefix: string): LocationRecord[] {
  return Array.from({ length: SIZE }, (_, i) => ({
    id: `${prefix}_${String(i).padStart(2, '0')}`,
    name: `Corner Market ${i}`,
    geo: { latitude: 34.05 + i * 0.001, longitude: -118.25 },
    items: i % 2 === 0 ? ['sku-even'] : ['sku-odd'],
  }));
}

const dir = mkdtempSync(join(tmpdir(), 'ucp-index-swap-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const REQUESTS: SearchRequest[] = [
  { query: 'market', pagination: { limit: 4 } },
  { distance: { center: { latitude: 34.05, longitude: -118.25 }, max: 50_000 }, pagination: { limit: 5 } },
  { filters: { items: ['sku-even'] }, pagination: { limit: 3 } },
];

/** Every page of a walk; `between` runs after each page (e.g. a swap). */
async function walk(service: LocationService, request: SearchRequest, between?: () => Promise<void>): Promise<SearchResult[]> {
  const pages: SearchResult[] = [];
  let req = request;
  for (;;) {
    const page = await service.search(req);
    pages.push(page);
    const cursor = page.pagination.cursor;
    if (cursor === undefined) return pages;
    await between?.();
    req = { ...request, pagination: { ...request.pagination, cursor } };
  }
}

/** The one generation prefix a walk read, checking that its pages are whole and consistent. */
function generationOf(pages: SearchResult[]): string {
  const ids = pages.flatMap((p) => p.locations.map((l) => l.id));
  const prefixes = new Set(ids.map((id) => id.split('_')[0]));
  expect([...prefixes], ids.join(' ')).toHaveLength(1);
  expect(new Set(ids).size).toBe(ids.length);
  // Whole pages: a key read from one generation and a document from another would leave holes.
  for (const p of pages)
    expect(p.locations.length).toBe(p.pagination.has_next_page ? (pages[0]?.locations.length ?? 0) : p.locations.length);
  expect(ids.length).toBe(pages[0]?.pagination.total_count);
  return [...prefixes][0] as string;
}

describe('memory index generations (SQLite)', () => {
  it('a cursor walk finishes on the generation it started on, though the dataset is replaced between its pages', async () => {
    const store = await IndexedLocationStore.open(await SqliteLocationStore.open(join(dir, 'walk.db')), { maxRetained: 8 });
    try {
      await store.replaceAll(generation('a'));
      const service = new LocationService(store, { cursorSecret: SECRET });
      let n = 0;
      const pages = await walk(service, REQUESTS[0] as SearchRequest, async () => {
        await store.replaceAll(generation(++n % 2 === 1 ? 'b' : 'c'));
      });
      expect(pages.length).toBeGreaterThan(2);
      expect(generationOf(pages)).toBe('a');
      // A new walk reads the newest generation.
      expect(generationOf(await walk(service, REQUESTS[0] as SearchRequest))).toBe(n % 2 === 1 ? 'b' : 'c');
    } finally {
      await store.close();
    }
  });

  it('a dataset swapped in the middle of a request does not reach that request: it reads one index throughout', async () => {
    const store = await IndexedLocationStore.open(await SqliteLocationStore.open(join(dir, 'mid.db')));
    try {
      await store.replaceAll(generation('a'));
      let swapped = false;
      // The engine's view of the store, with a replaceAll committed and indexed right after the
      // request read its candidates and before it reads their documents.
      const hooked = new Proxy(store, {
        get(target, prop, receiver) {
          if (prop !== 'pin') return Reflect.get(target, prop, receiver) as unknown;
          return async (snapshot?: number) => {
            const pinned = await target.pin(snapshot);
            const view = pinned.store;
            const findCandidates: LocationStore['findCandidates'] = async (q) => {
              const rows = await view.findCandidates(q);
              if (!swapped) {
                swapped = true;
                await target.replaceAll(generation('b'));
              }
              return rows;
            };
            return { ...pinned, store: Object.assign(Object.create(view) as LocationStore, { findCandidates }) };
          };
        },
      });
      const service = new LocationService(hooked, { cursorSecret: SECRET });
      const page = await service.search({ query: 'market', pagination: { limit: 5 } });
      expect(swapped).toBe(true);
      expect(page.locations.map((l) => l.id)).toEqual(['a_00', 'a_01', 'a_02', 'a_03', 'a_04']);
      expect(page.locations).toHaveLength(5);
      expect(page.pagination.total_count).toBe(SIZE);
      expect(generationOf(await walk(service, { query: 'market', pagination: { limit: 5 } }))).toBe('b');
    } finally {
      await store.close();
    }
  });

  it('a cursor whose dataset is no longer held is refused with invalid_cursor, never continued on other data (R-S9)', async () => {
    const store = await IndexedLocationStore.open(await SqliteLocationStore.open(join(dir, 'refused.db')), { maxRetained: 1 });
    try {
      await store.replaceAll(generation('a'));
      const service = new LocationService(store, { cursorSecret: SECRET });
      const request = REQUESTS[0] as SearchRequest;
      const first = await service.search(request);
      await store.replaceAll(generation('b'));
      await store.replaceAll(generation('c'));
      await expect(
        service.search({ ...request, pagination: { ...request.pagination, cursor: first.pagination.cursor as string } }),
      ).rejects.toMatchObject({
        code: 'invalid_cursor',
      });
    } finally {
      await store.close();
    }
  });

  it('under load, no request and no walk ever mixes generations while datasets are swapped', async () => {
    const store = await IndexedLocationStore.open(await SqliteLocationStore.open(join(dir, 'load.db')));
    try {
      await store.replaceAll(generation('a'));
      const service = new LocationService(store, { cursorSecret: SECRET });
      let swapping = true;
      const seen = new Set<string>();
      const reader = async (r: SearchRequest): Promise<number> => {
        let walks = 0;
        while (swapping || walks === 0) {
          seen.add(generationOf(await walk(service, r)));
          walks++;
          // Let the swapping loop run between walks (the index answers without any I/O).
          await new Promise((resolve) => setImmediate(resolve));
        }
        return walks;
      };
      const readers = [...REQUESTS, ...REQUESTS].map((r) => reader(r));
      for (let i = 0; i < 8; i++) {
        await store.replaceAll(generation(i % 2 === 0 ? 'b' : 'a'));
        await new Promise((resolve) => setImmediate(resolve));
      }
      swapping = false;
      const walks = await Promise.all(readers);
      expect(walks.every((w) => w > 0)).toBe(true);
      // The readers really did run across swaps.
      expect([...seen].sort()).toEqual(['a', 'b']);
    } finally {
      await store.close();
    }
  });

  it('an inventory batch is visible to the next request once it commits: in place here, reloaded on another instance (R-S8)', async () => {
    const path = join(dir, 'inventory.db');
    const writer = await IndexedLocationStore.open(await SqliteLocationStore.open(path));
    const reader = await IndexedLocationStore.open(await SqliteLocationStore.open(path));
    try {
      await writer.replaceAll(generation('a'));
      const onWriter = new LocationService(writer, { cursorSecret: SECRET });
      const onReader = new LocationService(reader, { cursorSecret: SECRET });
      const kombucha = { filters: { items: ['sku-kombucha'] }, pagination: { limit: 50 } };
      const ids = async (s: LocationService): Promise<string[]> => (await s.search(kombucha)).locations.map((l) => l.id);
      const datasetIndex = writer.index;
      const readerIndexBefore = reader.index;
      await reader.generation();
      const readerIndex = reader.index;
      expect(readerIndex).not.toBe(readerIndexBefore);

      await writer.applyInventory([{ line: 1, location_id: 'a_03', item_id: 'sku-kombucha', available: true }]);
      expect(await ids(onWriter)).toEqual(['a_03']);
      expect(await ids(onReader)).toEqual(['a_03']);
      await writer.applyInventory([
        { line: 1, location_id: 'a_03', item_id: 'sku-kombucha', available: false },
        { line: 2, location_id: 'a_07', item_id: 'sku-kombucha', available: true },
      ]);
      expect(await ids(onWriter)).toEqual(['a_07']);
      expect(await ids(onReader)).toEqual(['a_07']);
      // No rebuild: the same index objects answered throughout.
      expect(writer.index).toBe(datasetIndex);
      expect(reader.index).toBe(readerIndex);
    } finally {
      await reader.close();
      await writer.close();
    }
  });
});

describeWith(['postgis'], 'memory index generations (PostgreSQL)', () => {
  it('another instance follows a replaced dataset and an inventory batch once notified (R-S8, atomic replaceAll)', async () => {
    const db = await createTestDatabase('ucp_index_swap');
    const url = withSchema(db.url, 's');
    const stores: LocationStore[] = [];
    try {
      const writer = await IndexedLocationStore.open(await PostgresLocationStore.open(url, { migrate: true, poolMax: 2 }));
      stores.push(writer);
      const reader = await IndexedLocationStore.open(await PostgresLocationStore.open(url, { poolMax: 2 }));
      stores.push(reader);
      const onReader = new LocationService(reader, { cursorSecret: SECRET });
      await reader.caughtUp((await writer.replaceAll(generation('a'))).generation);
      expect(generationOf(await walk(onReader, REQUESTS[1] as SearchRequest))).toBe('a');
      // A walk begun on 'a' finishes on 'a' although another instance replaces the dataset.
      let replaced = 0;
      const pages = await walk(onReader, REQUESTS[1] as SearchRequest, async () => {
        if (replaced === 0) replaced = (await writer.replaceAll(generation('b'))).generation;
        await reader.caughtUp(replaced);
      });
      expect(generationOf(pages)).toBe('a');
      expect(generationOf(await walk(onReader, REQUESTS[1] as SearchRequest))).toBe('b');
      const batch = await writer.applyInventory([{ line: 1, location_id: 'b_05', item_id: 'sku-pg', available: true }]);
      await reader.caughtUp(batch.generation);
      expect((await onReader.search({ filters: { items: ['sku-pg'] } })).locations.map((l) => l.id)).toEqual(['b_05']);
    } finally {
      for (const s of stores) await s.close();
      await db.drop();
    }
  }, 60_000);

  it('while its listener is live, a request asks PostgreSQL nothing; while it is down, each request reads the generation', async () => {
    const db = await createTestDatabase('ucp_index_quiet');
    const url = withSchema(db.url, 's');
    const stores: LocationStore[] = [];
    const queries = vi.spyOn(pg.Pool.prototype, 'query');
    const connects = vi.spyOn(pg.Pool.prototype, 'connect');
    try {
      const writer = await IndexedLocationStore.open(await PostgresLocationStore.open(url, { migrate: true, poolMax: 2 }));
      stores.push(writer);
      const inner = await PostgresLocationStore.open(url, { poolMax: 2, applicationName: 'ucp-index-quiet-reader' });
      const reader = await IndexedLocationStore.open(inner);
      stores.push(reader);
      const onReader = new LocationService(reader, { cursorSecret: SECRET });
      const onWriter = new LocationService(writer, { cursorSecret: SECRET });
      await reader.caughtUp((await writer.replaceAll(generation('a'))).generation);
      const requests = async (service: LocationService): Promise<void> => {
        for (const r of REQUESTS) await walk(service, r);
        await service.search({
          query: 'markt fresh',
          filters: { hours: { open_at: '2026-07-14T18:00:00Z' }, amenities: ['dev.ucp.amenity.parking'] },
        });
        await service.lookup({ ids: ['a_01', 'a_02', 'nope'], filters: { items: ['sku-even'] } });
      };
      await requests(onReader); // warm the service's per-generation caches
      expect(inner.listening).toBe(true);
      queries.mockClear();
      connects.mockClear();
      await requests(onReader);
      // Read-your-writes on the writer, with no counter read either.
      const own = await writer.applyInventory([{ line: 1, location_id: 'a_04', item_id: 'sku-own', available: true }]);
      queries.mockClear();
      expect((await onWriter.search({ filters: { items: ['sku-own'] } })).locations.map((l) => l.id)).toEqual(['a_04']);
      expect(queries).not.toHaveBeenCalled();
      await reader.caughtUp(own.generation);
      queries.mockClear();
      connects.mockClear();
      await requests(onReader);
      expect(queries).not.toHaveBeenCalled();
      expect(connects).not.toHaveBeenCalled();

      // The reader's listener connection dies: until it is back, every request reads the counter,
      // so another instance's batch is visible at the reader's very next request.
      const admin = new pg.Client({ connectionString: db.url });
      await admin.connect();
      try {
        // Its pooled connections go too (a read retries once on a fresh connection).
        await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1', ['ucp-index-quiet-reader']);
      } finally {
        await admin.end();
      }
      while (inner.listening) await new Promise((r) => setImmediate(r));
      expect(inner.changeFeed.notifiedGeneration()).toBeNull();
      await writer.applyInventory([{ line: 1, location_id: 'a_06', item_id: 'sku-down', available: true }]);
      queries.mockClear();
      expect((await onReader.search({ filters: { items: ['sku-down'] } })).locations.map((l) => l.id)).toEqual(['a_06']);
      // (Unless the listener came back meanwhile: it re-reads the counters before it is trusted.)
      if (!inner.listening) expect(queries).toHaveBeenCalled();
    } finally {
      queries.mockRestore();
      connects.mockRestore();
      for (const s of stores) await s.close();
      await db.drop();
    }
  }, 60_000);
});
