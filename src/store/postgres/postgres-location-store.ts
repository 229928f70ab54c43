/**
 * Scale-out LocationStore on PostgreSQL + PostGIS (`pg` pool): the port's face, assembled from
 * its parts.
 *
 * Same division of labour as the SQLite store (see store/store.ts): indexes narrow (GiST over
 * the `geography` points with the engine's conservative boxes, GiST over coverage extents, GIN
 * over text vectors), exact set predicates run in SQL, and the engine applies the exact
 * geodesic / area / hours tests — so both stores give the same answers.
 *
 *  - reads.ts and index-export.ts: the read half, every read through the outage guard
 *    (read-path.ts): when PostgreSQL is unreachable requests fail fast with
 *    ServiceUnavailableError, and the store recovers by itself when it returns;
 *  - writes.ts: `replaceAll` and `applyInventory`, each one transaction under the schema's
 *    writer lock;
 *  - change-feed.ts: the counters this process knows of, kept current by its own writes and by
 *    other processes' notifications (change-listener.ts);
 *  - readiness.ts: `/readyz`.
 */
import pg from 'pg';
import type { ClientConfig, Pool } from 'pg';
import type { Location, LocationRecord, RecordLanguages } from '../../domain/location.js';
import { causeMessage, StoreError } from '../../errors.js';
import type {
  Candidate,
  CandidateQuery,
  ExportCounters,
  ImportNotesSource,
  ImportProgress,
  ImportResult,
  IndexSink,
  InventoryRow,
  LastImportRecord,
  LocationStore,
  StoredLocation,
  StoreReadiness,
  StoreStats,
} from '../store.js';
import { PgChangeFeed, readCounters } from './change-feed.js';
import { ChangeListener, SharedChangeListener } from './change-listener.js';
import { isUnavailable, poolConfig, resolveSettings, type PostgresStoreOptions, type ResolvedPostgresSettings } from './connection.js';
import { exportAvailability, exportIndex } from './index-export.js';
import { extensionSchemas, migrate, schemaMismatch, schemaStatus, type MigrateResult } from './migrations.js';
import { NotificationHub } from './notification-hub.js';
import { OutageGuard } from './outage.js';
import { PgReadPath, type PgStoreContext } from './read-path.js';
import { checkReadiness } from './readiness.js';
import { PgReads } from './reads.js';
import { PgWrites } from './writes.js';

export type { StoreReadiness };

export interface OpenPostgresOptions extends PostgresStoreOptions {
  /** Apply pending migrations on open (tests, single-node setups). Default false: refuse instead. */
  migrate?: boolean;
}

/** int8 (bigint, count(*)) as a JS number: keys and counts stay far below 2^53. */
const TYPES = new pg.TypeOverrides();
TYPES.setTypeParser(pg.types.builtins.INT8, (v: string) => Number(v));

/**
 * Connection settings for migrations and the start-up check: no statement or client-side read
 * timeout (creating PostGIS or building indexes can take longer than any read may).
 */
function adminConfig(settings: ResolvedPostgresSettings): pg.ClientConfig {
  const { query_timeout: _read, statement_timeout: _statement, ...rest } = poolConfig(settings);
  return rest;
}

/** A connected admin client, or the StoreError saying the database cannot be reached. */
async function adminClient(settings: ResolvedPostgresSettings, advice: string): Promise<pg.Client> {
  const client = new pg.Client({ ...adminConfig(settings), types: TYPES });
  try {
    await client.connect();
    return client;
  } catch (cause) {
    await client.end().catch(() => undefined);
    throw new StoreError(
      isUnavailable(cause) ? 'unavailable' : 'open_failed',
      `Cannot connect to PostgreSQL at ${settings.display}: ${causeMessage(cause)}${advice}`,
      { cause },
    );
  }
}

