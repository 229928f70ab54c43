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
import type { Location, LocationRecord } from '../../domain/location.js';
import { DataValidationError, StoreError, type DataIssue } from '../../errors.js';
import type { Candidate, CandidateQuery, ImportProgress, ImportResult, InventoryRow, LocationStore, StoreStats } from '../store.js';
import { buildCandidateSql, TEXT_DRIVER_MAX_ESTIMATE, type BrowsePlan } from './candidate-sql.js';
import { AMENITY_BITS, bulkLoad } from './bulk-import.js';
import { DATASET_INDEXES_DDL, DATASET_TABLES, datasetTablesDdl, migrate, SCHEMA_VERSION } from './schema.js';
import { IndexVocabulary, planText } from './text-plan.js';
import { documentsInKeyOrder } from '../documents.js';

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

type Statement = Database.Statement<unknown[], unknown>;

/** Default of SqliteStoreOptions.browseDriverMax. */
const BROWSE_DRIVER_MAX = 20_000;

/**
 * A candidate row in raw (array) form, cheaper than objects for thousands of rows:
 * [key, id, lat, lon, sid?, cid?, relevance] — see candidate-sql.ts.
 */
type CandidateRow = unknown[];

/** Schedule / coverage documents kept in memory per store before the cache restarts. */
const DOCUMENT_CACHE_LIMIT = 100_000;

function* idsAt(rows: readonly CandidateRow[], index: number): Generator<number> {
  for (const r of rows) {
    const v = r[index];
    if (typeof v === 'number') yield v;
  }
}

export class SqliteLocationStore implements LocationStore {
  readonly kind = 'sqlite';

