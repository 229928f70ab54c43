/**
 * SQLite schema of the location store and its migrations (`PRAGMA user_version`).
 *
 * Two kinds of tables:
 *  - `meta` (generation counter, key allocator) lives forever;
 *  - the *dataset* tables hold one imported dataset. `replaceAll` builds a complete new set
 *    under the `_next` suffix inside its write transaction, then drops the live set and renames
 *    the new one into place before commit, so readers switch from the old dataset to the new one
 *    atomically. Secondary indexes are created after the bulk load (faster, and their names stay
 *    free for the next swap because dropping a table drops its indexes).
 *
 * Invariants:
 *  - `locations.key`, `schedules.sid` and `coverages.cid` all come from `meta.next_key` and are
 *    never reused, across datasets too: a key read before a swap can never name different data
 *    after it, so caches keyed by them (the engine's compiled schedules) are never wrong;
 *  - only *public* Locations appear in the search indexes (geo and coverage R*Trees, geo_points,
 *    FTS, amenities, locality tables); `locations` and `availability` hold private ones as well so
 *    that inventory for them is accepted. Every read path either reads such an index or checks
 *    `locations.public = 1`.
 */
import type Database from 'better-sqlite3';
import { causeMessage, StoreError } from '../../errors.js';
import { COLUMN_WEIGHTS } from '../search-text.js';

/** FTS columns, in order; bm25 weights below follow the same order. */
export const FTS_COLUMNS = ['name', 'keywords', 'locality', 'region', 'street', 'amenities'] as const;
/** bm25 weights of the FTS columns (store/search-text.ts, shared with the in-memory index). */
export const FTS_WEIGHTS = COLUMN_WEIGHTS;

/** The dataset tables, each as DDL for a given name suffix ('' = live, '_next' = being built). */
export function datasetTablesDdl(suffix: string): string[] {
  const s = suffix;
  return [
    // Small fixed-size rows so that candidate look-ups by key touch few pages. `sid` / `cid`
    // point at deduplicated schedule / coverage documents (chains share them).
    `CREATE TABLE locations${s} (
       key INTEGER PRIMARY KEY,
       id TEXT NOT NULL,
       public INTEGER NOT NULL,
       lat REAL,
       lon REAL,
       sid INTEGER,
       cid INTEGER
     )`,
    // Distinct schedule JSON {timezone?, hours?, exception_hours?}; ids come from the key allocator.
    `CREATE TABLE schedules${s} (sid INTEGER PRIMARY KEY, json TEXT NOT NULL)`,
    // Distinct coverage JSON {radius_m?, areas?}.
    `CREATE TABLE coverages${s} (cid INTEGER PRIMARY KEY, json TEXT NOT NULL)`,
    // Public Location JSON, read only for the page being returned.
    `CREATE TABLE docs${s} (key INTEGER PRIMARY KEY, doc TEXT NOT NULL)`,
    // RecordLanguages JSON (own language, translations) of public Locations that have any (R-C3):
    // apart from the doc, so that it can never leak into a returned Location.
    `CREATE TABLE languages${s} (key INTEGER PRIMARY KEY, json TEXT NOT NULL)`,
    `CREATE TABLE aliases${s} (alias TEXT NOT NULL, key INTEGER NOT NULL, PRIMARY KEY (alias, key)) WITHOUT ROWID`,
    // Amenity and item ids are interned: the per-Location rows are then a few bytes each.
    // An amenity's bit in geo_points.amask is (aid rank in this table − 1) mod 53.
    `CREATE TABLE amenity_keys${s} (aid INTEGER PRIMARY KEY, amenity TEXT NOT NULL)`,
    `CREATE TABLE amenities${s} (aid INTEGER NOT NULL, key INTEGER NOT NULL, PRIMARY KEY (aid, key)) WITHOUT ROWID`,
    `CREATE TABLE item_keys${s} (iid INTEGER PRIMARY KEY, item TEXT NOT NULL)`,
    `CREATE TABLE availability${s} (iid INTEGER NOT NULL, key INTEGER NOT NULL, available INTEGER NOT NULL, PRIMARY KEY (iid, key)) WITHOUT ROWID`,
    `CREATE TABLE cov_country${s} (country TEXT NOT NULL, key INTEGER NOT NULL, PRIMARY KEY (country, key)) WITHOUT ROWID`,
    `CREATE TABLE cov_region${s} (country TEXT NOT NULL, region TEXT NOT NULL, key INTEGER NOT NULL, PRIMARY KEY (country, region, key)) WITHOUT ROWID`,
    `CREATE TABLE cov_postal${s} (country TEXT NOT NULL, postal TEXT NOT NULL, key INTEGER NOT NULL, PRIMARY KEY (country, postal, key)) WITHOUT ROWID`,
    // R*Tree over Location geo: one point-sized box per public Location. SQLite stores 32-bit
    // floats rounded outwards, so the box always contains the exact point. Its rowid `gkey` is
    // the Location's rank on a Hilbert curve, and `geo_points` holds the candidate columns in
    // that order: the Locations of one area share pages, so a radius query reads few of them.
    `CREATE VIRTUAL TABLE geo_rtree${s} USING rtree(gkey, min_lon, max_lon, min_lat, max_lat)`,
    `CREATE TABLE geo_points${s} (
       gkey INTEGER PRIMARY KEY,
       key INTEGER NOT NULL,
       id TEXT NOT NULL,
       lat REAL NOT NULL,
       lon REAL NOT NULL,
       sid INTEGER,
       cid INTEGER,
       amask INTEGER NOT NULL
     )`,
    // R*Tree over coverage extents: several boxes per Location (radius split at the antimeridian,
    // one per polygon), hence its own rowid and the owning key as an auxiliary column.
    `CREATE VIRTUAL TABLE cov_rtree${s} USING rtree(rid, min_lon, max_lon, min_lat, max_lat, +key INTEGER)`,
    // Contentless: only rowids (= keys) and bm25 statistics are ever read back. detail=full is
    // required: bm25() scores every hit as 0 with detail=column.
    `CREATE VIRTUAL TABLE fts${s} USING fts5(${FTS_COLUMNS.join(', ')}, content='', tokenize='porter unicode61 remove_diacritics 2')`,
  ];
}

