/**
 * Embedded LocationStore on SQLite (better-sqlite3 12): WAL, R*Tree, FTS5 — the port's face,
 * assembled from its parts.
 *
 * Two connections per store (connections.ts): a *reader* for every query and a *writer* for
 * replaceAll / applyInventory, so readers keep seeing the last committed dataset while an import
 * runs.
 *  - candidates.ts (with candidate-sql.ts) and reads.ts: the read half, on the reader
 *    (read-connection.ts notices other connections' commits);
 *  - index-export.ts: one snapshot for an in-memory index;
 *  - writes.ts: the write half, one transaction per write, one write at a time.
 */
import type { Location, LocationRecord, RecordLanguages } from '../../domain/location.js';
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
  StoreStats,
} from '../store.js';
import { SqliteCandidates } from './candidates.js';
import { TEXT_DRIVER_MAX_ESTIMATE } from './candidate-sql.js';
import { openConnections, removeScratch } from './connections.js';
import { exportAvailability, exportIndex } from './index-export.js';
import { ReadConnection } from './read-connection.js';
import { SqliteReads } from './reads.js';
import { SqliteWrites } from './writes.js';

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

/** Default of SqliteStoreOptions.browseDriverMax. */
const BROWSE_DRIVER_MAX = 20_000;

export class SqliteLocationStore implements LocationStore {
  readonly kind = 'sqlite';

  private closed = false;
  private readonly conn: ReadConnection;
  private readonly candidates: SqliteCandidates;
  private readonly reads: SqliteReads;
  private readonly writes: SqliteWrites;

  private constructor(
    reader: ReadConnection,
    private readonly writer: { close(): void } | null,
    candidates: SqliteCandidates,
    writes: SqliteWrites,
    /** Directory to delete on close (the backing file of a ':memory:' store). */
    private readonly scratchDir: string | null,
  ) {
    this.conn = reader;
    this.candidates = candidates;
    this.reads = new SqliteReads(reader);
    this.writes = writes;
  }

  /**
   * Open (creating and migrating when needed) the store at `path`. `':memory:'` gives a private,
   * throw-away store: it lives in a temporary file removed on close, because the reader/writer
   * split needs two connections to one database, which SQLite's in-memory databases cannot share.
   */
  static async open(path: string, options: SqliteStoreOptions = {}): Promise<SqliteLocationStore> {
    const { reader, writer, scratchDir } = openConnections(path, options);
    const conn = new ReadConnection(reader);
    const candidates = new SqliteCandidates(conn, {
      textDriverMaxEstimate: options.textDriverMaxEstimate ?? TEXT_DRIVER_MAX_ESTIMATE,
      browseDriverMax: options.browseDriverMax ?? BROWSE_DRIVER_MAX,
    });
    const settings = {
      recordsLabel: options.recordsLabel ?? 'records',
      importCacheMiB: options.importCacheMiB ?? 512,
      cacheSizeMiB: options.cacheSizeMiB ?? 64,
    };
    const writes = new SqliteWrites(writer, settings, () => conn.assertOpen());
    return new SqliteLocationStore(conn, writer, candidates, writes, scratchDir);
  }

  // ───────────────────────── reads ─────────────────────────

  async findCandidates(query: CandidateQuery): Promise<Candidate[]> {
    return this.candidates.findCandidates(query);
  }
  async getLocations(keys: readonly number[]): Promise<Location[]> {
    return this.reads.getLocations(keys);
  }
  async getLanguages(keys: readonly number[]): Promise<Map<number, RecordLanguages>> {
    return this.reads.getLanguages(keys);
  }
  async resolveIds(ids: readonly string[]): Promise<Map<string, number[]>> {
    return this.reads.resolveIds(ids);
  }
  async knownItems(items: readonly string[]): Promise<Set<string>> {
    return this.reads.knownItems(items);
  }
  async amenityIds(limit: number): Promise<string[]> {
    return this.reads.amenityIds(limit);
  }
  async localityModel(): Promise<{ postalCountries: Set<string>; regionCountries: Set<string> }> {
    return this.reads.localityModel();
  }
  async generation(): Promise<number> {
    return this.reads.generation();
  }
  async storedLocations(): Promise<StoredLocation[]> {
    return this.reads.storedLocations();
  }
  async stats(): Promise<StoreStats> {
    return this.reads.stats();
  }
  async lastImport(): Promise<LastImportRecord | null> {
    return this.reads.lastImport();
  }
  async exportIndex(sink: IndexSink): Promise<ExportCounters> {
    return exportIndex(this.conn, sink);
  }
  async exportAvailability(sink: Pick<IndexSink, 'availability'>): Promise<ExportCounters> {
    return exportAvailability(this.conn, sink);
  }

  // ───────────────────────── writes ─────────────────────────

  replaceAll(
    records: AsyncIterable<LocationRecord> | Iterable<LocationRecord>,
    onProgress?: (p: ImportProgress) => void,
    notes?: ImportNotesSource,
  ): Promise<ImportResult> {
    return this.writes.replaceAll(records, onProgress, notes);
  }
  applyInventory(rows: readonly InventoryRow[], file?: string): Promise<{ applied: number; generation: number }> {
    return this.writes.applyInventory(rows, file);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.writes.idle();
    this.closed = true;
    this.candidates.close();
    this.conn.close();
    this.writer?.close();
    removeScratch(this.scratchDir);
  }
}
