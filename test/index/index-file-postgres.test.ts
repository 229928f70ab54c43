/**
 * Two store instances over one PostgreSQL store (#30): the index file lives in the store's own
 * schema (one row per generation, chunked bytea). An import through one instance builds the index
 * once and publishes it; the other loads it on the generation's NOTIFY — no rebuild, as its log
 * line says — and answers the new dataset exactly as the importer does.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import pg from 'pg';
import { indexFileHomeFor } from '../../src/server.js';
import { IndexedLocationStore, logIndexFileEvent, type IndexFileLogger } from '../../src/store/memory-index/index.js';
import { PostgresLocationStore } from '../../src/store/postgres/index.js';
import type { Candidate, CandidateQuery } from '../../src/store/store.js';
import { fixtureRecords } from '../contract/fixture.js';
import { createTestDatabase, withSchema, type TestDatabase } from '../scale/support/pg.js';
import { describeWith } from '../support/services.js';

/** Log lines as the server writes them (same function), kept for the assertions. */
function captureLog(): { logger: IndexFileLogger; lines: { level: string; message: string; fields: object }[] } {
  const lines: { level: string; message: string; fields: object }[] = [];
  return {
    lines,
    logger: {
      info: (fields, message) => lines.push({ level: 'info', message, fields }),
      warn: (fields, message) => lines.push({ level: 'warn', message, fields }),
    },
  };
}

async function openInstance(url: string, migrate: boolean): Promise<{ store: IndexedLocationStore; log: ReturnType<typeof captureLog> }> {
  const log = captureLog();
  const inner = await PostgresLocationStore.open(url, { migrate, poolMax: 2 });
  const store = await IndexedLocationStore.open(inner, {
    indexFiles: await indexFileHomeFor(inner),
    onIndexFile: (event) => logIndexFileEvent(log.logger, event),
    onError: (error) => log.logger.warn({ error }, 'rebuild failed'),
  });
  return { store, log };
}

/** Schedule keys are unique per index in a process (the engine compiles per key): compare what they name. */
function withoutKeys(list: Candidate[]): Omit<Candidate, 'scheduleKey' | 'coverageKey'>[] {
  return list.map(({ scheduleKey: _s, coverageKey: _c, ...rest }) => rest);
}

const QUERIES: CandidateQuery[] = [
  {},
  { text: { raw: 'grocers', terms: ['grocers'] } },
  { regions: [{ minLat: 33.9, maxLat: 34.2, minLon: -118.5, maxLon: -118.1 }], withSchedule: true },
  { items: ['sku_milk'] },
  { amenities: ['dev.ucp.amenity.parking'], limit: 3 },
];

describeWith(['postgis'], 'index files over PostgreSQL: written by the importing instance, loaded by the others', () => {
  let db: TestDatabase;
  let url: string;
  beforeAll(async () => {
    db = await createTestDatabase('ucp_idxfile');
    url = withSchema(db.url, 'idx_files');
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('an import through one instance is answered by the other from the published file, without a rebuild', async () => {
    const a = await openInstance(url, true);
    const first = fixtureRecords();
    await a.store.replaceAll(first);
    const b = await openInstance(url, false);
    try {
      // B started after the first import: it loaded the file A wrote.
      expect(b.log.lines.map((l) => l.message)).toEqual(['in-memory index loaded from its index file']);

      const next = first.slice(4).map((r) => ({ ...r, name: `${r.name} Renewed` }));
      const result = await a.store.replaceAll(next);
      expect(a.log.lines.at(-1)).toMatchObject({
        message: 'in-memory index built from the store because this instance imported the dataset',
        fields: { indexFileWritten: true },
      });
      await b.store.caughtUp(result.generation);

      // Exactly one more line on B, and it is a load: B never built this dataset.
      expect(b.log.lines.map((l) => l.message)).toEqual([
        'in-memory index loaded from its index file',
        'in-memory index loaded from its index file',
      ]);
      expect(b.log.lines[1]?.fields).toMatchObject({ generation: result.generation, from: expect.stringContaining('idx_files') });
      for (const q of QUERIES)
        expect(withoutKeys(await b.store.findCandidates(q)), JSON.stringify(q)).toEqual(withoutKeys(await a.store.findCandidates(q)));
      expect((await b.store.findCandidates({})).map((c) => c.id).sort()).toEqual(
        next
          .filter((r) => r.visibility !== 'private')
          .map((r) => r.id)
          .sort(),
      );

      // One row per generation, in chunks: only the newest is kept.
      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      try {
        const files = await client.query<{ generation: string; chunks: number }>(
          'SELECT generation::text, chunks FROM idx_files.index_files',
        );
        expect(files.rows).toEqual([{ generation: String(result.generation), chunks: expect.any(Number) }]);
        const chunks = await client.query<{ n: string }>('SELECT count(*)::text AS n FROM idx_files.index_file_chunks');
        expect(Number(chunks.rows[0]?.n)).toBe(files.rows[0]?.chunks);
      } finally {
        await client.end();
      }
    } finally {
      await a.store.close();
      await b.store.close();
    }
  }, 120_000);
});