/** Names of the dataset tables (live names; add the suffix for the set being built). */
export const DATASET_TABLES = [
  'locations',
  'schedules',
  'coverages',
  'docs',
  'languages',
  'aliases',
  'amenity_keys',
  'amenities',
  'item_keys',
  'availability',
  'cov_country',
  'cov_region',
  'cov_postal',
  'geo_rtree',
  'geo_points',
  'cov_rtree',
  'fts',
] as const;

/** Secondary indexes of the live dataset tables (created after a bulk load). */
export const DATASET_INDEXES_DDL: readonly string[] = [
  'CREATE UNIQUE INDEX locations_id ON locations(id)',
  'CREATE UNIQUE INDEX amenity_keys_amenity ON amenity_keys(amenity)',
  'CREATE UNIQUE INDEX item_keys_item ON item_keys(item)',
];

interface Migration {
  version: number;
  describe: string;
  up(db: Database.Database): void;
}

const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    describe: 'meta counters and an empty dataset',
    up(db) {
      db.exec('CREATE TABLE meta (name TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID');
      // generation: bumped by every committed data change; dataset: bumped by replaceAll only
      // (text vocabulary and other per-dataset caches key on it); next_key: allocator of
      // Location keys and schedule / coverage ids, never reused.
      db.exec("INSERT INTO meta(name, value) VALUES ('generation', 0), ('dataset', 0), ('next_key', 1)");
      for (const ddl of datasetTablesDdl('')) db.exec(ddl);
      for (const ddl of DATASET_INDEXES_DDL) db.exec(ddl);
    },
  },
  {
    version: 2,
    describe: 'record languages and translations beside the public documents',
    up(db) {
      // A file created at version 1 has no such table; a new one got it from version 1's DDL.
      db.exec('CREATE TABLE IF NOT EXISTS languages (key INTEGER PRIMARY KEY, json TEXT NOT NULL)');
    },
  },
  {
    version: 3,
    describe: "the last import's result and warnings, kept beside the dataset",
    up(db) {
      // One row at most: replaceAll overwrites it in the transaction that swaps the dataset.
      db.exec('CREATE TABLE IF NOT EXISTS last_import (id INTEGER PRIMARY KEY CHECK (id = 1), json TEXT NOT NULL)');
    },
  },
];

export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0;

/** The schema version recorded in the file (`PRAGMA user_version`; 0 for a new file). */
export function schemaVersion(db: Database.Database): number {
  const version: unknown = db.pragma('user_version', { simple: true });
  if (typeof version !== 'number') throw new StoreError('open_failed', `${db.name} reports no schema version; is it a SQLite database?`);
  return version;
}

/**
 * Bring the database to SCHEMA_VERSION inside one immediate transaction (so two processes
 * opening a fresh file at once cannot both migrate). Refuses files from a newer release.
 */
export function migrate(db: Database.Database): void {
  const current = schemaVersion(db);
  if (current > SCHEMA_VERSION) {
    throw new StoreError(
      'schema_too_new',
      `The SQLite store ${db.name} has schema version ${current}, newer than this release supports (${SCHEMA_VERSION}); upgrade ucp-location or import into a new file.`,
    );
  }
  if (current === SCHEMA_VERSION) return;
  db.exec('BEGIN IMMEDIATE');
  try {
    // Re-read under the write lock: another process may have migrated meanwhile.
    const locked = schemaVersion(db);
    for (const m of MIGRATIONS) {
      if (m.version <= locked) continue;
      m.up(db);
      db.pragma(`user_version = ${m.version}`);
    }
    db.exec('COMMIT');
  } catch (cause) {
    db.exec('ROLLBACK');
    throw new StoreError('migration_failed', `Could not migrate the SQLite store ${db.name}: ${causeMessage(cause)}`, { cause });
  }
}
