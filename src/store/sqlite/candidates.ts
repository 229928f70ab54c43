/**
 * `findCandidates` on SQLite: plans the text query against the index vocabulary, maps amenities
 * to the bits of `geo_points.amask`, chooses how a limited browse is driven, runs the statement
 * candidate-sql.ts builds and resolves the shared schedule / coverage documents it names.
 */
import type { VocabularyEntry } from '../../domain/text.js';
import { causeMessage, StoreError } from '../../errors.js';
import type { Candidate, CandidateQuery } from '../store.js';
import { AMENITY_BITS } from './bulk-import.js';
import { buildCandidateSql, type BrowsePlan } from './candidate-sql.js';
import { one, type ReadConnection, type Statement } from './read-connection.js';
import { IndexVocabulary, planText } from './text-plan.js';

/**
 * A candidate row in raw (array) mode, cheaper than objects for thousands of rows; the columns of
 * every statement candidate-sql.ts builds. sid / cid are NULL unless the query asked for them.
 */
type CandidateRow = [
  key: number,
  id: string,
  lat: number | null,
  lon: number | null,
  sid: number | null,
  cid: number | null,
  relevance: number,
];

/** Schedule / coverage documents kept in memory per store before the cache restarts. */
const DOCUMENT_CACHE_LIMIT = 100_000;
/** Distinct candidate statements kept prepared. */
const STATEMENT_CACHE_LIMIT = 500;

/** The schedule (column 4) or coverage (column 5) ids the rows name. */
function* idsOf(rows: readonly CandidateRow[], column: 4 | 5): Generator<number> {
  for (const r of rows) {
    const id = r[column];
    if (id !== null) yield id;
  }
}

export interface CandidatePlanning {
  /** See SqliteStoreOptions.textDriverMaxEstimate. */
  textDriverMaxEstimate: number;
  /** See SqliteStoreOptions.browseDriverMax. */
  browseDriverMax: number;
}

export class SqliteCandidates {
  /** Candidate statements, in raw (array) mode (kept apart from the connection's object-mode ones). */
  private readonly statements = new Map<string, Statement<unknown[], CandidateRow>>();
  /** The dataset the per-dataset caches below were filled from. */
  private cachedDataset = -1;
  private vocabulary: IndexVocabulary | null = null;
  /** amenity → bit in geo_points.amask for the current dataset (see bulk-import.ts). */
  private amenityBits: Map<string, number> | null = null;
  /**
   * Shared schedule / coverage JSON by id. Ids are never reused, so entries never go stale;
   * the maps are dropped with the dataset only to free memory.
   */
  private readonly scheduleJson = new Map<number, string>();
  private readonly coverageJson = new Map<number, string>();

  constructor(
    private readonly conn: ReadConnection,
    private readonly planning: CandidatePlanning,
  ) {}

  /** Drop what belongs to a replaced dataset (the connection was just refreshed). */
  private followDataset(): void {
    if (this.conn.dataset === this.cachedDataset) return;
    this.cachedDataset = this.conn.dataset;
    this.vocabulary = null;
    this.amenityBits = null;
    this.scheduleJson.clear();
    this.coverageJson.clear();
  }

  /** Index vocabulary of the current dataset, loaded on first use. */
  private currentVocabulary(): IndexVocabulary {
    if (this.vocabulary === null) {
      this.conn.db.exec("CREATE VIRTUAL TABLE IF NOT EXISTS temp.fts_vocab USING fts5vocab(main, fts, 'row')");
      const entries = this.conn.stmt<[], VocabularyEntry>('SELECT term, doc AS docs FROM temp.fts_vocab').all();
      this.vocabulary = new IndexVocabulary(entries);
    }
    return this.vocabulary;
  }

  private currentAmenityBits(): Map<string, number> {
    if (this.amenityBits === null) {
      const names = this.conn.stmt<[], string>('SELECT amenity FROM amenity_keys ORDER BY aid').pluck().all();
      this.amenityBits = new Map(names.map((name, rank) => [name, rank % AMENITY_BITS]));
    }
    return this.amenityBits;
  }

  /** Fill `cache` with the JSON of the given ids that it lacks. */
  private loadDocuments(
    cache: Map<number, string>,
    ids: Iterable<number>,
    table: 'schedules' | 'coverages',
    idColumn: 'sid' | 'cid',
  ): void {
    const missing: number[] = [];
    for (const id of ids) if (!cache.has(id)) missing.push(id);
    if (missing.length === 0) return;
    if (cache.size + missing.length > DOCUMENT_CACHE_LIMIT) cache.clear();
    const rows = this.conn
      .stmt<[string], [id: number, json: string]>(
        `SELECT t.${idColumn}, t.json FROM json_each(?) j CROSS JOIN ${table} t ON t.${idColumn} = j.value`,
      )
      .raw(true)
      .all(JSON.stringify([...new Set(missing)]));
    for (const [id, json] of rows) cache.set(id, json);
  }

