/**
 * Embedded LocationStore on SQLite (better-sqlite3 12): WAL, R*Tree, FTS5.
 *
 * Two connections per store: a *reader* for every query and a *writer* for replaceAll /
 * applyInventory. With WAL the reader keeps seeing the last committed dataset while a long
 * import runs on the writer (even across the awaits of an async record source), which is what
 * makes `replaceAll` atomic for readers in this process as well as in others. Writes are
 * serialised inside the process by a promise chain and across processes by SQLite's write lock.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Location, LocationRecord, RecordLanguages } from '../../domain/location.js';
import type { VocabularyEntry } from '../../domain/text.js';
import { causeMessage, DataValidationError, StoreError, type DataIssue } from '../../errors.js';
import type {
  Candidate,
  CandidateQuery,
  ExportCounters,
  ImportNotes,
  ImportProgress,
  ImportResult,
  IndexSink,
  InventoryRow,
  LastImportRecord,
  LocationStore,
  StoredLocation,
  StoreStats,
} from '../store.js';
import { buildCandidateSql, TEXT_DRIVER_MAX_ESTIMATE, type BrowsePlan } from './candidate-sql.js';
import { AMENITY_BITS, bulkLoad } from './bulk-import.js';
import { DATASET_INDEXES_DDL, DATASET_TABLES, datasetTablesDdl, migrate, SCHEMA_VERSION, schemaVersion } from './schema.js';
import { IndexVocabulary, planText } from './text-plan.js';
import { importRecordJson, parseImportRecord } from '../import-notes.js';
import { documentsInKeyOrder, languagesByKey, storedLocationsOf } from '../documents.js';

export interface SqliteStoreOptions {
  /** How long a statement waits for another connection's lock, ms. Default 5000. */
  busyTimeoutMs?: number;
  /** Open for queries only; replaceAll / applyInventory then throw StoreError. Default false. */
  readonly?: boolean;
  /** Page cache per connection, MiB. Default 64. */
  cacheSizeMiB?: number;
  /** Name used for import records in DataValidationError issues. Default 'records'. */
  recordsLabel?: string;
  /**
   * Page cache of the writer during replaceAll, MiB. Default 512. The R*Trees, FTS segments and
   * key-ordered tables are updated at random places while loading; when they fit in the cache
   * nothing is written twice, which roughly halves import time for large datasets.
   */
  importCacheMiB?: number;
  /**
   * Up to this many estimated text hits, a query with text and a spatial operand is driven by
   * the full-text index; above it by the spatial index, whose rows text then filters. Default 5 000.
   * Both plans return the same candidates and relevance; this only tunes speed.
   */
  textDriverMaxEstimate?: number;
  /**
   * A limited browse filtered by items / amenities is driven by the rarest filter's list when it
   * has at most this many rows, else by an id-ordered scan. Default 20 000; both plans give the
   * same rows.
   */
  browseDriverMax?: number;
}

/**
 * A prepared statement whose bind parameters and rows are declared where its SQL is written
 * (the SQL text fixes both; better-sqlite3 cannot check them).
 */
type Statement<P extends unknown[] = unknown[], R = unknown> = Database.Statement<P, R>;

/** Default of SqliteStoreOptions.browseDriverMax. */
const BROWSE_DRIVER_MAX = 20_000;

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

/** A `meta` counter. */
interface MetaRow {
  name: string;
  value: number;
}

/** Schedule / coverage documents kept in memory per store before the cache restarts. */
const DOCUMENT_CACHE_LIMIT = 100_000;

/** Memory map of the reading connection (1 GiB): fewer copies for the store's own SQL queries. */
const READER_MMAP_BYTES = 1 << 30;

/** The row a statement always returns (a counter, a PRAGMA): none means a damaged store. */
function one<P extends unknown[], R>(statement: Statement<P, R>, ...params: P): R {
  const row = statement.get(...params);
  if (row === undefined) throw new StoreError('query_failed', `The SQLite store returned no row for: ${statement.source}`);
  return row;
}

