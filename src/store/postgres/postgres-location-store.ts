/**
 * Scale-out LocationStore on PostgreSQL + PostGIS (`pg` pool).
 *
 * Same division of labour as the SQLite store (see store/store.ts): indexes narrow (GiST over
 * the `geography` points with the engine's conservative boxes, GiST over coverage extents, GIN
 * over text vectors), exact set predicates run in SQL, and the engine applies the exact
 * geodesic / area / hours tests — so both stores give the same answers.
 *
 * Writes: `replaceAll` and `applyInventory` each run in one transaction under an advisory lock
 * (one writer per schema at a time, across every process); readers see the old data until
 * commit. Each write bumps `meta.generation` and sends a NOTIFY, which every instance's
 * ChangeListener turns into a cache invalidation.
 *
 * Availability: reads go through an OutageGuard — when PostgreSQL is unreachable requests fail
 * fast with ServiceUnavailableError, and the store recovers by itself when it returns.
 */
import pg from 'pg';
import type { ClientConfig, Pool, PoolClient, QueryResultRow } from 'pg';
import { createHash } from 'node:crypto';
import type { Location, LocationRecord, RecordLanguages } from '../../domain/location.js';
import { causeMessage, DataValidationError, ServiceUnavailableError, StoreError, type DataIssue } from '../../errors.js';
import type { TermExpansion, VocabularyEntry } from '../../domain/text.js';
import type {
  Candidate,
  CandidateQuery,
  ExportCounters,
  ImportProgress,
  ImportNotes,
  ImportResult,
  LastImportRecord,
  IndexLocationRow,
  IndexSink,
  InventoryRow,
  LocationStore,
  StoredLocation,
  StoreStats,
} from '../store.js';
import { deriveUniqueRow } from '../record-rows.js';
import { importRecordJson, parseImportRecord } from '../import-notes.js';
import { documentsInKeyOrder, languagesByKey, storedLocationsOf } from '../documents.js';
import { buildPgCandidateSql } from './candidate-sql.js';
import { ChangeListener, type Counters } from './change-listener.js';
import {
  isConnectionLoss,
  isUnavailable,
  poolConfig,
  resolveSettings,
  type PostgresStoreOptions,
  type ResolvedPostgresSettings,
} from './connection.js';
import { DATASET_INDEX_NAMES, DATASET_TABLES, datasetIndexesDdl, datasetTablesDdl } from './dataset-ddl.js';
import {
  CHANGE_CHANNEL,
  extensionSchemas,
  LOCK_NAMESPACE_WRITE,
  migrate,
  schemaMismatch,
  schemaStatus,
  type MigrateResult,
} from './migrations.js';
import { OutageGuard } from './outage.js';
import { buildTextQuery, expandTokenWith, tsvectorLiteral } from './text-search.js';

export interface OpenPostgresOptions extends PostgresStoreOptions {
  /** Apply pending migrations on open (tests, single-node setups). Default false: refuse instead. */
  migrate?: boolean;
}

/** Outcome of a readiness check (`/readyz`). */
export interface StoreReadiness {
  ready: boolean;
  /** Short, public: 'ok' | 'unreachable' | 'schema' | 'error' | 'closed'. */
  reason: 'ok' | 'unreachable' | 'schema' | 'error' | 'closed';
  /** For logs: e.g. "PostgreSQL unreachable: connect ECONNREFUSED …" (may name the host). */
  detail: string;
}

/** Records per multi-row INSERT during replaceAll. */
const BATCH = 2000;
/** Records between two progress reports. */
const PROGRESS_EVERY = 10_000;
/** Effectively "no client-side timeout" for writes (pg treats 0 as "use the default"). */
const NO_TIMEOUT_MS = 24 * 3600 * 1000;
/** Cached fuzzy expansions per dataset; beyond this the cache restarts. */
const EXPANSION_CACHE_LIMIT = 10_000;

/** int8 (bigint, count(*)) as a JS number: keys and counts stay far below 2^53. */
const TYPES = new pg.TypeOverrides();
TYPES.setTypeParser(pg.types.builtins.INT8, (v: string) => Number(v));

interface CandidateRow {
  key: number;
  id: string;
  lat: number | null;
  lon: number | null;
  relevance: number;
  schedule?: string | null;
  coverage?: string | null;
}

function isAsyncIterable<T>(x: AsyncIterable<T> | Iterable<T>): x is AsyncIterable<T> {
  return Symbol.asyncIterator in x;
}

/**
 * A write statement with its own client-side timeout: `pg` honours `query_timeout` per query,
 * though @types/pg's QueryConfig does not list it.
 */
interface TimedQuery extends pg.QueryConfig {
  query_timeout: number;
}