  /**
   * The amenity bits a query needs, or null when it names an amenity no public Location has
   * (then nothing matches at all).
   */
  private amenityMask(amenities: readonly string[]): { mask: number; exact: boolean } | null {
    const bits = this.currentAmenityBits();
    let mask = 0;
    for (const a of amenities) {
      const bit = bits.get(a);
      if (bit === undefined) return null;
      if (Math.floor(mask / 2 ** bit) % 2 === 0) mask += 2 ** bit;
    }
    return { mask, exact: bits.size <= AMENITY_BITS };
  }

  private prepared(sql: string): Statement<unknown[], CandidateRow> {
    let st = this.statements.get(sql);
    if (st === undefined) {
      if (this.statements.size > STATEMENT_CACHE_LIMIT) this.statements.clear();
      st = this.conn.db.prepare<unknown[], CandidateRow>(sql).raw(true);
      this.statements.set(sql, st);
    }
    return st;
  }

  findCandidates(query: CandidateQuery): Candidate[] {
    this.conn.refresh();
    this.followDataset();
    if (query.keys !== undefined && query.keys.length === 0) return [];
    if (query.regions !== undefined && query.regions.length === 0) return [];
    if (query.limit !== undefined && query.limit <= 0) return [];
    const terms = query.text?.terms ?? [];
    const text = terms.length > 0 ? planText(terms, this.currentVocabulary()) : null;
    let amenityMask: { mask: number; exact: boolean } | undefined;
    if (query.amenities !== undefined && query.amenities.length > 0) {
      const mask = this.amenityMask(query.amenities);
      if (mask === null) return [];
      amenityMask = mask;
    }
    const browse = text === null ? this.browsePlan(query) : undefined;
    const { sql, params } = buildCandidateSql(query, text, {
      textDriverMax: this.planning.textDriverMaxEstimate,
      ...(browse !== undefined ? { browse } : {}),
      ...(amenityMask !== undefined ? { amenityMask } : {}),
    });
    let rows: CandidateRow[];
    try {
      rows = this.prepared(sql).all(...params);
    } catch (cause) {
      throw new StoreError('query_failed', `SQLite candidate query failed: ${causeMessage(cause)}`, { cause });
    }
    const withSchedule = query.withSchedule === true;
    const withCoverage = query.withCoverage === true;
    if (withSchedule) this.loadDocuments(this.scheduleJson, idsOf(rows, 4), 'schedules', 'sid');
    if (withCoverage) this.loadDocuments(this.coverageJson, idsOf(rows, 5), 'coverages', 'cid');
    return rows.map(([key, id, lat, lon, sid, cid, relevance]) => {
      const c: Candidate = { key, id, geo: lat === null || lon === null ? null : { latitude: lat, longitude: lon }, relevance };
      if (withSchedule) {
        c.schedule = sid === null ? null : (this.scheduleJson.get(sid) ?? null);
        if (sid !== null) c.scheduleKey = sid;
      }
      if (withCoverage) {
        c.coverage = cid === null ? null : (this.coverageJson.get(cid) ?? null);
        if (cid !== null) c.coverageKey = cid;
      }
      return c;
    });
  }

  /**
   * For a limited browse filtered by items / amenities only: drive from the rarest filter when it
   * has at most browseDriverMax rows (sorting them is cheap), else scan Locations in id order,
   * which stops after `limit` survivors because every filter is common. Counts are bounded.
   */
  private browsePlan(q: CandidateQuery): BrowsePlan | undefined {
    if (
      q.limit === undefined ||
      q.keys !== undefined ||
      q.regions !== undefined ||
      q.coverageProbe !== undefined ||
      q.locality !== undefined
    ) {
      return undefined;
    }
    let best: { kind: 'items' | 'amenities'; value: string; count: number } | undefined;
    const max = this.planning.browseDriverMax;
    const count = (sql: string, value: string): number =>
      one(this.conn.stmt<[string], number>(`SELECT count(*) FROM (${sql} LIMIT ${max + 1})`).pluck(), value);
    for (const value of q.items ?? []) {
      const n = count('SELECT 1 FROM availability WHERE iid = (SELECT iid FROM item_keys WHERE item = ?) AND available = 1', value);
      if (best === undefined || n < best.count) best = { kind: 'items', value, count: n };
    }
    for (const value of q.amenities ?? []) {
      const n = count('SELECT 1 FROM amenities WHERE aid = (SELECT aid FROM amenity_keys WHERE amenity = ?)', value);
      if (best === undefined || n < best.count) best = { kind: 'amenities', value, count: n };
    }
    if (best === undefined) return undefined;
    return best.count <= max ? { kind: best.kind, value: best.value } : 'scan';
  }

  close(): void {
    this.statements.clear();
  }
}