/** The schedule (column 4) or coverage (column 5) ids the rows name. */
function* idsOf(rows: readonly CandidateRow[], column: 4 | 5): Generator<number> {
  for (const r of rows) {
    const id = r[column];
    if (id !== null) yield id;
  }
}

export class SqliteLocationStore implements LocationStore {
  readonly kind = 'sqlite';

  private readonly statements = new Map<string, Statement>();
  /** Candidate statements, in raw (array) mode. */
  private readonly candidateStatements = new Map<string, Statement<unknown[], CandidateRow>>();
  private writeChain: Promise<unknown> = Promise.resolve();
  private lastDataVersion = -1;
  private cachedGeneration = 0;
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
  private locality: { postalCountries: Set<string>; regionCountries: Set<string> } | null = null;
  private closed = false;

  private constructor(
    private readonly reader: Database.Database,
    private readonly writer: Database.Database | null,
    private readonly options: Required<
      Pick<SqliteStoreOptions, 'recordsLabel' | 'importCacheMiB' | 'cacheSizeMiB' | 'textDriverMaxEstimate' | 'browseDriverMax'>
    >,
    /** Directory to delete on close (the backing file of a ':memory:' store). */
    private readonly scratchDir: string | null,
  ) {}

  /**
   * Open (creating and migrating when needed) the store at `path`. `':memory:'` gives a private,
   * throw-away store: it lives in a temporary file removed on close, because the reader/writer
   * split needs two connections to one database, which SQLite's in-memory databases cannot share.
   */
  static async open(path: string, options: SqliteStoreOptions = {}): Promise<SqliteLocationStore> {
    const busy = options.busyTimeoutMs ?? 5000;
    const cacheKiB = (options.cacheSizeMiB ?? 64) * 1024;
    let file = path;
    let scratchDir: string | null = null;
    if (path === ':memory:') {
      if (options.readonly === true)
        throw new StoreError('open_failed', "A ':memory:' store cannot be read-only: it starts empty and nothing could fill it.");
      scratchDir = mkdtempSync(join(tmpdir(), 'ucp-location-'));
      file = join(scratchDir, 'store.db');
    }
    let writer: Database.Database | null = null;
    let reader: Database.Database | null = null;
    try {
      if (options.readonly !== true) {
        writer = new Database(file);
        writer.pragma(`busy_timeout = ${busy}`);
        writer.pragma('journal_mode = WAL');
        writer.pragma('synchronous = NORMAL');
        writer.pragma('temp_store = MEMORY');
        writer.pragma(`cache_size = -${cacheKiB}`);
        migrate(writer);
      }
      reader = new Database(file, { readonly: options.readonly === true, fileMustExist: true });
      reader.pragma(`busy_timeout = ${busy}`);
      reader.pragma('temp_store = MEMORY');
      reader.pragma(`cache_size = -${cacheKiB}`);
      reader.pragma(`mmap_size = ${READER_MMAP_BYTES}`);
      if (options.readonly === true) {
        const v = schemaVersion(reader);
        if (v > SCHEMA_VERSION) {
          throw new StoreError(
            'schema_too_new',
            `The SQLite store ${file} has schema version ${v}, newer than this release supports (${SCHEMA_VERSION}); upgrade ucp-location.`,
          );
        }
        if (v < SCHEMA_VERSION) {
          throw new StoreError(
            'schema_outdated',
            `The SQLite store ${file} has schema version ${v}, but this release needs ${SCHEMA_VERSION}; open it once without readonly to migrate it.`,
          );
        }
      }
    } catch (cause) {
      reader?.close();
      writer?.close();
      if (scratchDir !== null) rmSync(scratchDir, { recursive: true, force: true });
      if (cause instanceof StoreError) throw cause;
      throw new StoreError('open_failed', `Could not open the SQLite store at ${path}: ${causeMessage(cause)}`, { cause });
    }
    const settings = {
      recordsLabel: options.recordsLabel ?? 'records',
      importCacheMiB: options.importCacheMiB ?? 512,
      cacheSizeMiB: options.cacheSizeMiB ?? 64,
      textDriverMaxEstimate: options.textDriverMaxEstimate ?? TEXT_DRIVER_MAX_ESTIMATE,
      browseDriverMax: options.browseDriverMax ?? BROWSE_DRIVER_MAX,
    };
    return new SqliteLocationStore(reader, writer, settings, scratchDir);
  }