  private readonly statements = new Map<string, Statement>();
  /** Candidate statements, in raw (array) mode. */
  private readonly candidateStatements = new Map<string, Statement>();
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
        throw new StoreError("A ':memory:' store cannot be read-only: it starts empty and nothing could fill it.");
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
      reader.pragma('mmap_size = 1073741824');
      if (options.readonly === true) {
        const v = reader.pragma('user_version', { simple: true }) as number;
        if (v !== SCHEMA_VERSION) {
          throw new StoreError(
            `The SQLite store ${file} has schema version ${v}, but this release needs ${SCHEMA_VERSION}; open it once without readonly to migrate it.`,
          );
        }
      }
    } catch (cause) {
      reader?.close();
      writer?.close();
      if (scratchDir !== null) rmSync(scratchDir, { recursive: true, force: true });
      if (cause instanceof StoreError) throw cause;
      throw new StoreError(`Could not open the SQLite store at ${path}: ${(cause as Error).message}`, false, { cause });
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

  private stmt(sql: string): Statement {
    let s = this.statements.get(sql);
    if (s === undefined) {
      // Query shapes are few (one per combination of operands); bound the cache anyway.
      if (this.statements.size > 500) this.statements.clear();
      s = this.reader.prepare(sql);
      this.statements.set(sql, s);
    }
    return s;
  }

  private assertOpen(): void {
    if (this.closed) throw new StoreError('The SQLite store is closed.');
  }

  /**
   * Re-read the counters when any connection committed since the last look. PRAGMA data_version
   * changes only for commits by *other* connections, and every write here goes through the
   * writer, so the reader always notices.
   */
  private refresh(): void {
    this.assertOpen();
    const dv = this.stmt('PRAGMA data_version').pluck().get() as number;
    if (dv === this.lastDataVersion) return;
    this.lastDataVersion = dv;
    const rows = this.stmt("SELECT name, value FROM meta WHERE name IN ('generation', 'dataset')").all() as {
      name: string;
      value: number;
    }[];
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
      const entries = this.stmt('SELECT term, doc AS docs FROM temp.fts_vocab').all() as { term: string; docs: number }[];
      this.vocabulary = new IndexVocabulary(entries);
    }
    return this.vocabulary;
  }

  private currentAmenityBits(): Map<string, number> {
    if (this.amenityBits === null) {
      const names = this.stmt('SELECT amenity FROM amenity_keys ORDER BY aid').pluck().all() as string[];
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
    const rows = this.stmt(`SELECT t.${idColumn}, t.json FROM json_each(?) j CROSS JOIN ${table} t ON t.${idColumn} = j.value`)
      .raw(true)
      .all(JSON.stringify([...new Set(missing)])) as [number, string][];
    for (const [id, json] of rows) cache.set(id, json);
  }

  private requireWriter(operation: string): Database.Database {
    this.assertOpen();
    if (this.writer === null) throw new StoreError(`${operation} needs a writable store; this one was opened read-only.`);
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
        st = this.reader.prepare(sql).raw(true);
        this.candidateStatements.set(sql, st);
      }
      rows = st.all(...params) as CandidateRow[];
    } catch (cause) {
      throw new StoreError(`SQLite candidate query failed: ${(cause as Error).message}`, false, { cause });
    }
    const withSchedule = query.withSchedule === true;
    const withCoverage = query.withCoverage === true;
    const coverageAt = withSchedule ? 5 : 4;
    const relevanceAt = coverageAt + (withCoverage ? 1 : 0);
    if (withSchedule) this.loadDocuments(this.scheduleJson, idsAt(rows, 4), 'schedules', 'sid');
    if (withCoverage) this.loadDocuments(this.coverageJson, idsAt(rows, coverageAt), 'coverages', 'cid');
    const out: Candidate[] = new Array<Candidate>(rows.length);
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i] as CandidateRow;
      const lat = r[2] as number | null;
      const lon = r[3] as number | null;
      const c: Candidate = {
        key: r[0] as number,
        id: r[1] as string,
        geo: lat === null || lon === null ? null : { latitude: lat, longitude: lon },
        relevance: r[relevanceAt] as number,
      };
      if (withSchedule) {
        const sid = r[4];
        c.schedule = typeof sid === 'number' ? (this.scheduleJson.get(sid) ?? null) : null;
        if (typeof sid === 'number') c.scheduleKey = sid;
      }
      if (withCoverage) {
        const cid = r[coverageAt];
        c.coverage = typeof cid === 'number' ? (this.coverageJson.get(cid) ?? null) : null;
        if (typeof cid === 'number') c.coverageKey = cid;
      }
      out[i] = c;
    }
    return out;
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
      this.stmt(`SELECT count(*) FROM (${sql} LIMIT ${max + 1})`)
        .pluck()
        .get(value) as number;
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
    const rows = this.stmt(
      'SELECT d.key AS key, d.doc AS doc FROM json_each(?) j CROSS JOIN docs d ON d.key = j.value ' +
        'CROSS JOIN locations l ON l.key = d.key WHERE l.public = 1',
    ).all(JSON.stringify(keys)) as { key: number; doc: string }[];
    return documentsInKeyOrder(keys, rows);
  }

  async resolveIds(ids: readonly string[]): Promise<Map<string, number[]>> {
    this.refresh();
    const out = new Map<string, number[]>();
    const canonical = this.stmt('SELECT key FROM locations WHERE id = ? AND public = 1').pluck();
    const alias = this.stmt(
      'SELECT a.key FROM aliases a CROSS JOIN locations l ON l.key = a.key WHERE a.alias = ? AND l.public = 1 ORDER BY l.id',
    ).pluck();
    // One read transaction, so every id resolves against the same dataset.
    this.reader.transaction(() => {
      for (const id of ids) {
        if (out.has(id)) continue;
        const key = canonical.get(id) as number | undefined;
        if (key !== undefined) {
          out.set(id, [key]);
          continue;
        }
        const keys = alias.all(id) as number[];
        if (keys.length > 0) out.set(id, keys);
      }
    })();
    return out;
  }

  async knownItems(items: readonly string[]): Promise<Set<string>> {
    this.refresh();
    if (items.length === 0) return new Set();
    const rows = this.stmt(
      'SELECT j.value FROM json_each(?) j CROSS JOIN item_keys k ON k.item = j.value WHERE EXISTS ' +
        '(SELECT 1 FROM availability a CROSS JOIN locations l ON l.key = a.key WHERE a.iid = k.iid AND l.public = 1)',
    )
      .pluck()
      .all(JSON.stringify(items)) as string[];
    return new Set(rows);
  }

  async amenityIds(limit: number): Promise<string[]> {
    this.refresh();
    // `amenities` holds public Locations only (schema.ts), so private ones never contribute an id.
    return this.stmt(
      'SELECT k.amenity FROM amenities a CROSS JOIN amenity_keys k ON k.aid = a.aid GROUP BY a.aid ORDER BY COUNT(*) DESC, k.amenity LIMIT ?',
    )
      .pluck()
      .all(limit) as string[];
  }

  async localityModel(): Promise<{ postalCountries: Set<string>; regionCountries: Set<string> }> {
    this.refresh();
    if (this.locality === null) {
      const postal = this.stmt('SELECT DISTINCT country FROM cov_postal').pluck().all() as string[];
      const region = this.stmt('SELECT DISTINCT country FROM cov_region').pluck().all() as string[];
      this.locality = { postalCountries: new Set(postal), regionCountries: new Set(region) };
    }
    // Copies: callers must not be able to alter the cache.
    return { postalCountries: new Set(this.locality.postalCountries), regionCountries: new Set(this.locality.regionCountries) };
  }

  async generation(): Promise<number> {
    this.refresh();
    return this.cachedGeneration;
  }

  async stats(): Promise<StoreStats> {
    this.refresh();
    const r = this.stmt(
      'SELECT (SELECT count(*) FROM locations) AS locations, (SELECT count(*) FROM locations WHERE public = 1) AS publicLocations, ' +
        '(SELECT count(DISTINCT iid) FROM availability) AS items, (SELECT count(*) FROM availability WHERE available = 1) AS availableRows, ' +
        "(SELECT value FROM meta WHERE name = 'generation') AS generation",
    ).get() as StoreStats;
    return { ...r };
  }

  // ───────────────────────── writes ─────────────────────────

  replaceAll(
    records: AsyncIterable<LocationRecord> | Iterable<LocationRecord>,
    onProgress?: (p: ImportProgress) => void,
  ): Promise<ImportResult> {
    return this.exclusive(() => this.replaceAllNow(records, onProgress));
  }

  private async replaceAllNow(
    records: AsyncIterable<LocationRecord> | Iterable<LocationRecord>,
    onProgress?: (p: ImportProgress) => void,
  ): Promise<ImportResult> {
    const db = this.requireWriter('replaceAll');
    db.pragma(`cache_size = -${this.options.importCacheMiB * 1024}`);
    db.exec('BEGIN IMMEDIATE');
    try {
      for (const t of DATASET_TABLES) db.exec(`DROP TABLE IF EXISTS ${t}_next`);
      for (const ddl of datasetTablesDdl('_next')) db.exec(ddl);
      const firstKey = db.prepare("SELECT value FROM meta WHERE name = 'next_key'").pluck().get() as number;
      const loaded = await bulkLoad(db, records, firstKey, this.options.recordsLabel, onProgress);
      // The swap: from here to COMMIT readers still see the old tables, then the new ones.
      for (const t of DATASET_TABLES) db.exec(`DROP TABLE ${t}`);
      for (const t of DATASET_TABLES) db.exec(`ALTER TABLE ${t}_next RENAME TO ${t}`);
      for (const ddl of DATASET_INDEXES_DDL) db.exec(ddl);
      db.prepare("UPDATE meta SET value = ? WHERE name = 'next_key'").run(loaded.nextKey);
      db.exec("UPDATE meta SET value = value + 1 WHERE name IN ('generation', 'dataset')");
      const generation = db.prepare("SELECT value FROM meta WHERE name = 'generation'").pluck().get() as number;
      db.exec('COMMIT');
      // Planner statistics for the few choices left to SQLite (IN-subqueries); bounded cost.
      db.exec('PRAGMA analysis_limit = 1000; PRAGMA optimize;');
      onProgress?.({ phase: 'done', done: loaded.locations, total: loaded.locations });
      return { locations: loaded.locations, publicLocations: loaded.publicLocations, availability: loaded.availability, generation };
    } catch (cause) {
      if (db.inTransaction) db.exec('ROLLBACK');
      if (cause instanceof DataValidationError || cause instanceof StoreError) throw cause;
      throw new StoreError(`Import failed, the previous dataset is unchanged: ${(cause as Error).message}`, false, { cause });
    } finally {
      // Give the import cache back (SQLite shrinks the cache when the limit drops).
      db.pragma(`cache_size = -${this.options.cacheSizeMiB * 1024}`);
    }
  }

  applyInventory(rows: readonly InventoryRow[], file = 'inventory'): Promise<{ applied: number; generation: number }> {
    return this.exclusive(() => {
      const db = this.requireWriter('applyInventory');
      const lookup = db.prepare('SELECT key FROM locations WHERE id = ?').pluck();
      const internItem = db.prepare('INSERT INTO item_keys(item) VALUES (?) ON CONFLICT(item) DO NOTHING');
      const itemId = db.prepare('SELECT iid FROM item_keys WHERE item = ?').pluck();
      const upsert = db.prepare(
        'INSERT INTO availability(iid, key, available) VALUES (?, ?, ?) ON CONFLICT(iid, key) DO UPDATE SET available = excluded.available',
      );
      const run = db.transaction((): { applied: number; generation: number } => {
        const keys: number[] = [];
        const issues: DataIssue[] = [];
        for (const r of rows) {
          const key = lookup.get(r.location_id) as number | undefined;
          if (key === undefined) {
            issues.push({
              file,
              line: r.line,
              field: 'location_id',
              message: `unknown Location id ${JSON.stringify(r.location_id)}; import the Location first or correct the id`,
            });
          }
          keys.push(key ?? -1);
        }
        // Check everything before writing anything: the batch applies whole or not at all.
        if (issues.length > 0) throw new DataValidationError(issues);
        rows.forEach((r, i) => {
          internItem.run(r.item_id);
          upsert.run(itemId.get(r.item_id), keys[i], r.available ? 1 : 0);
        });
        db.exec("UPDATE meta SET value = value + 1 WHERE name = 'generation'");
        return { applied: rows.length, generation: db.prepare("SELECT value FROM meta WHERE name = 'generation'").pluck().get() as number };
      });
      try {
        return run.immediate();
      } catch (cause) {
        if (cause instanceof DataValidationError) throw cause;
        throw new StoreError(`Inventory update failed, nothing was applied: ${(cause as Error).message}`, false, { cause });
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
