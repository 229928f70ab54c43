/**
 * `exportIndex` / `exportAvailability` on PostgreSQL: the searchable data of one committed
 * snapshot, table by table, for an in-memory index (store/memory-index/).
 */
import type { ExportCounters, IndexLocationRow, IndexSink } from '../store.js';
import { COUNTERS_SQL, countersOf } from './change-feed.js';
import type { PgReadPath, SnapshotQuery } from './read-path.js';

async function snapshotCounters(query: SnapshotQuery): Promise<ExportCounters> {
  return countersOf(await query<{ name: string; value: number }>(COUNTERS_SQL));
}

async function availabilityRows(query: SnapshotQuery, sink: Pick<IndexSink, 'availability'>): Promise<void> {
  const rows = await query<{ item: string; key: number; available: boolean }>(
    'SELECT a.item, a.key, a.available FROM availability a JOIN locations l ON l.key = a.key WHERE l.public',
  );
  for (const r of rows) sink.availability(Number(r.key), r.item, r.available);
}

export function exportIndex(path: PgReadPath, sink: IndexSink): Promise<ExportCounters> {
  return path.snapshotRead('index export', async (query) => {
    const counters = await snapshotCounters(query);
    const locations = await query<IndexLocationRow>(
      'SELECT l.key, l.id, l.lat, l.lon, d.doc, l.schedule, l.coverage FROM locations l JOIN docs d ON d.key = l.key WHERE l.public',
    );
    for (const r of locations) {
      sink.location({ key: Number(r.key), id: r.id, lat: r.lat, lon: r.lon, doc: r.doc, schedule: r.schedule, coverage: r.coverage });
    }
    for (const r of await query<{ alias: string; key: number }>('SELECT alias, key FROM aliases')) sink.alias(r.alias, Number(r.key));
    for (const r of await query<{ amenity: string; key: number }>('SELECT amenity, key FROM amenities'))
      sink.amenity(r.amenity, Number(r.key));
    for (const r of await query<{ country: string; key: number }>('SELECT country, key FROM cov_country')) {
      sink.locality('country', r.country, null, Number(r.key));
    }
    for (const r of await query<{ country: string; region: string; key: number }>('SELECT country, region, key FROM cov_region')) {
      sink.locality('region', r.country, r.region, Number(r.key));
    }
    for (const r of await query<{ country: string; postal: string; key: number }>('SELECT country, postal, key FROM cov_postal')) {
      sink.locality('postal', r.country, r.postal, Number(r.key));
    }
    // Keywords are weight B in the text vector (text-search.ts COLUMN_WEIGHTS) and nowhere else.
    const keywords = await query<{ key: number; lexeme: string; n: number }>(
      `SELECT l.key, u.lexeme, (SELECT count(*) FROM unnest(u.weights) w WHERE w = 'B')::int AS n
         FROM locations l, unnest(l.tsv) u WHERE l.public AND 'B' = ANY(u.weights)`,
    );
    for (const r of keywords) sink.keywordTerm(Number(r.key), r.lexeme, r.n);
    for (const r of await query<{ key: number; json: string }>('SELECT key, json FROM languages')) sink.languages(Number(r.key), r.json);
    await availabilityRows(query, sink);
    return counters;
  });
}

export function exportAvailability(path: PgReadPath, sink: Pick<IndexSink, 'availability'>): Promise<ExportCounters> {
  return path.snapshotRead('availability export', async (query) => {
    const counters = await snapshotCounters(query);
    await availabilityRows(query, sink);
    return counters;
  });
}