  // ───────────────────────── internals ─────────────────────────

  /** A cached reader statement; `P` and `R` declare its parameters and rows (see Statement). */
  private stmt<P extends unknown[] = [], R = never>(sql: string): Statement<P, R> {
    let s = this.statements.get(sql);
    if (s === undefined) {
      // Query shapes are few (one per combination of operands); bound the cache anyway.
      if (this.statements.size > 500) this.statements.clear();
      s = this.reader.prepare(sql);
      this.statements.set(sql, s);
    }
    // The cache forgets the declared types; the SQL text (the key) fixes them again.
    return s as Statement<P, R>;
  }

  private assertOpen(): void {
    if (this.closed) throw new StoreError('closed', 'The SQLite store is closed.');
  }

  /**
   * Re-read the counters when any connection committed since the last look. PRAGMA data_version
   * changes only for commits by *other* connections, and every write here goes through the
   * writer, so the reader always notices.
   */
  private refresh(): void {
    this.assertOpen();
    const dv = one(this.stmt<[], number>('PRAGMA data_version').pluck());
    if (dv === this.lastDataVersion) return;
    this.lastDataVersion = dv;
    const rows = this.stmt<[], MetaRow>("SELECT name, value FROM meta WHERE name IN ('generation', 'dataset')").all();
    let generation = 0;
    let dataset = 0;
    for (const r of rows) {
      if (r.name === 'generation') generation = r.value;
      else dataset = r.value;
    }
    if (generation !== this.cachedGeneration) this.locality = null;
    if (dataset !== this.cachedDataset) {
      this.vocabulary = null;
      this.amenityBits = null;
      this.scheduleJson.clear();
      this.coverageJson.clear();
    }
    this.cachedGeneration = generation;
    this.cachedDataset = dataset;
  }

  /** Index vocabulary of the current dataset, loaded on first use. */
  private currentVocabulary(): IndexVocabulary {
    if (this.vocabulary === null) {
      this.reader.exec("CREATE VIRTUAL TABLE IF NOT EXISTS temp.fts_vocab USING fts5vocab(main, fts, 'row')");
      const entries = this.stmt<[], VocabularyEntry>('SELECT term, doc AS docs FROM temp.fts_vocab').all();
      this.vocabulary = new IndexVocabulary(entries);
    }
    return this.vocabulary;
  }