/** Check the schema (migrating it first when asked) and name the schemas holding the extensions. */
async function checkSchema(boot: pg.Client, settings: ResolvedPostgresSettings, migrateFirst: boolean): Promise<string[]> {
  try {
    if (migrateFirst) await migrate(boot, settings.schema);
    const status = await schemaStatus(boot, settings.schema);
    const mismatch = schemaMismatch(status, settings.schema, settings.display);
    if (mismatch !== null) throw mismatch;
    return await extensionSchemas(boot);
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
}

export class PostgresLocationStore implements LocationStore {
  readonly kind = 'postgres';
  /** Committed changes as this process hears of them (LocationStore.changeFeed). */
  readonly changeFeed = new PgChangeFeed();

  #closed = false;
  readonly #ctx: PgStoreContext;
  readonly #path: PgReadPath;
  readonly #reads: PgReads;
  readonly #writes: PgWrites;
  #listener: ChangeListener | SharedChangeListener | null = null;

  private constructor(pool: Pool, settings: ResolvedPostgresSettings, guard: OutageGuard) {
    this.#ctx = {
      pool,
      settings,
      guard,
      feed: this.changeFeed,
      assertOpen: () => {
        if (this.#closed) throw new StoreError('closed', 'The PostgreSQL store is closed.');
      },
    };
    this.#path = new PgReadPath(this.#ctx);
    this.#reads = new PgReads(this.#ctx, this.#path);
    this.#writes = new PgWrites(this.#ctx);
  }

  /**
   * Connect, check the schema (or migrate it with `migrate: true`) and start listening for
   * changes. Throws StoreError with the action to take when the database is unreachable,
   * unmigrated or newer than this release.
   */
  static async open(url: string, options: OpenPostgresOptions = {}): Promise<PostgresLocationStore> {
    const settings = resolveSettings(url, options);
    const boot = await adminClient(
      settings,
      '. Check that the server is running and the URL (host, port, database, user, password) is right.',
    );
    const extSchemas = await checkSchema(boot, settings, options.migrate === true);

    const config = { ...poolConfig(settings, extSchemas), types: TYPES };
    const pool = new pg.Pool(config);
    const guard = new OutageGuard(settings.outageProbeMs, settings.retryAfterSeconds, options.logger, `postgres ${settings.schema}`);
    // An idle pooled connection that dies (server restart) emits 'error' on the pool; without a
    // handler Node would crash the process. One dropped idle connection is not an outage: the
    // next query retries on a fresh connection, and only a second loss means 503.
    // (Not logged: during a restart every idle connection reports; the guard logs the outage once.)
    pool.on('error', () => undefined);
    const store = new PostgresLocationStore(pool, settings, guard);
    const listenerConfig = { ...config, query_timeout: settings.statementTimeoutMs + 2000 };
    const shared = settings.listen && options.sharedNotifications === true;
    let listener: ChangeListener | SharedChangeListener | null = null;
    if (shared) {
      listener = new SharedChangeListener(
        NotificationHub.acquire(listenerConfig, options.logger),
        settings.schema,
        () => store.#path.countersFromDb(),
        (c) => store.changeFeed.observe(c),
      );
    } else if (settings.listen) {
      listener = new ChangeListener(
        listenerConfig,
        settings.schema,
        async (client) => readCounters(client),
        (c) => store.changeFeed.observe(c),
        options.logger,
      );
    }
    store.#sharedNotifications = shared;
    store.#listener = listener;
    store.changeFeed.attach(listener);
    store.#indexFileConfig = config;
    try {
      await store.#path.read('counter read', () => store.#path.countersFromDb());
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
  #sharedNotifications = false;

  /**
   * What the index-file home (memory-index/index-file-postgres.ts) needs to keep its files in
   * this store's schema: the schema and a connection config of its own (its reads and writes
   * move hundreds of MiB, and it listens for other instances' files).
   */
  indexFileAccess(): { schema: string; clientConfig: ClientConfig; sharedNotifications: boolean } {
    this.#ctx.assertOpen();
    return { schema: this.#ctx.settings.schema, clientConfig: this.#indexFileConfig ?? {}, sharedNotifications: this.#sharedNotifications };
  }

  /** Apply pending migrations (the `migrate` CLI verb). */
  static async migrate(url: string, options: PostgresStoreOptions = {}): Promise<MigrateResult & { schema: string; display: string }> {
    const settings = resolveSettings(url, options);
    const client = await adminClient(settings, '');
    try {
      return { ...(await migrate(client, settings.schema)), schema: settings.schema, display: settings.display };
    } finally {
      await client.end().catch(() => undefined);
    }
  }

  get schema(): string {
    return this.#ctx.settings.schema;
  }

  /** True while change notifications arrive (else `generation()` queries every time). */
  get listening(): boolean {
    return this.changeFeed.live;
  }

  readiness(): Promise<StoreReadiness> {
    return checkReadiness(this.#ctx, this.#closed);
  }

  // ───────────────────────── reads ─────────────────────────

  findCandidates(query: CandidateQuery): Promise<Candidate[]> {
    return this.#reads.findCandidates(query);
  }
  getLocations(keys: readonly number[]): Promise<Location[]> {
    return this.#reads.getLocations(keys);
  }
  getLanguages(keys: readonly number[]): Promise<Map<number, RecordLanguages>> {
    return this.#reads.getLanguages(keys);
  }
  resolveIds(ids: readonly string[]): Promise<Map<string, number[]>> {
    return this.#reads.resolveIds(ids);
  }
  knownItems(items: readonly string[]): Promise<Set<string>> {
    return this.#reads.knownItems(items);
  }
  amenityIds(limit: number): Promise<string[]> {
    return this.#reads.amenityIds(limit);
  }
  localityModel(): Promise<{ postalCountries: Set<string>; regionCountries: Set<string> }> {
    return this.#reads.localityModel();
  }
  generation(): Promise<number> {
    return this.#reads.generation();
  }
  storedLocations(): Promise<StoredLocation[]> {
    return this.#reads.storedLocations();
  }
  stats(): Promise<StoreStats> {
    return this.#reads.stats();
  }
  lastImport(): Promise<LastImportRecord | null> {
    return this.#reads.lastImport();
  }
  exportIndex(sink: IndexSink): Promise<ExportCounters> {
    return exportIndex(this.#path, sink);
  }
  exportAvailability(sink: Pick<IndexSink, 'availability'>): Promise<ExportCounters> {
    return exportAvailability(this.#path, sink);
  }

  // ───────────────────────── writes ─────────────────────────

  replaceAll(
    records: AsyncIterable<LocationRecord> | Iterable<LocationRecord>,
    onProgress?: (p: ImportProgress) => void,
    notes?: ImportNotesSource,
  ): Promise<ImportResult> {
    return this.#writes.replaceAll(records, onProgress, notes);
  }
  applyInventory(rows: readonly InventoryRow[], file?: string): Promise<{ applied: number; generation: number }> {
    return this.#writes.applyInventory(rows, file);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#listener?.close();
    await this.#ctx.pool.end().catch(() => undefined);
  }
}
