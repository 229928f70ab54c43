/**
 * The read half of the SQLite store's port other than candidates: documents, ids, items, the
 * locality model, counters, statistics and the last import's record.
 */
import type { Location, RecordLanguages } from '../../domain/location.js';
import { documentsInKeyOrder, languagesByKey, storedLocationsOf } from '../documents.js';
import { parseImportRecord } from '../import-notes.js';
import type { LastImportRecord, StoredLocation, StoreStats } from '../store.js';
import { one, type ReadConnection } from './read-connection.js';

type LocalityModel = { postalCountries: Set<string>; regionCountries: Set<string> };

export class SqliteReads {
  /** The locality model and the generation it was read at. */
  private locality: { generation: number; value: LocalityModel } | null = null;

  constructor(private readonly conn: ReadConnection) {}

  getLocations(keys: readonly number[]): Location[] {
    this.conn.refresh();
    if (keys.length === 0) return [];
    const rows = this.conn
      .stmt<[string], { key: number; doc: string }>(
        'SELECT d.key AS key, d.doc AS doc FROM json_each(?) j CROSS JOIN docs d ON d.key = j.value ' +
          'CROSS JOIN locations l ON l.key = d.key WHERE l.public = 1',
      )
      .all(JSON.stringify(keys));
    return documentsInKeyOrder(keys, rows);
  }

  getLanguages(keys: readonly number[]): Map<number, RecordLanguages> {
    this.conn.refresh();
    if (keys.length === 0) return new Map();
    const rows = this.conn
      .stmt<[string], { key: number; json: string }>(
        'SELECT g.key AS key, g.json AS json FROM json_each(?) j CROSS JOIN languages g ON g.key = j.value ' +
          'CROSS JOIN locations l ON l.key = g.key WHERE l.public = 1',
      )
      .all(JSON.stringify(keys));
    return languagesByKey(rows);
  }

  resolveIds(ids: readonly string[]): Map<string, number[]> {
    this.conn.refresh();
    const out = new Map<string, number[]>();
    const canonical = this.conn.stmt<[string], number>('SELECT key FROM locations WHERE id = ? AND public = 1').pluck();
    const alias = this.conn
      .stmt<[string], number>(
        'SELECT a.key FROM aliases a CROSS JOIN locations l ON l.key = a.key WHERE a.alias = ? AND l.public = 1 ORDER BY l.id',
      )
      .pluck();
    // One read transaction, so every id resolves against the same dataset.
    this.conn.db.transaction(() => {
      for (const id of ids) {
        if (out.has(id)) continue;
        const key = canonical.get(id);
        if (key !== undefined) {
          out.set(id, [key]);
          continue;
        }
        const keys = alias.all(id);
        if (keys.length > 0) out.set(id, keys);
      }
    })();
    return out;
  }

  knownItems(items: readonly string[]): Set<string> {
    this.conn.refresh();
    if (items.length === 0) return new Set();
    const rows = this.conn
      .stmt<[string], string>(
        'SELECT j.value FROM json_each(?) j CROSS JOIN item_keys k ON k.item = j.value WHERE EXISTS ' +
          '(SELECT 1 FROM availability a CROSS JOIN locations l ON l.key = a.key WHERE a.iid = k.iid AND l.public = 1)',
      )
      .pluck()
      .all(JSON.stringify(items));
    return new Set(rows);
  }

  amenityIds(limit: number): string[] {
    this.conn.refresh();
    // `amenities` holds public Locations only (schema.ts), so private ones never contribute an id.
    return this.conn
      .stmt<[number], string>(
        'SELECT k.amenity FROM amenities a CROSS JOIN amenity_keys k ON k.aid = a.aid GROUP BY a.aid ORDER BY COUNT(*) DESC, k.amenity LIMIT ?',
      )
      .pluck()
      .all(limit);
  }

  localityModel(): LocalityModel {
    this.conn.refresh();
    if (this.locality === null || this.locality.generation !== this.conn.generation) {
      const postal = this.conn.stmt<[], string>('SELECT DISTINCT country FROM cov_postal').pluck().all();
      const region = this.conn.stmt<[], string>('SELECT DISTINCT country FROM cov_region').pluck().all();
      this.locality = {
        generation: this.conn.generation,
        value: { postalCountries: new Set(postal), regionCountries: new Set(region) },
      };
    }
    // Copies: callers must not be able to alter the cache.
    const { value } = this.locality;
    return { postalCountries: new Set(value.postalCountries), regionCountries: new Set(value.regionCountries) };
  }

  generation(): number {
    this.conn.refresh();
    return this.conn.generation;
  }

  storedLocations(): StoredLocation[] {
    this.conn.refresh();
    return this.conn.db.transaction(() => {
      const rows = this.conn
        .stmt<[], { id: string; public: number; doc: string | null }>(
          'SELECT l.id AS id, l.public AS public, d.doc AS doc FROM locations l LEFT JOIN docs d ON d.key = l.key ORDER BY l.id',
        )
        .all();
      const aliases = this.conn
        .stmt<[], { id: string; alias: string }>(
          'SELECT l.id AS id, a.alias AS alias FROM aliases a CROSS JOIN locations l ON l.key = a.key',
        )
        .all();
      return storedLocationsOf(
        rows.map((r) => ({ id: r.id, public: r.public === 1, doc: r.doc })),
        aliases,
      );
    })();
  }

  stats(): StoreStats {
    this.conn.refresh();
    const r = one(
      this.conn.stmt<[], StoreStats>(
        'SELECT (SELECT count(*) FROM locations) AS locations, (SELECT count(*) FROM locations WHERE public = 1) AS publicLocations, ' +
          '(SELECT count(DISTINCT iid) FROM availability) AS items, (SELECT count(*) FROM availability WHERE available = 1) AS availableRows, ' +
          "(SELECT value FROM meta WHERE name = 'generation') AS generation",
      ),
    );
    return { ...r };
  }

  lastImport(): LastImportRecord | null {
    const json = this.conn.stmt<[], string>('SELECT json FROM last_import WHERE id = 1').pluck().get();
    return json === undefined ? null : parseImportRecord(json);
  }
}