function statementName(text: string): string {
  return `ucp_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
}

/** Column arrays for the unnest-based bulk inserts of one batch. */
class Batch {
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
  pairs = new Map<string, [string[], number[]]>();
  regions: [string[], string[], number[]] = [[], [], []];
  postals: [string[], string[], number[]] = [[], [], []];
  extents: [number[], number[], number[], number[], number[]] = [[], [], [], [], []];

  get size(): number {
    return this.keys.length;
  }

  pair(table: 'aliases' | 'amenities' | 'availability' | 'cov_country', value: string, key: number): void {
    let p = this.pairs.get(table);
    if (p === undefined) {
      p = [[], []];
      this.pairs.set(table, p);
    }
    p[0].push(value);
    p[1].push(key);
  }
}

export class PostgresLocationStore implements LocationStore {
  readonly kind = 'postgres';

  #counters: Counters = { generation: 0, dataset: -1 };
  #expansions = new Map<string, TermExpansion>();
  #expansionDataset = -1;
  #locality: { generation: number; value: { postalCountries: Set<string>; regionCountries: Set<string> } } | null = null;
  #closed = false;
  readonly #changeListeners = new Set<(c: Counters) => void>();

  private constructor(
    private readonly pool: Pool,
    private readonly settings: ResolvedPostgresSettings,
    private readonly guard: OutageGuard,
    private readonly listener: ChangeListener | null,
  ) {}

  /**
   * Connect, check the schema (or migrate it with `migrate: true`) and start listening for
   * changes. Throws StoreError with the action to take when the database is unreachable,
   * unmigrated or newer than this release.
   */
  static async open(url: string, options: OpenPostgresOptions = {}): Promise<PostgresLocationStore> {
    const settings = resolveSettings(url, options);
    const boot = new pg.Client({ ...adminConfig(settings), types: TYPES });
    let extSchemas: string[];
    try {
      await boot.connect();
    } catch (cause) {
      await boot.end().catch(() => undefined);
      throw new StoreError(
        isUnavailable(cause) ? 'unavailable' : 'open_failed',
        `Cannot connect to PostgreSQL at ${settings.display}: ${causeMessage(cause)}. Check that the server is running and the URL (host, port, database, user, password) is right.`,
        { cause },
      );
    }
    try {
      if (options.migrate === true) await migrate(boot, settings.schema);
      const status = await schemaStatus(boot, settings.schema);
      const mismatch = schemaMismatch(status, settings.schema, settings.display);
      if (mismatch !== null) throw mismatch;
      extSchemas = await extensionSchemas(boot);
    } catch (cause) {
      if (cause instanceof StoreError) throw cause;
      throw new StoreError(
        isUnavailable(cause) ? 'unavailable' : 'open_failed',
        `Could not check the PostgreSQL store at ${settings.display}: ${causeMessage(cause)}`,
        { cause },
      );
    } finally {
      await boot.end().catch(() => undefined);
    }

    const config = { ...poolConfig(settings, extSchemas), types: TYPES };
    const pool = new pg.Pool(config);
    const guard = new OutageGuard(settings.outageProbeMs, settings.retryAfterSeconds, options.logger, `postgres ${settings.schema}`);
    // An idle pooled connection that dies (server restart) emits 'error' on the pool; without a
    // handler Node would crash the process. One dropped idle connection is not an outage: the
    // next query retries on a fresh connection, and only a second loss means 503.
    // (Not logged: during a restart every idle connection reports; the guard logs the outage once.)
    pool.on('error', () => undefined);
    let store: PostgresLocationStore | null = null;
    const listener = settings.listen
      ? new ChangeListener(
          { ...config, query_timeout: settings.statementTimeoutMs + 2000 },
          settings.schema,
          async (client) => readCounters(client),
          (c) => store?.observe(c),
          options.logger,
        )
      : null;
    store = new PostgresLocationStore(pool, settings, guard, listener);
    store.#indexFileConfig = config;
    try {
      store.observe(await store.readCountersNow());
      await listener?.start();
    } catch (cause) {
      await store.close();
      throw cause instanceof StoreError
        ? cause
        : new StoreError('open_failed', `Could not start the PostgreSQL store: ${causeMessage(cause)}`, { cause });
    }
    return store;
  }

  #indexFileConfig: ClientConfig | null = null;

  /**
   * What the index-file home (memory-index/index-file-postgres.ts) needs to keep its files in
   * this store's schema: the schema and a connection config of its own (its reads and writes
   * move hundreds of MiB, and it listens for other instances' files).
   */
  indexFileAccess(): { schema: string; clientConfig: ClientConfig } {
    this.assertOpen();
    return { schema: this.settings.schema, clientConfig: this.#indexFileConfig ?? {} };
  }

  /** Apply pending migrations (the `migrate` CLI verb). */
  static async migrate(url: string, options: PostgresStoreOptions = {}): Promise<MigrateResult & { schema: string; display: string }> {
    const settings = resolveSettings(url, options);
    const client = new pg.Client({ ...adminConfig(settings), types: TYPES });
    try {
      await client.connect();
    } catch (cause) {
      await client.end().catch(() => undefined);
      throw new StoreError(
        isUnavailable(cause) ? 'unavailable' : 'open_failed',
        `Cannot connect to PostgreSQL at ${settings.display}: ${causeMessage(cause)}`,
        { cause },
      );
    }
    try {
      return { ...(await migrate(client, settings.schema)), schema: settings.schema, display: settings.display };
    } finally {
      await client.end().catch(() => undefined);
    }
  }

  get schema(): string {
    return this.settings.schema;
  }

  /** True while change notifications arrive (else `generation()` queries every time). */
  get listening(): boolean {
    return this.listener?.live ?? false;
  }

  /**
   * The newest committed generation as the change listener tells it, or null while the listener
   * is not live — connecting, reconnecting, or not yet past its re-read of the counters after
   * (re)connecting — so the caller must read the counter row instead. An in-memory index uses
   * this to answer requests without a round trip; this process's own writes update it at commit.
   */
  notifiedGeneration(): number | null {
    return this.listener?.live === true ? this.#counters.generation : null;
  }

  // ───────────────────────── internals ─────────────────────────

  /**
   * Called whenever this process learns of a newer committed generation — from its own write,
   * a notification from another process, or a counter read. Returns an unsubscribe function.
   * (Caches keyed by generation can drop entries eagerly instead of at the next request.)
   */
  onChange(listener: (counters: { generation: number; dataset: number }) => void): () => void {
    this.#changeListeners.add(listener);
    return () => this.#changeListeners.delete(listener);
  }

  /** Keep the highest counters seen (notifications may arrive out of order with our own reads). */
  private observe(c: Counters): void {
    const newer = c.generation > this.#counters.generation;
    if (newer || (c.generation === this.#counters.generation && c.dataset > this.#counters.dataset)) {
      this.#counters = c;
    }
    if (!newer) return;
    if (c.dataset !== this.#expansionDataset && this.#expansionDataset !== -1) {
      this.#expansions.clear();
      this.#expansionDataset = c.dataset;
    }
    for (const l of this.#changeListeners) {
      try {
        l({ ...c });
      } catch {
        // A listener's failure must not break the store.
      }
    }
  }

  private assertOpen(): void {
    if (this.#closed) throw new StoreError('closed', 'The PostgreSQL store is closed.');
  }

  /**
   * Run a read through the outage guard, mapping failures to the two error families. A lost
   * connection is retried once on a fresh one (reads are idempotent): one backend terminated or
   * one stale pooled connection is not an outage; two losses in a row are.
   */
  private async read<T>(what: string, op: () => Promise<T>): Promise<T> {
    this.assertOpen();
    this.guard.enter();
    for (let attempt = 0; ; attempt++) {
      try {
        const result = await op();
        this.guard.succeeded();
        return result;
      } catch (cause) {
        if (isUnavailable(cause)) {
          if (attempt === 0 && !this.guard.down && isConnectionLoss(cause)) continue;
          this.guard.failed(cause);
          throw this.guard.unavailable(cause);
        }
        this.guard.settled();
        if (cause instanceof StoreError || cause instanceof DataValidationError || cause instanceof ServiceUnavailableError) throw cause;
        throw new StoreError('query_failed', `PostgreSQL ${what} failed: ${causeMessage(cause)}`, { cause });
      }
    }
  }

  /** One read statement; common shapes become named prepared statements. */
  private async q<R extends QueryResultRow>(text: string, values: unknown[] = [], named = true): Promise<R[]> {
    const r = await this.pool.query<R>(named ? { name: statementName(text), text, values } : { text, values });
    return r.rows;
  }

  private async readCountersNow(): Promise<Counters> {
    return this.read('counter read', () => this.countersFromDb());
  }

  /** No guard: for use inside `read`. */
  private async countersFromDb(): Promise<Counters> {
    const rows = await this.q<{ name: string; value: number }>(COUNTERS_SQL);
    const c = countersOf(rows);
    this.observe(c);
    return c;
  }

  /**
   * Counters for per-dataset caches: from notifications while the listener is live, else from
   * the database. No guard: callers run it inside `read`.
   */
  private async counters(): Promise<Counters> {
    if (this.listener?.live !== true) return this.countersFromDb();
    return this.#counters;
  }

  private async expand(token: string, dataset: number): Promise<TermExpansion> {
    if (dataset !== this.#expansionDataset) {
      this.#expansions.clear();
      this.#expansionDataset = dataset;
    }
    const known = this.#expansions.get(token);
    if (known !== undefined) return known;
    const e = await expandTokenWith(token, (word, maxEdits) =>
      // `%` uses the GIN trigram index with the low session threshold (connection.ts); the
      // length window and the exact edit distance in closestTerms do the real filtering.
      this.q<VocabularyEntry>('SELECT term, docs FROM vocab WHERE term % $1 AND length(term) BETWEEN $2 AND $3', [
        word,
        word.length - maxEdits,
        word.length + maxEdits,
      ]),
    );
    if (this.#expansions.size >= EXPANSION_CACHE_LIMIT) this.#expansions.clear();
    this.#expansions.set(token, e);
    return e;
  }

  // ───────────────────────── queries ─────────────────────────

  async findCandidates(query: CandidateQuery): Promise<Candidate[]> {
    if (query.keys !== undefined && query.keys.length === 0) return [];
    if (query.regions !== undefined && query.regions.length === 0) return [];
    if (query.limit !== undefined && query.limit <= 0) return [];
    return this.read('candidate query', async () => {
      const terms = query.text?.terms ?? [];
      let text = null;
      if (terms.length > 0) {
        const { dataset } = await this.counters();
        const expansions: TermExpansion[] = [];
        for (const t of terms) expansions.push(await this.expand(t, dataset));
        text = buildTextQuery(expansions);
      }
      const sql = buildPgCandidateSql(query, text);
      const rows = await this.q<CandidateRow>(sql.text, sql.values, sql.common);
      return rows.map((r) => {
        const c: Candidate = {
          key: r.key,
          id: r.id,
          geo: r.lat === null || r.lon === null ? null : { latitude: r.lat, longitude: r.lon },
          relevance: r.relevance,
        };
        if (query.withSchedule === true) c.schedule = r.schedule ?? null;
        if (query.withCoverage === true) c.coverage = r.coverage ?? null;
        return c;
      });
    });
  }

  async getLocations(keys: readonly number[]): Promise<Location[]> {
    if (keys.length === 0) return [];
    const rows = await this.read('document read', () =>
      this.q<{ key: number; doc: string }>(
        'SELECT d.key, d.doc FROM docs d JOIN locations l ON l.key = d.key WHERE d.key = ANY($1::bigint[]) AND l.public',
        [keys],
      ),
    );
    return documentsInKeyOrder(keys, rows);
  }

  async getLanguages(keys: readonly number[]): Promise<Map<number, RecordLanguages>> {
    if (keys.length === 0) return new Map();
    const rows = await this.read('document read', () =>
      this.q<{ key: string; json: string }>(
        'SELECT g.key, g.json FROM languages g JOIN locations l ON l.key = g.key WHERE g.key = ANY($1::bigint[]) AND l.public',
        [keys],
      ),
    );
    return languagesByKey(rows);
  }

  async resolveIds(ids: readonly string[]): Promise<Map<string, number[]>> {
    const out = new Map<string, number[]>();
    if (ids.length === 0) return out;
    const wanted = [...new Set(ids)];
    // One statement, so every id resolves against the same dataset (one snapshot).
    const rows = await this.read('id resolution', () =>
      this.q<{ input: string; key: number; canonical: boolean; id: string }>(
        `SELECT l.id AS input, l.key, true AS canonical, l.id FROM locations l WHERE l.id = ANY($1::text[]) AND l.public
         UNION ALL
         SELECT a.alias AS input, a.key, false AS canonical, l.id FROM aliases a JOIN locations l ON l.key = a.key
          WHERE a.alias = ANY($1::text[]) AND l.public`,
        [wanted],
      ),
    );
    const canonical = new Map<string, number>();
    const aliases = new Map<string, { key: number; id: string }[]>();
    for (const r of rows) {
      if (r.canonical) canonical.set(r.input, r.key);
      else {
        const list = aliases.get(r.input) ?? [];
        list.push({ key: r.key, id: r.id });
        aliases.set(r.input, list);
      }
    }
    for (const id of ids) {
      if (out.has(id)) continue;
      const key = canonical.get(id);
      if (key !== undefined) {
        out.set(id, [key]);
        continue;
      }
      const list = aliases.get(id);
      if (list !== undefined && list.length > 0) {
        // Several Locations sharing an alias come back in id order (code points), as in SQLite.
        list.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
        out.set(id, [...new Set(list.map((x) => x.key))]);
      }
    }
    return out;
  }

  async knownItems(items: readonly string[]): Promise<Set<string>> {
    if (items.length === 0) return new Set();
    const rows = await this.read('item check', () =>
      this.q<{ item: string }>(
        'SELECT w.item FROM unnest($1::text[]) AS w(item) WHERE EXISTS (SELECT 1 FROM availability a JOIN locations l ON l.key = a.key WHERE a.item = w.item AND l.public)',
        [[...new Set(items)]],
      ),
    );
    return new Set(rows.map((r) => r.item));
  }

  async amenityIds(limit: number): Promise<string[]> {
    // `amenities` holds public Locations only (dataset-ddl.ts), so private ones never contribute an id.
    const rows = await this.read('amenity ids', () =>
      this.q<{ amenity: string }>('SELECT amenity FROM amenities GROUP BY amenity ORDER BY count(*) DESC, amenity LIMIT $1', [limit]),
    );
    return rows.map((r) => r.amenity);
  }

  async localityModel(): Promise<{ postalCountries: Set<string>; regionCountries: Set<string> }> {
    const { generation } = await this.read('counter read', () => this.countersFromDb());
    let cached = this.#locality;
    if (cached === null || cached.generation !== generation) {
      const rows = await this.read('locality model', () =>
        this.q<{ kind: string; country: string }>(
          "SELECT DISTINCT 'postal' AS kind, country FROM cov_postal UNION ALL SELECT DISTINCT 'region', country FROM cov_region",
        ),
      );
      const value = { postalCountries: new Set<string>(), regionCountries: new Set<string>() };
      for (const r of rows) (r.kind === 'postal' ? value.postalCountries : value.regionCountries).add(r.country);
      cached = { generation, value };
      this.#locality = cached;
    }
    // Copies: callers must not be able to alter the cache.
    return { postalCountries: new Set(cached.value.postalCountries), regionCountries: new Set(cached.value.regionCountries) };
  }

  /**
   * Always read from the counter row (one primary-key look-up): this store answers searches from
   * the database, so "visible on the next request" must not depend on a notification still in
   * flight. (An in-memory index in front of it follows `notifiedGeneration` instead.)
   */
  async generation(): Promise<number> {
    return (await this.read('counter read', () => this.countersFromDb())).generation;
  }

  /**
   * Run `op` on one connection inside a read-only REPEATABLE READ transaction: every statement
   * sees the same committed snapshot (an export must not straddle a replaceAll).
   */
  private async snapshotRead<T>(
    what: string,
    op: (query: <R extends QueryResultRow>(text: string) => Promise<R[]>) => Promise<T>,
  ): Promise<T> {
    return this.read(what, async () => {
      const client = await this.pool.connect();
      try {
        await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
        const result = await op(async <R extends QueryResultRow>(text: string) => (await client.query<R>(text)).rows);
        await client.query('COMMIT');
        return result;
      } catch (cause) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw cause;
      } finally {
        client.release();
      }
    });
  }

  private static async exportAvailabilityRows(
    query: <R extends QueryResultRow>(text: string) => Promise<R[]>,
    sink: Pick<IndexSink, 'availability'>,
  ): Promise<void> {
    const rows = await query<{ item: string; key: number; available: boolean }>(
      'SELECT a.item, a.key, a.available FROM availability a JOIN locations l ON l.key = a.key WHERE l.public',
    );
    for (const r of rows) sink.availability(Number(r.key), r.item, r.available);
  }

  async exportIndex(sink: IndexSink): Promise<ExportCounters> {
    return this.snapshotRead('index export', async (query) => {
      const counters = countersOf(await query<{ name: string; value: number }>(COUNTERS_SQL));
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
      await PostgresLocationStore.exportAvailabilityRows(query, sink);
      return counters;
    });
  }

  async exportAvailability(sink: Pick<IndexSink, 'availability'>): Promise<ExportCounters> {
    return this.snapshotRead('availability export', async (query) => {
      const counters = countersOf(await query<{ name: string; value: number }>(COUNTERS_SQL));
      await PostgresLocationStore.exportAvailabilityRows(query, sink);
      return counters;
    });
  }

  async storedLocations(): Promise<StoredLocation[]> {
    // One statement, one snapshot: the aliases travel with their Location.
    const rows = await this.read('dataset read', () =>
      this.q<{ id: string; public: boolean; doc: string | null; aliases: string[] }>(
        `SELECT l.id, l.public, d.doc, COALESCE((SELECT array_agg(a.alias) FROM aliases a WHERE a.key = l.key), '{}') AS aliases
           FROM locations l LEFT JOIN docs d ON d.key = l.key`,
      ),
    );
    return storedLocationsOf(
      rows.map(({ id, public: isPublic, doc }) => ({ id, public: isPublic, doc })),
      rows.flatMap((r) => r.aliases.map((alias) => ({ id: r.id, alias }))),
    );
  }

  async stats(): Promise<StoreStats> {
    const rows = await this.read('statistics', () =>
      this.q<StoreStats>(
        `SELECT (SELECT count(*) FROM locations) AS locations, (SELECT count(*) FROM locations WHERE public) AS "publicLocations",
                (SELECT count(DISTINCT item) FROM availability) AS items, (SELECT count(*) FROM availability WHERE available) AS "availableRows",
                (SELECT value FROM meta WHERE name = 'generation') AS generation`,
      ),
    );
    const r = rows[0];
    if (r === undefined) throw new StoreError('query_failed', 'PostgreSQL statistics query returned no row');
    this.observe({ generation: r.generation, dataset: this.#counters.dataset });
    return { ...r };
  }

  /**
   * Readiness for `/readyz`: the database answers and the schema is the one this release needs.
   * Never throws.
   */
  async readiness(): Promise<StoreReadiness> {
    if (this.#closed) return { ready: false, reason: 'closed', detail: 'store closed' };
    if (this.guard.down) {
      // Let the readiness probe act as the outage probe too, so a quiet instance recovers.
      try {
        this.guard.enter();
      } catch {
        return { ready: false, reason: 'unreachable', detail: `PostgreSQL unreachable: ${this.guard.reason}` };
      }
    }
    let client: PoolClient | null = null;
    try {
      client = await this.pool.connect();
      const status = await schemaStatus(client, this.settings.schema);
      this.guard.succeeded();
      const mismatch = schemaMismatch(status, this.settings.schema, this.settings.display);
      if (mismatch !== null) return { ready: false, reason: 'schema', detail: mismatch.message };
      return { ready: true, reason: 'ok', detail: `PostgreSQL schema ${this.settings.schema} at migration ${status.current}` };
    } catch (cause) {
      if (isUnavailable(cause)) {
        this.guard.failed(cause);
        return { ready: false, reason: 'unreachable', detail: `PostgreSQL unreachable: ${causeMessage(cause)}` };
      }
      this.guard.settled();
      return { ready: false, reason: 'error', detail: `PostgreSQL check failed: ${causeMessage(cause)}` };
    } finally {
      client?.release();
    }
  }

  // ───────────────────────── writes ─────────────────────────

  /** A pooled client for a write transaction; unreachability becomes a transient StoreError. */
  private async writer(operation: string): Promise<PoolClient> {
    this.assertOpen();
    try {
      return await this.pool.connect();
    } catch (cause) {
      throw new StoreError(
        'unavailable',
        `${operation} failed, nothing was changed: cannot reach PostgreSQL at ${this.settings.display} (${causeMessage(cause)}); retry when it is back.`,
        { cause },
      );
    }
  }

  /** Write statements have no client-side timeout (imports build indexes over large tables). */
  private static async w<R extends QueryResultRow = QueryResultRow>(
    client: PoolClient,
    text: string,
    values: unknown[] = [],
  ): Promise<pg.QueryResult<R>> {
    const query: TimedQuery = { text, values, query_timeout: NO_TIMEOUT_MS };
    return client.query<R>(query);
  }

  private async bump(client: PoolClient, datasetToo: boolean): Promise<Counters> {
    const names = datasetToo ? ['generation', 'dataset'] : ['generation'];
    await PostgresLocationStore.w(client, 'UPDATE meta SET value = value + 1 WHERE name = ANY($1::text[])', [names]);
    const counters = await readCounters(client);
    await PostgresLocationStore.w(client, 'SELECT pg_notify($1, $2)', [
      CHANGE_CHANNEL,
      `${this.settings.schema} ${counters.generation} ${counters.dataset}`,
    ]);
    return counters;
  }

  async lastImport(): Promise<LastImportRecord | null> {
    const rows = await this.read('last import read', () => this.q<{ json: string }>('SELECT json FROM last_import WHERE id = 1'));
    const json = rows[0]?.json;
    return json === undefined ? null : parseImportRecord(json);
  }

  async replaceAll(
    records: AsyncIterable<LocationRecord> | Iterable<LocationRecord>,
    onProgress?: (p: ImportProgress) => void,
    notes?: ImportNotes,
  ): Promise<ImportResult> {
    const client = await this.writer('Import');
    const w = <R extends QueryResultRow = QueryResultRow>(text: string, values: unknown[] = []): Promise<pg.QueryResult<R>> =>
      PostgresLocationStore.w<R>(client, text, values);
    const label = this.settings.recordsLabel;
    let broken = false;
    try {
      await w('BEGIN');
      await w('SET LOCAL statement_timeout = 0');
      await w('SELECT pg_advisory_xact_lock($1, hashtext($2))', [LOCK_NAMESPACE_WRITE, this.settings.schema]);
      for (const t of DATASET_TABLES) await w(`DROP TABLE IF EXISTS ${t}_next`);
      for (const ddl of datasetTablesDdl('_next')) await w(ddl);
      const nextKeyRow = await w<{ value: number }>("SELECT value FROM meta WHERE name = 'next_key'");
      let nextKey = nextKeyRow.rows[0]?.value ?? 1;
      const seen = new Set<string>();
      let count = 0;
      let publicCount = 0;
      let availability = 0;
      let batch = new Batch();

      const add = (record: LocationRecord): void => {
        count++;
        const row = deriveUniqueRow(record, seen, label, count);
        const key = nextKey++;
        batch.keys.push(key);
        batch.ids.push(row.id);
        batch.publics.push(row.isPublic);
        batch.lats.push(row.lat);
        batch.lons.push(row.lon);
        batch.schedules.push(row.schedule);
        batch.coverages.push(row.coverage);
        for (const item of row.items) batch.pair('availability', item, key);
        availability += row.items.length;
        if (!row.isPublic) {
          batch.tsvs.push(null);
          return;
        }
        // Only public Locations enter the search structures (R-S11).
        publicCount++;
        batch.tsvs.push(tsvectorLiteral(row.text));
        batch.docKeys.push(key);
        batch.docs.push(row.doc);
        if (row.languages !== null) {
          batch.languageKeys.push(key);
          batch.languages.push(row.languages);
        }
        for (const a of row.aliases) batch.pair('aliases', a, key);
        for (const a of row.amenities) batch.pair('amenities', a, key);
        for (const c of row.countries) batch.pair('cov_country', c, key);
        for (const [c, r] of row.regions) {
          batch.regions[0].push(c);
          batch.regions[1].push(r);
          batch.regions[2].push(key);
        }
        for (const [c, p] of row.postalCodes) {
          batch.postals[0].push(c);
          batch.postals[1].push(p);
          batch.postals[2].push(key);
        }
        for (const b of row.coverageExtents) {
          batch.extents[0].push(key);
          batch.extents[1].push(b.minLon);
          batch.extents[2].push(b.minLat);
          batch.extents[3].push(b.maxLon);
          batch.extents[4].push(b.maxLat);
        }
      };
      const flush = async (): Promise<void> => {
        if (batch.size === 0) return;
        const b = batch;
        batch = new Batch();
        await writeBatch(w, b);
      };

      if (isAsyncIterable(records)) {
        for await (const r of records) {
          add(r);
          if (batch.size >= BATCH) await flush();
          if (count % PROGRESS_EVERY === 0) onProgress?.({ phase: 'writing', done: count });
        }
      } else {
        for (const r of records) {
          add(r);
          if (batch.size >= BATCH) await flush();
          if (count % PROGRESS_EVERY === 0) onProgress?.({ phase: 'writing', done: count });
        }
      }
      await flush();
      onProgress?.({ phase: 'indexing', done: count, total: count });
      await w(
        "INSERT INTO vocab_next (term, docs) SELECT word, ndoc FROM ts_stat('SELECT tsv FROM locations_next WHERE public AND tsv IS NOT NULL')",
      );
      for (const ddl of datasetIndexesDdl('_next')) await w(ddl);
      for (const t of DATASET_TABLES) await w(`ANALYZE ${t}_next`);
      // The swap: readers are held only from here to COMMIT (milliseconds). A reader that holds
      // a table lock longer than this makes the import fail cleanly rather than wait forever.
      await w("SET LOCAL lock_timeout = '30s'");
      await w(`DROP TABLE ${DATASET_TABLES.join(', ')}`);
      for (const t of DATASET_TABLES) await w(`ALTER TABLE ${t}_next RENAME TO ${t}`);
      for (const i of DATASET_INDEX_NAMES) await w(`ALTER INDEX ${i}_next RENAME TO ${i}`);
      await w("UPDATE meta SET value = $1 WHERE name = 'next_key'", [nextKey]);
      const counters = await this.bump(client, true);
      const result = { locations: count, publicLocations: publicCount, availability, generation: counters.generation };
      await w('INSERT INTO last_import (id, json) VALUES (1, $1) ON CONFLICT (id) DO UPDATE SET json = excluded.json', [
        importRecordJson(result, notes),
      ]);
      await w('COMMIT');
      this.observe(counters);
      onProgress?.({ phase: 'done', done: count, total: count });
      return result;
    } catch (cause) {
      try {
        await client.query('ROLLBACK');
      } catch {
        broken = true;
      }
      if (cause instanceof DataValidationError || cause instanceof StoreError) throw cause;
      if (isUnavailable(cause)) broken = true;
      throw new StoreError(
        isUnavailable(cause) ? 'unavailable' : 'write_failed',
        `Import failed, the previous dataset is unchanged: ${causeMessage(cause)}${isUnavailable(cause) ? ' (PostgreSQL unreachable; retry when it is back)' : ''}`,
        { cause },
      );
    } finally {
      client.release(broken);
    }
  }

  async applyInventory(rows: readonly InventoryRow[], file = 'inventory'): Promise<{ applied: number; generation: number }> {
    const client = await this.writer('Inventory update');
    const w = <R extends QueryResultRow = QueryResultRow>(text: string, values: unknown[] = []): Promise<pg.QueryResult<R>> =>
      PostgresLocationStore.w<R>(client, text, values);
    let broken = false;
    try {
      await w('BEGIN');
      // Wait for a running import rather than fail (it holds the same lock), but not forever.
      await w('SET LOCAL statement_timeout = 0');
      await w("SET LOCAL lock_timeout = '15min'");
      await w('SELECT pg_advisory_xact_lock($1, hashtext($2))', [LOCK_NAMESPACE_WRITE, this.settings.schema]);
      const ids = [...new Set(rows.map((r) => r.location_id))];
      const found = await w<{ id: string; key: number }>('SELECT id, key FROM locations WHERE id = ANY($1::text[])', [ids]);
      const keyOf = new Map(found.rows.map((r) => [r.id, r.key]));
      const issues: DataIssue[] = [];
      // One row per (item, location); the last line wins, as when rows are applied in order.
      const last = new Map<string, { item: string; key: number; available: boolean }>();
      for (const r of rows) {
        const key = keyOf.get(r.location_id);
        if (key !== undefined) last.set(`${key}\u0000${r.item_id}`, { item: r.item_id, key, available: r.available });
        else {
          issues.push({
            file,
            line: r.line,
            field: 'location_id',
            message: `unknown Location id ${JSON.stringify(r.location_id)}; import the Location first or correct the id`,
          });
        }
      }
      // Check everything before writing anything: the batch applies whole or not at all.
      if (issues.length > 0) throw new DataValidationError(issues);
      const list = [...last.values()];
      for (let i = 0; i < list.length; i += 10_000) {
        const part = list.slice(i, i + 10_000);
        await w(
          `INSERT INTO availability (item, key, available) SELECT * FROM unnest($1::text[], $2::bigint[], $3::boolean[])
           ON CONFLICT (item, key) DO UPDATE SET available = excluded.available`,
          [part.map((x) => x.item), part.map((x) => x.key), part.map((x) => x.available)],
        );
      }
      const counters = await this.bump(client, false);
      await w('COMMIT');
      this.observe(counters);
      return { applied: rows.length, generation: counters.generation };
    } catch (cause) {
      try {
        await client.query('ROLLBACK');
      } catch {
        broken = true;
      }
      if (cause instanceof DataValidationError || cause instanceof StoreError) throw cause;
      if (isUnavailable(cause)) broken = true;
      throw new StoreError(
        isUnavailable(cause) ? 'unavailable' : 'write_failed',
        `Inventory update failed, nothing was applied: ${causeMessage(cause)}`,
        { cause },
      );
    } finally {
      client.release(broken);
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.listener?.close();
    await this.pool.end().catch(() => undefined);
  }
}

/**
 * Connection settings for migrations and the start-up check: no statement or client-side read
 * timeout (creating PostGIS or building indexes can take longer than any read may).
 */
function adminConfig(settings: ResolvedPostgresSettings): pg.ClientConfig {
  const { query_timeout: _read, statement_timeout: _statement, ...rest } = poolConfig(settings);
  return rest;
}

const COUNTERS_SQL = "SELECT name, value FROM meta WHERE name IN ('generation', 'dataset')";

function countersOf(rows: readonly { name: string; value: number }[]): Counters {
  let generation = 0;
  let dataset = 0;
  for (const row of rows) {
    if (row.name === 'generation') generation = Number(row.value);
    else dataset = Number(row.value);
  }
  return { generation, dataset };
}

async function readCounters(client: pg.ClientBase): Promise<Counters> {
  return countersOf((await client.query<{ name: string; value: number }>(COUNTERS_SQL)).rows);
}

type Writer = (text: string, values?: unknown[]) => Promise<pg.QueryResult>;

async function writeBatch(w: Writer, b: Batch): Promise<void> {
  await w(
    `INSERT INTO locations_next (key, id, public, lat, lon, geog, schedule, coverage, tsv)
     SELECT k, i, p, la, lo, CASE WHEN la IS NULL OR lo IS NULL THEN NULL ELSE ST_SetSRID(ST_MakePoint(lo, la), 4326)::geography END, s, c, t::tsvector
       FROM unnest($1::bigint[], $2::text[], $3::boolean[], $4::float8[], $5::float8[], $6::text[], $7::text[], $8::text[]) AS u(k, i, p, la, lo, s, c, t)`,
    [b.keys, b.ids, b.publics, b.lats, b.lons, b.schedules, b.coverages, b.tsvs],
  );
  if (b.docKeys.length > 0) await w('INSERT INTO docs_next (key, doc) SELECT * FROM unnest($1::bigint[], $2::text[])', [b.docKeys, b.docs]);
  if (b.languageKeys.length > 0) {
    await w('INSERT INTO languages_next (key, json) SELECT * FROM unnest($1::bigint[], $2::text[])', [b.languageKeys, b.languages]);
  }
  const pairColumns: Record<string, string> = {
    aliases: 'alias, key',
    amenities: 'amenity, key',
    availability: 'item, key, available',
    cov_country: 'country, key',
  };
  for (const [table, [values, keys]] of b.pairs) {
    if (table === 'availability') {
      // record.items may repeat an item only across records, never within one (deriveRow dedupes).
      await w(`INSERT INTO availability_next (${pairColumns[table]}) SELECT v, k, true FROM unnest($1::text[], $2::bigint[]) AS u(v, k)`, [
        values,
        keys,
      ]);
    } else {
      await w(`INSERT INTO ${table}_next (${pairColumns[table]}) SELECT * FROM unnest($1::text[], $2::bigint[])`, [values, keys]);
    }
  }
  if (b.regions[0].length > 0)
    await w('INSERT INTO cov_region_next (country, region, key) SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[])', b.regions);
  if (b.postals[0].length > 0)
    await w('INSERT INTO cov_postal_next (country, postal, key) SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[])', b.postals);
  if (b.extents[0].length > 0) {
    await w(
      `INSERT INTO coverage_extents_next (key, box)
       SELECT k, ST_MakeEnvelope(x1, y1, x2, y2, 4326) FROM unnest($1::bigint[], $2::float8[], $3::float8[], $4::float8[], $5::float8[]) AS u(k, x1, y1, x2, y2)`,
      b.extents,
    );
  }
}
