/**
 * One batch of an import into PostgreSQL: the derived rows of up to a few thousand records held
 * as column arrays, written with one unnest-based INSERT per table into the `_next` tables.
 */
import type pg from 'pg';
import type { DerivedRow } from '../record-rows.js';
import { tsvectorLiteral } from './text-search.js';

/** Runs one write statement inside the import's transaction. */
export type Writer = (text: string, values?: unknown[]) => Promise<pg.QueryResult>;

type PairTable = 'aliases' | 'amenities' | 'availability' | 'cov_country';

const PAIR_COLUMNS: Record<PairTable, string> = {
  aliases: 'alias, key',
  amenities: 'amenity, key',
  availability: 'item, key, available',
  cov_country: 'country, key',
};

/** Column arrays for the unnest-based bulk inserts of one batch. */
export class ImportBatch {
  keys: number[] = [];
  ids: string[] = [];
  publics: boolean[] = [];
  lats: (number | null)[] = [];
  lons: (number | null)[] = [];
  schedules: (string | null)[] = [];
  coverages: (string | null)[] = [];
  tsvs: (string | null)[] = [];
  docKeys: number[] = [];
  docs: string[] = [];
  languageKeys: number[] = [];
  languages: string[] = [];
  pairs = new Map<PairTable, [string[], number[]]>();
  regions: [string[], string[], number[]] = [[], [], []];
  postals: [string[], string[], number[]] = [[], [], []];
  extents: [number[], number[], number[], number[], number[]] = [[], [], [], [], []];

  get size(): number {
    return this.keys.length;
  }

  private pair(table: PairTable, value: string, key: number): void {
    let p = this.pairs.get(table);
    if (p === undefined) {
      p = [[], []];
      this.pairs.set(table, p);
    }
    p[0].push(value);
    p[1].push(key);
  }

  /** Add one record's row under `key`. Only public Locations enter the search structures (R-S11). */
  add(row: DerivedRow, key: number): void {
    this.keys.push(key);
    this.ids.push(row.id);
    this.publics.push(row.isPublic);
    this.lats.push(row.lat);
    this.lons.push(row.lon);
    this.schedules.push(row.schedule);
    this.coverages.push(row.coverage);
    for (const item of row.items) this.pair('availability', item, key);
    if (!row.isPublic) {
      this.tsvs.push(null);
      return;
    }
    this.tsvs.push(tsvectorLiteral(row.text));
    this.docKeys.push(key);
    this.docs.push(row.doc);
    if (row.languages !== null) {
      this.languageKeys.push(key);
      this.languages.push(row.languages);
    }
    for (const a of row.aliases) this.pair('aliases', a, key);
    for (const a of row.amenities) this.pair('amenities', a, key);
    for (const c of row.countries) this.pair('cov_country', c, key);
    for (const [c, r] of row.regions) {
      this.regions[0].push(c);
      this.regions[1].push(r);
      this.regions[2].push(key);
    }
    for (const [c, p] of row.postalCodes) {
      this.postals[0].push(c);
      this.postals[1].push(p);
      this.postals[2].push(key);
    }
    for (const b of row.coverageExtents) {
      this.extents[0].push(key);
      this.extents[1].push(b.minLon);
      this.extents[2].push(b.minLat);
      this.extents[3].push(b.maxLon);
      this.extents[4].push(b.maxLat);
    }
  }

  /** Insert the batch into the `_next` tables. */
  async write(w: Writer): Promise<void> {
    await w(
      `INSERT INTO locations_next (key, id, public, lat, lon, geog, schedule, coverage, tsv)
       SELECT k, i, p, la, lo, CASE WHEN la IS NULL OR lo IS NULL THEN NULL ELSE ST_SetSRID(ST_MakePoint(lo, la), 4326)::geography END, s, c, t::tsvector
         FROM unnest($1::bigint[], $2::text[], $3::boolean[], $4::float8[], $5::float8[], $6::text[], $7::text[], $8::text[]) AS u(k, i, p, la, lo, s, c, t)`,
      [this.keys, this.ids, this.publics, this.lats, this.lons, this.schedules, this.coverages, this.tsvs],
    );
    if (this.docKeys.length > 0) {
      await w('INSERT INTO docs_next (key, doc) SELECT * FROM unnest($1::bigint[], $2::text[])', [this.docKeys, this.docs]);
    }
    if (this.languageKeys.length > 0) {
      await w('INSERT INTO languages_next (key, json) SELECT * FROM unnest($1::bigint[], $2::text[])', [this.languageKeys, this.languages]);
    }
    for (const [table, [values, keys]] of this.pairs) {
      if (table === 'availability') {
        // record.items may repeat an item only across records, never within one (deriveRow dedupes).
        await w(
          `INSERT INTO availability_next (${PAIR_COLUMNS[table]}) SELECT v, k, true FROM unnest($1::text[], $2::bigint[]) AS u(v, k)`,
          [values, keys],
        );
      } else {
        await w(`INSERT INTO ${table}_next (${PAIR_COLUMNS[table]}) SELECT * FROM unnest($1::text[], $2::bigint[])`, [values, keys]);
      }
    }
    if (this.regions[0].length > 0) {
      await w(
        'INSERT INTO cov_region_next (country, region, key) SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[])',
        this.regions,
      );
    }
    if (this.postals[0].length > 0) {
      await w(
        'INSERT INTO cov_postal_next (country, postal, key) SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[])',
        this.postals,
      );
    }
    if (this.extents[0].length > 0) {
      await w(
        `INSERT INTO coverage_extents_next (key, box)
         SELECT k, ST_MakeEnvelope(x1, y1, x2, y2, 4326) FROM unnest($1::bigint[], $2::float8[], $3::float8[], $4::float8[], $5::float8[]) AS u(k, x1, y1, x2, y2)`,
        this.extents,
      );
    }
  }
}