  private currentAmenityBits(): Map<string, number> {
    if (this.amenityBits === null) {
      const names = this.stmt<[], string>('SELECT amenity FROM amenity_keys ORDER BY aid').pluck().all();
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
    const rows = this.stmt<[string], [id: number, json: string]>(
      `SELECT t.${idColumn}, t.json FROM json_each(?) j CROSS JOIN ${table} t ON t.${idColumn} = j.value`,
    )
      .raw(true)
      .all(JSON.stringify([...new Set(missing)]));
    for (const [id, json] of rows) cache.set(id, json);
  }

  private requireWriter(operation: string): Database.Database {
    this.assertOpen();
    if (this.writer === null) throw new StoreError('read_only', `${operation} needs a writable store; this one was opened read-only.`);
    return this.writer;
  }

  /** Run write operations one after another (a transaction must not interleave on one connection). */
  private exclusive<T>(task: () => Promise<T> | T): Promise<T> {
    const run = this.writeChain.then(task, task);
    this.writeChain = run.catch(() => undefined);
    return run;
  }

  // ───────────────────────── queries ─────────────────────────

  async findCandidates(query: CandidateQuery): Promise<Candidate[]> {
    this.refresh();
    if (query.keys !== undefined && query.keys.length === 0) return [];
    if (query.regions !== undefined && query.regions.length === 0) return [];
    if (query.limit !== undefined && query.limit <= 0) return [];
    const terms = query.text?.terms ?? [];
    const text = terms.length > 0 ? planText(terms, this.currentVocabulary()) : null;
    // Amenity keys only public Locations have: an unknown one matches nothing at all.
    let amenityMask: { mask: number; exact: boolean } | undefined;
    if (query.amenities !== undefined && query.amenities.length > 0) {
      const bits = this.currentAmenityBits();
      let mask = 0;
      for (const a of query.amenities) {
        const bit = bits.get(a);
        if (bit === undefined) return [];
        if (Math.floor(mask / 2 ** bit) % 2 === 0) mask += 2 ** bit;
      }
      amenityMask = { mask, exact: bits.size <= AMENITY_BITS };
    }
    const browse = text === null ? this.browsePlan(query) : undefined;
    const { sql, params } = buildCandidateSql(query, text, {
      textDriverMax: this.options.textDriverMaxEstimate,
      ...(browse !== undefined ? { browse } : {}),
      ...(amenityMask !== undefined ? { amenityMask } : {}),
    });
    let rows: CandidateRow[];
    try {
      let st = this.candidateStatements.get(sql);
      if (st === undefined) {
        if (this.candidateStatements.size > 500) this.candidateStatements.clear();
        st = this.reader.prepare<unknown[], CandidateRow>(sql).raw(true);
        this.candidateStatements.set(sql, st);
      }
      rows = st.all(...params);
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
    const max = this.options.browseDriverMax;
    const count = (sql: string, value: string): number =>
      one(this.stmt<[string], number>(`SELECT count(*) FROM (${sql} LIMIT ${max + 1})`).pluck(), value);
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

  async getLocations(keys: readonly number[]): Promise<Location[]> {
    this.refresh();
    if (keys.length === 0) return [];
    const rows = this.stmt<[string], { key: number; doc: string }>(
      'SELECT d.key AS key, d.doc AS doc FROM json_each(?) j CROSS JOIN docs d ON d.key = j.value ' +
        'CROSS JOIN locations l ON l.key = d.key WHERE l.public = 1',
    ).all(JSON.stringify(keys));
    return documentsInKeyOrder(keys, rows);
  }

  async getLanguages(keys: readonly number[]): Promise<Map<number, RecordLanguages>> {
    this.refresh();
    if (keys.length === 0) return new Map();
    const rows = this.stmt<[string], { key: number; json: string }>(
      'SELECT g.key AS key, g.json AS json FROM json_each(?) j CROSS JOIN languages g ON g.key = j.value ' +
        'CROSS JOIN locations l ON l.key = g.key WHERE l.public = 1',
    ).all(JSON.stringify(keys));
    return languagesByKey(rows);
  }

  async resolveIds(ids: readonly string[]): Promise<Map<string, number[]>> {
    this.refresh();
    const out = new Map<string, number[]>();
    const canonical = this.stmt<[string], number>('SELECT key FROM locations WHERE id = ? AND public = 1').pluck();
    const alias = this.stmt<[string], number>(
      'SELECT a.key FROM aliases a CROSS JOIN locations l ON l.key = a.key WHERE a.alias = ? AND l.public = 1 ORDER BY l.id',
    ).pluck();
    // One read transaction, so every id resolves against the same dataset.
    this.reader.transaction(() => {
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

  async knownItems(items: readonly string[]): Promise<Set<string>> {
    this.refresh();
    if (items.length === 0) return new Set();
    const rows = this.stmt<[string], string>(
      'SELECT j.value FROM json_each(?) j CROSS JOIN item_keys k ON k.item = j.value WHERE EXISTS ' +
        '(SELECT 1 FROM availability a CROSS JOIN locations l ON l.key = a.key WHERE a.iid = k.iid AND l.public = 1)',
    )
      .pluck()
      .all(JSON.stringify(items));
    return new Set(rows);
  }

  async amenityIds(limit: number): Promise<string[]> {
    this.refresh();
    // `amenities` holds public Locations only (schema.ts), so private ones never contribute an id.
    return this.stmt<[number], string>(
      'SELECT k.amenity FROM amenities a CROSS JOIN amenity_keys k ON k.aid = a.aid GROUP BY a.aid ORDER BY COUNT(*) DESC, k.amenity LIMIT ?',
    )
      .pluck()
      .all(limit);
  }

  async localityModel(): Promise<{ postalCountries: Set<string>; regionCountries: Set<string> }> {
    this.refresh();
    if (this.locality === null) {
      const postal = this.stmt<[], string>('SELECT DISTINCT country FROM cov_postal').pluck().all();
      const region = this.stmt<[], string>('SELECT DISTINCT country FROM cov_region').pluck().all();
      this.locality = { postalCountries: new Set(postal), regionCountries: new Set(region) };
    }
    // Copies: callers must not be able to alter the cache.
    return { postalCountries: new Set(this.locality.postalCountries), regionCountries: new Set(this.locality.regionCountries) };
  }

  async generation(): Promise<number> {
    this.refresh();
    return this.cachedGeneration;
  }

  async storedLocations(): Promise<StoredLocation[]> {
    this.refresh();
    return this.reader.transaction(() => {
      const rows = this.stmt<[], { id: string; public: number; doc: string | null }>(
        'SELECT l.id AS id, l.public AS public, d.doc AS doc FROM locations l LEFT JOIN docs d ON d.key = l.key ORDER BY l.id',
      ).all();
      const aliases = this.stmt<[], { id: string; alias: string }>(
        'SELECT l.id AS id, a.alias AS alias FROM aliases a CROSS JOIN locations l ON l.key = a.key',
      ).all();
      return storedLocationsOf(
        rows.map((r) => ({ id: r.id, public: r.public === 1, doc: r.doc })),
        aliases,
      );
    })();
  }

  async stats(): Promise<StoreStats> {
    this.refresh();
    const r = one(
      this.stmt<[], StoreStats>(
        'SELECT (SELECT count(*) FROM locations) AS locations, (SELECT count(*) FROM locations WHERE public = 1) AS publicLocations, ' +
          '(SELECT count(DISTINCT iid) FROM availability) AS items, (SELECT count(*) FROM availability WHERE available = 1) AS availableRows, ' +
          "(SELECT value FROM meta WHERE name = 'generation') AS generation",
      ),
    );
    return { ...r };
  }

  // ───────────────────────── index export ─────────────────────────

  /** The counters inside the current read transaction. */
  private exportCounters(): ExportCounters {
    const rows = this.stmt<[], MetaRow>("SELECT name, value FROM meta WHERE name IN ('generation', 'dataset')").all();
    return {
      generation: rows.find((r) => r.name === 'generation')?.value ?? 0,
      dataset: rows.find((r) => r.name === 'dataset')?.value ?? 0,
    };
  }

  private exportAvailabilityRows(sink: Pick<IndexSink, 'availability'>): void {
    const rows = this.stmt<[], [item: string, key: number, available: number]>(
      'SELECT k.item, a.key, a.available FROM availability a CROSS JOIN item_keys k ON k.iid = a.iid ' +
        'CROSS JOIN locations l ON l.key = a.key WHERE l.public = 1',
    ).raw(true);
    for (const [item, key, available] of rows.iterate()) sink.availability(key, item, available === 1);
  }

  async exportIndex(sink: IndexSink): Promise<ExportCounters> {
    this.refresh();
    this.reader.exec("CREATE VIRTUAL TABLE IF NOT EXISTS temp.fts_instances USING fts5vocab(main, fts, 'instance')");
    // An export reads every page once: through the memory map they would all stay mapped into
    // this process (a 1M store: ~1 GiB more RSS, on top of the index being built), through the
    // page cache they pass. The map is back for the store's own queries afterwards.
    this.reader.pragma('mmap_size = 0');
    try {
      return this.exportSnapshot(sink);
    } finally {
      this.reader.pragma(`mmap_size = ${READER_MMAP_BYTES}`);
    }
  }

  private exportSnapshot(sink: IndexSink): ExportCounters {
    // One read transaction: every table comes from the same committed dataset.
    return this.reader.transaction((): ExportCounters => {
      const counters = this.exportCounters();
      const locations = this.stmt<
        [],
        [key: number, id: string, lat: number | null, lon: number | null, doc: string, schedule: string | null, coverage: string | null]
      >(
        'SELECT l.key, l.id, l.lat, l.lon, d.doc, s.json, c.json FROM locations l CROSS JOIN docs d ON d.key = l.key ' +
          'LEFT JOIN schedules s ON s.sid = l.sid LEFT JOIN coverages c ON c.cid = l.cid WHERE l.public = 1',
      ).raw(true);
      for (const [key, id, lat, lon, doc, schedule, coverage] of locations.iterate()) {
        sink.location({ key, id, lat, lon, doc, schedule, coverage });
      }
      for (const [alias, key] of this.stmt<[], [string, number]>('SELECT alias, key FROM aliases').raw(true).iterate()) {
        sink.alias(alias, key);
      }
      const amenities = this.stmt<[], [string, number]>(
        'SELECT k.amenity, a.key FROM amenities a CROSS JOIN amenity_keys k ON k.aid = a.aid',
      );
      for (const [amenity, key] of amenities.raw(true).iterate()) sink.amenity(amenity, key);
      for (const [country, key] of this.stmt<[], [string, number]>('SELECT country, key FROM cov_country').raw(true).iterate()) {
        sink.locality('country', country, null, key);
      }
      const regions = this.stmt<[], [string, string, number]>('SELECT country, region, key FROM cov_region').raw(true);
      for (const [country, region, key] of regions.iterate()) sink.locality('region', country, region, key);
      const postal = this.stmt<[], [string, string, number]>('SELECT country, postal, key FROM cov_postal').raw(true);
      for (const [country, code, key] of postal.iterate()) sink.locality('postal', country, code, key);
      const keywords = this.stmt<[], [key: number, term: string, count: number]>(
        "SELECT doc, term, count(*) FROM temp.fts_instances WHERE col = 'keywords' GROUP BY doc, term",
      ).raw(true);
      for (const [key, term, count] of keywords.iterate()) sink.keywordTerm(key, term, count);
      for (const [key, json] of this.stmt<[], [number, string]>('SELECT key, json FROM languages').raw(true).iterate()) {
        sink.languages(key, json);
      }
      this.exportAvailabilityRows(sink);
      return counters;
    })();
  }

  async exportAvailability(sink: Pick<IndexSink, 'availability'>): Promise<ExportCounters> {
    this.refresh();
    return this.reader.transaction((): ExportCounters => {
      const counters = this.exportCounters();
      this.exportAvailabilityRows(sink);
      return counters;
    })();
  }

  // ───────────────────────── writes ─────────────────────────

  replaceAll(
    records: AsyncIterable<LocationRecord> | Iterable<LocationRecord>,
    onProgress?: (p: ImportProgress) => void,
    notes?: ImportNotes,
  ): Promise<ImportResult> {
    return this.exclusive(() => this.replaceAllNow(records, onProgress, notes));
  }

  async lastImport(): Promise<LastImportRecord | null> {
    const json = this.stmt<[], string>('SELECT json FROM last_import WHERE id = 1').pluck().get();
    return json === undefined ? null : parseImportRecord(json);
  }

  private async replaceAllNow(
    records: AsyncIterable<LocationRecord> | Iterable<LocationRecord>,
    onProgress: ((p: ImportProgress) => void) | undefined,
    notes: ImportNotes | undefined,
  ): Promise<ImportResult> {
    const db = this.requireWriter('replaceAll');
    db.pragma(`cache_size = -${this.options.importCacheMiB * 1024}`);
    db.exec('BEGIN IMMEDIATE');
    try {
      for (const t of DATASET_TABLES) db.exec(`DROP TABLE IF EXISTS ${t}_next`);
      for (const ddl of datasetTablesDdl('_next')) db.exec(ddl);
      const firstKey = one(db.prepare<[], number>("SELECT value FROM meta WHERE name = 'next_key'").pluck());
      const loaded = await bulkLoad(db, records, firstKey, this.options.recordsLabel, onProgress);
      // The swap: from here to COMMIT readers still see the old tables, then the new ones.
      for (const t of DATASET_TABLES) db.exec(`DROP TABLE ${t}`);
      for (const t of DATASET_TABLES) db.exec(`ALTER TABLE ${t}_next RENAME TO ${t}`);
      for (const ddl of DATASET_INDEXES_DDL) db.exec(ddl);
      db.prepare("UPDATE meta SET value = ? WHERE name = 'next_key'").run(loaded.nextKey);
      db.exec("UPDATE meta SET value = value + 1 WHERE name IN ('generation', 'dataset')");
      const generation = one(db.prepare<[], number>("SELECT value FROM meta WHERE name = 'generation'").pluck());
      const result = {
        locations: loaded.locations,
        publicLocations: loaded.publicLocations,
        availability: loaded.availability,
        generation,
      };
      db.prepare<[string]>('INSERT OR REPLACE INTO last_import (id, json) VALUES (1, ?)').run(importRecordJson(result, notes));
      db.exec('COMMIT');
      // Planner statistics for the few choices left to SQLite (IN-subqueries); bounded cost.
      db.exec('PRAGMA analysis_limit = 1000; PRAGMA optimize;');
      onProgress?.({ phase: 'done', done: loaded.locations, total: loaded.locations });
      return result;
    } catch (cause) {
      if (db.inTransaction) db.exec('ROLLBACK');
      if (cause instanceof DataValidationError || cause instanceof StoreError) throw cause;
      throw new StoreError('write_failed', `Import failed, the previous dataset is unchanged: ${causeMessage(cause)}`, { cause });
    } finally {
      // Give the import cache back (SQLite shrinks the cache when the limit drops).
      db.pragma(`cache_size = -${this.options.cacheSizeMiB * 1024}`);
    }
  }

  applyInventory(rows: readonly InventoryRow[], file = 'inventory'): Promise<{ applied: number; generation: number }> {
    return this.exclusive(() => {
      const db = this.requireWriter('applyInventory');
      const lookup = db.prepare<[string], number>('SELECT key FROM locations WHERE id = ?').pluck();
      const internItem = db.prepare<[string]>('INSERT INTO item_keys(item) VALUES (?) ON CONFLICT(item) DO NOTHING');
      const itemId = db.prepare<[string], number>('SELECT iid FROM item_keys WHERE item = ?').pluck();
      const generation = db.prepare<[], number>("SELECT value FROM meta WHERE name = 'generation'").pluck();
      const upsert = db.prepare<[iid: number, key: number, available: 0 | 1]>(
        'INSERT INTO availability(iid, key, available) VALUES (?, ?, ?) ON CONFLICT(iid, key) DO UPDATE SET available = excluded.available',
      );
      const run = db.transaction((): { applied: number; generation: number } => {
        const resolved: { row: InventoryRow; key: number }[] = [];
        const issues: DataIssue[] = [];
        for (const row of rows) {
          const key = lookup.get(row.location_id);
          if (key !== undefined) resolved.push({ row, key });
          else {
            issues.push({
              file,
              line: row.line,
              field: 'location_id',
              message: `unknown Location id ${JSON.stringify(row.location_id)}; import the Location first or correct the id`,
            });
          }
        }
        // Check everything before writing anything: the batch applies whole or not at all.
        if (issues.length > 0) throw new DataValidationError(issues);
        for (const { row, key } of resolved) {
          internItem.run(row.item_id);
          upsert.run(one(itemId, row.item_id), key, row.available ? 1 : 0);
        }
        db.exec("UPDATE meta SET value = value + 1 WHERE name = 'generation'");
        return { applied: rows.length, generation: one(generation) };
      });
      try {
        return run.immediate();
      } catch (cause) {
        if (cause instanceof DataValidationError) throw cause;
        throw new StoreError('write_failed', `Inventory update failed, nothing was applied: ${causeMessage(cause)}`, { cause });
      }
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.writeChain;
    this.closed = true;
    this.statements.clear();
    this.candidateStatements.clear();
    this.reader.close();
    this.writer?.close();
    if (this.scratchDir !== null) rmSync(this.scratchDir, { recursive: true, force: true });
  }
}
