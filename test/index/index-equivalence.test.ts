/**
 * The in-memory index answers exactly as the store it indexes: over random datasets and random
 * requests using every operand (text, distance, serves point / address, amenities, items, open_at,
 * context, paging, lookup), the engine over the index and the engine over the store give the
 * same pages. Over SQLite the text relevance is the same number (FTS5 bm25) and so the same order;
 * over PostgreSQL (which ranks text with ts_rank) the same Locations match, and requests without
 * text give identical pages.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocationService } from '../../src/service.js';
import { IndexedLocationStore } from '../../src/store/memory-index/index.js';
import { PostgresLocationStore } from '../../src/store/postgres/index.js';
import { SqliteLocationStore } from '../../src/store/sqlite/index.js';
import type { LocationStore } from '../../src/store/store.js';
import { tokenize } from '../../src/domain/text.js';
import { createTestDatabase, withSchema, type TestDatabase } from '../scale/support/pg.js';
import { describeWith } from '../support/services.js';
import { dataset, lookupRequest, QUERY_WORDS, searchRequest, walk, walkSet } from './support.js';

const SECRET = 'index-equivalence';

/** The result, or the error it failed with (both sides must fail alike). */
async function settle<T>(p: Promise<T>): Promise<T | string> {
  try {
    return await p;
  } catch (error) {
    return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  }
}

async function compare(raw: LocationStore, textOrderToo: boolean, seed: number, runs: number): Promise<void> {
  await fc.assert(
    fc.asyncProperty(dataset, fc.array(searchRequest, { minLength: 8, maxLength: 8 }), lookupRequest, async (records, searches, lookup) => {
      const indexed = await IndexedLocationStore.open(raw, { closeSource: false });
      await indexed.replaceAll(records);
      const viaStore = new LocationService(raw, { cursorSecret: SECRET });
      const viaIndex = new LocationService(indexed, { cursorSecret: SECRET });
      for (const request of searches) {
        const expected = await walk(viaStore, request);
        const actual = await walk(viaIndex, request);
        if (textOrderToo || request.query === undefined) expect(actual, JSON.stringify(request)).toEqual(expected);
        else expect(walkSet(actual), JSON.stringify(request)).toEqual(walkSet(expected));
      }
      expect(await settle(viaIndex.lookup(lookup))).toEqual(await settle(viaStore.lookup(lookup)));
      await indexed.close();
    }),
    { seed, numRuns: runs },
  );
}

describe('memory index ≡ SQLite store', () => {
  let raw: SqliteLocationStore;
  beforeAll(async () => {
    raw = await SqliteLocationStore.open(':memory:');
  });
  afterAll(async () => {
    await raw.close();
  });

  it('gives the same pages for every operand kind, text order included (R-S1, R-S4, R-S5, R-S6, R-S9)', async () => {
    await compare(raw, true, 16_016, 60);
  }, 120_000);

  it('scores text with the same relevance as FTS5 bm25, fuzzy and prefix phrases included', async () => {
    await fc.assert(
      fc.asyncProperty(dataset, fc.array(fc.constantFrom(...QUERY_WORDS), { minLength: 1, maxLength: 4 }), async (records, words) => {
        const indexed = await IndexedLocationStore.open(raw, { closeSource: false });
        await indexed.replaceAll(records);
        await indexed.close();
        const terms = tokenize(words.join(' '));
        const text = { raw: words.join(' '), terms };
        const byId = (list: { id: string; relevance: number }[]): [string, number][] =>
          list.map((c): [string, number] => [c.id, c.relevance]).sort(([a], [b]) => (a < b ? -1 : 1));
        const expected = byId(await raw.findCandidates({ text }));
        const actual = byId(await indexed.findCandidates({ text }));
        expect(actual.map(([id]) => id)).toEqual(expected.map(([id]) => id));
        actual.forEach(([, r], i) => {
          const e = (expected[i] as [string, number])[1];
          // Same formula in the same order; only libm's last bit may differ.
          expect(Math.abs(r - e)).toBeLessThanOrEqual(Math.abs(e) * 1e-12);
        });
      }),
      { seed: 16, numRuns: 80 },
    );
  });
});

let db: TestDatabase | undefined;

describeWith(['postgis'], 'memory index ≡ PostgreSQL store', () => {
  let raw: PostgresLocationStore;
  beforeAll(async () => {
    db = await createTestDatabase('ucp_index_eq');
    raw = await PostgresLocationStore.open(withSchema(db.url, 'eq'), { migrate: true, poolMax: 4 });
  });
  afterAll(async () => {
    await raw?.close();
    await db?.drop();
  });

  it('gives the same pages for every operand kind; with text, the same Locations (R-S1, R-S4, R-S5, R-S6, R-S9)', async () => {
    await compare(raw, false, 16_017, 15);
  }, 300_000);
});

describeWith(['postgis'], 'text matching is the same on both stores and the index', () => {
  it('a token reaches words sharing its stem as a prefix ("running" finds "Runner Supply", as FTS5 does) (R-S1)', async () => {
    const pgDb = await createTestDatabase('ucp_index_stem');
    const stores: LocationStore[] = [
      await SqliteLocationStore.open(':memory:'),
      await PostgresLocationStore.open(withSchema(pgDb.url, 's'), { migrate: true, poolMax: 2 }),
    ];
    try {
      const records = [
        { id: 'a', name: 'Runner Supply' },
        { id: 'b', name: 'Running Shoes' },
        { id: 'c', name: 'Corner Groceries' },
      ];
      for (const s of stores) await s.replaceAll(records);
      stores.push(await IndexedLocationStore.open(stores[0] as LocationStore, { closeSource: false }));
      for (const q of ['running', 'runs', 'groceries']) {
        const text = { raw: q, terms: tokenize(q) };
        const sets = await Promise.all(stores.map(async (s) => (await s.findCandidates({ text })).map((c) => c.id).sort()));
        expect(sets[1], `${q}: postgres vs sqlite`).toEqual(sets[0]);
        expect(sets[2], `${q}: index vs sqlite`).toEqual(sets[0]);
      }
      expect(
        (await (stores[0] as LocationStore).findCandidates({ text: { raw: 'running', terms: ['running'] } })).map((c) => c.id).sort(),
      ).toEqual(['a', 'b']);
    } finally {
      for (const s of stores.slice(0, 2)) await s.close();
      await pgDb.drop();
    }
  }, 60_000);
});
