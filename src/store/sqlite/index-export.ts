/**
 * `exportIndex` / `exportAvailability` on SQLite: the searchable data of one committed snapshot
 * (one read transaction), table by table, for an in-memory index (store/memory-index/).
 */
import type { ExportCounters, IndexSink } from '../store.js';
import { READER_MMAP_BYTES, type ReadConnection } from './read-connection.js';

function availabilityRows(conn: ReadConnection, sink: Pick<IndexSink, 'availability'>): void {
  const rows = conn
    .stmt<[], [item: string, key: number, available: number]>(
      'SELECT k.item, a.key, a.available FROM availability a CROSS JOIN item_keys k ON k.iid = a.iid ' +
        'CROSS JOIN locations l ON l.key = a.key WHERE l.public = 1',
    )
    .raw(true);
  for (const [item, key, available] of rows.iterate()) sink.availability(key, item, available === 1);
}

function snapshot(conn: ReadConnection, sink: IndexSink): ExportCounters {
  // One read transaction: every table comes from the same committed dataset.
  return conn.db.transaction((): ExportCounters => {
    const counters = conn.counters();
    const locations = conn
      .stmt<
        [],
        [key: number, id: string, lat: number | null, lon: number | null, doc: string, schedule: string | null, coverage: string | null]
      >(
        'SELECT l.key, l.id, l.lat, l.lon, d.doc, s.json, c.json FROM locations l CROSS JOIN docs d ON d.key = l.key ' +
          'LEFT JOIN schedules s ON s.sid = l.sid LEFT JOIN coverages c ON c.cid = l.cid WHERE l.public = 1',
      )
      .raw(true);
    for (const [key, id, lat, lon, doc, schedule, coverage] of locations.iterate()) {
      sink.location({ key, id, lat, lon, doc, schedule, coverage });
    }
    for (const [alias, key] of conn.stmt<[], [string, number]>('SELECT alias, key FROM aliases').raw(true).iterate()) {
      sink.alias(alias, key);
    }
    const amenities = conn.stmt<[], [string, number]>(
      'SELECT k.amenity, a.key FROM amenities a CROSS JOIN amenity_keys k ON k.aid = a.aid',
    );
    for (const [amenity, key] of amenities.raw(true).iterate()) sink.amenity(amenity, key);
    for (const [country, key] of conn.stmt<[], [string, number]>('SELECT country, key FROM cov_country').raw(true).iterate()) {
      sink.locality('country', country, null, key);
    }
    const regions = conn.stmt<[], [string, string, number]>('SELECT country, region, key FROM cov_region').raw(true);
    for (const [country, region, key] of regions.iterate()) sink.locality('region', country, region, key);
    const postal = conn.stmt<[], [string, string, number]>('SELECT country, postal, key FROM cov_postal').raw(true);
    for (const [country, code, key] of postal.iterate()) sink.locality('postal', country, code, key);
    const keywords = conn
      .stmt<[], [key: number, term: string, count: number]>(
        "SELECT doc, term, count(*) FROM temp.fts_instances WHERE col = 'keywords' GROUP BY doc, term",
      )
      .raw(true);
    for (const [key, term, count] of keywords.iterate()) sink.keywordTerm(key, term, count);
    for (const [key, json] of conn.stmt<[], [number, string]>('SELECT key, json FROM languages').raw(true).iterate()) {
      sink.languages(key, json);
    }
    availabilityRows(conn, sink);
    return counters;
  })();
}

export function exportIndex(conn: ReadConnection, sink: IndexSink): ExportCounters {
  conn.refresh();
  conn.db.exec("CREATE VIRTUAL TABLE IF NOT EXISTS temp.fts_instances USING fts5vocab(main, fts, 'instance')");
  // An export reads every page once: through the memory map they would all stay mapped into
  // this process (a 1M store: ~1 GiB more RSS, on top of the index being built), through the
  // page cache they pass. The map is back for the store's own queries afterwards.
  conn.db.pragma('mmap_size = 0');
  try {
    return snapshot(conn, sink);
  } finally {
    conn.db.pragma(`mmap_size = ${READER_MMAP_BYTES}`);
  }
}

export function exportAvailability(conn: ReadConnection, sink: Pick<IndexSink, 'availability'>): ExportCounters {
  conn.refresh();
  return conn.db.transaction((): ExportCounters => {
    const counters = conn.counters();
    availabilityRows(conn, sink);
    return counters;
  })();
}
