/**
 * IndexedLocationStore: a LocationStore that answers every read from an in-memory index of the
 * wrapped store (the system of record), one immutable index per dataset generation.
 *
 *  - Opening builds the first index from the store (`exportIndex`); a server opens it before it
 *    listens, so no call ever meets an index that is not ready.
 *  - Writes go to the store. An inventory batch is applied to the live index in place once the
 *    store committed it (no rebuild). A replaceAll builds the next index; it replaces the live
 *    one in a single assignment, so a reader sees the old index or the new one, never a mix.
 *  - Changes made by other processes: a store with a live change feed (PostgreSQL LISTEN/NOTIFY,
 *    `LocationStore.changeFeed`) tells this process the newest committed generation without a query,
 *    so a request costs no database round trip; a notification starts the catch-up at once
 *    (inventory reloaded in place, or the next index built). While the feed is down (or the
 *    store has none, as SQLite) every request reads the store's generation instead, and waits
 *    for the catch-up before it is answered. Either way a request never mixes generations:
 *    requests already pinned to an index finish on it.
 *  - Writes made through this store are visible to its own next request (read-your-writes);
 *    another instance's writes become visible here once their notification arrives
 *    (`caughtUp(generation)` resolves at that moment: the hook to wait on instead of sleeping).
 *  - `pin()` gives the engine one index for a whole request; a cursor names the index it was
 *    issued from, and the index a swap replaced stays readable for `retainMs` so a walk that
 *    started on it finishes on it.
 */
import { StoreError, UcpRequestError } from '../../errors.js';
import type { Location, LocationRecord, RecordLanguages } from '../../domain/location.js';
import type {
  Candidate,
  CandidateQuery,
  ImportNotesSource,
  ImportProgress,
  ImportResult,
  IndexSink,
  InventoryRow,
  LastImportRecord,
  LocationStore,
  PinnedStore,
  StoredLocation,
  StoreReadiness,
  StoreStats,
} from '../store.js';
import { canExportIndex, type ExportingStore, residentBytesOf } from './index-file-loader.js';
import { type IndexFileOptions, type IndexNeed, obtainIndex } from './index-file-source.js';
import type { MemoryIndex } from './memory-index.js';

export interface IndexedStoreOptions extends IndexFileOptions {
  /** How long a replaced index stays readable for cursor walks begun on it, ms. Default 60 000. */
  retainMs?: number;
  /** At most this many replaced indexes are kept readable (memory bound). Default 2. */
  maxRetained?: number;
  /** Told when a background refresh fails (the previous index keeps answering). */
  onError?: (error: unknown) => void;
  /** Close the wrapped store on close(). Default true. */
  closeSource?: boolean;
  /** Told each time another index replaces the live one (memory accounting). */
  onSwap?: (index: MemoryIndex) => void;
}

/** The read half of the port over an index (which one is the subclass's choice). */
abstract class IndexReads {
  protected abstract readIndex(): MemoryIndex;

  async findCandidates(query: CandidateQuery): Promise<Candidate[]> {
    return this.readIndex().findCandidates(query);
  }
  async getLocations(keys: readonly number[]): Promise<Location[]> {
    return this.readIndex().getLocations(keys);
  }
  async getLanguages(keys: readonly number[]): Promise<Map<number, RecordLanguages>> {
    return this.readIndex().getLanguages(keys);
  }
  async resolveIds(ids: readonly string[]): Promise<Map<string, number[]>> {
    return this.readIndex().resolveIds(ids);
  }
  async knownItems(items: readonly string[]): Promise<Set<string>> {
    return this.readIndex().knownItems(items);
  }
  async amenityIds(limit: number): Promise<string[]> {
    return this.readIndex().amenityIds(limit);
  }
  async localityModel(): Promise<{ postalCountries: Set<string>; regionCountries: Set<string> }> {
    return this.readIndex().localityModel();
  }
}

/** The read half of the port over one index; writes go to the indexed store. */
class IndexView extends IndexReads implements LocationStore {
  readonly kind: string;
  constructor(
    private readonly index: MemoryIndex,
    private readonly owner: IndexedLocationStore,
  ) {
    super();
    this.kind = owner.kind;
  }
  protected readIndex(): MemoryIndex {
    return this.index;
  }
  async generation(): Promise<number> {
    return this.index.generation;
  }
  replaceAll(
    records: AsyncIterable<LocationRecord> | Iterable<LocationRecord>,
    onProgress?: (p: ImportProgress) => void,
    notes?: ImportNotesSource,
  ): Promise<ImportResult> {
    return this.owner.replaceAll(records, onProgress, notes);
  }
  lastImport(): Promise<LastImportRecord | null> {
    return this.owner.lastImport();
  }
  applyInventory(rows: readonly InventoryRow[], file?: string): Promise<{ applied: number; generation: number }> {
    return this.owner.applyInventory(rows, file);
  }
  stats(): Promise<StoreStats> {
    return this.owner.stats();
  }
  storedLocations(): Promise<StoredLocation[]> {
    return this.owner.storedLocations();
  }
  async close(): Promise<void> {
    // A view owns nothing.
  }
}

export class IndexedLocationStore extends IndexReads implements LocationStore {
  readonly kind: string;
  private current: MemoryIndex;
  /** Replaced indexes still readable by cursor walks begun on them, oldest first. */
  private retained: { index: MemoryIndex; until: number }[] = [];
  private rebuilding: Promise<void> | null = null;
  private catchingUp: Promise<void> | null = null;
  private readonly unsubscribe: (() => void) | null;
  /** `caughtUp` callers waiting for the index to reach a generation. */
  private waiters: { generation: number; resolve: () => void; reject: (e: unknown) => void }[] = [];
  private closed = false;
  /** Writes through this store still in flight (their own notifications are not news here). */
  private ownWrites = 0;
  private readonly retainMs: number;
  /**
   * The store's own readiness check when it has one (PostgreSQL: reachable and migrated): the
   * index is only as current as the store it follows, so the store's health is this store's.
   */
  readonly readiness?: () => Promise<StoreReadiness>;

  private constructor(
    private readonly inner: ExportingStore,
    first: MemoryIndex,
    private readonly options: IndexedStoreOptions,
  ) {
    super();
    this.kind = inner.kind;
    this.current = first;
    this.retainMs = options.retainMs ?? 60_000;
    if (inner.readiness !== undefined) this.readiness = inner.readiness.bind(inner);
    this.unsubscribe =
      inner.changeFeed?.onChange(() => {
        // This instance's own write brings the index up itself (in place, or a rebuild); a
        // catch-up started by its notification would only export the same data again.
        if (this.ownWrites === 0) void this.sync().catch((e: unknown) => this.options.onError?.(e));
      }) ?? null;
  }

  /** The newest generation the store's change feed vouches for, or null (no feed, or not live). */
  private notified(): number | null {
    return this.inner.changeFeed?.notifiedGeneration() ?? null;
  }

  /** Wrap `store`, loading (or building) its first index before returning. */
  static async open(store: LocationStore, options: IndexedStoreOptions = {}): Promise<IndexedLocationStore> {
    if (!canExportIndex(store)) {
      throw new StoreError('open_failed', `The ${store.kind} store cannot feed an in-memory index; use index: store for it.`);
    }
    const exporting = store;
    let first: MemoryIndex;
    try {
      first = await obtainIndex(exporting, options, 'start');
    } catch (error) {
      await options.indexFiles?.close?.();
      throw error;
    }
    return new IndexedLocationStore(exporting, first, options);
  }

  /** The live index (tests and statistics). */
  get index(): MemoryIndex {
    return this.current;
  }

  /** What the live index and those kept for cursor walks hold in memory, bytes (index-file-loader.ts). */
  get residentBytes(): number {
    return [this.current, ...this.retained.map((r) => r.index)].reduce((sum, index) => sum + residentBytesOf(index), 0);
  }

  /**
   * Bring the index up to the store's generation before answering: reload availability when
   * only inventory changed, wait for the next index when the dataset changed. The generation is
   * the change feed's while it is live (no round trip), else — or when `strict` — read from the
   * store. Bounded: a failing rebuild leaves the previous index answering.
   */
  private async sync(strict = false): Promise<void> {
    for (let round = 0; round < 3; round++) {
      const g = (strict ? null : this.notified()) ?? (await this.inner.generation());
      if (g <= this.current.generation) return;
      if (this.rebuilding !== null) {
        await this.rebuilding;
        continue;
      }
      this.catchingUp ??= this.catchUp().finally(() => {
        this.catchingUp = null;
      });
      await this.catchingUp;
    }
  }

  private async catchUp(): Promise<void> {
    const rows: [string, number, boolean][] = [];
    const sink: Pick<IndexSink, 'availability'> = { availability: (key, item, available) => rows.push([item, key, available]) };
    const counters = await this.inner.exportAvailability(sink);
    const index = this.current;
    if (counters.dataset !== index.dataset) await this.startRebuild('follow');
    else if (counters.generation > index.generation) {
      index.replaceAvailability(rows, counters.generation);
      this.advanced();
    }
  }

  private startRebuild(need: IndexNeed): Promise<void> {
    this.rebuilding ??= (async () => {
      try {
        const next = await obtainIndex(this.inner, this.options, need);
        if (next.generation > this.current.generation || next.dataset !== this.current.dataset) this.swap(next);
      } catch (error) {
        this.options.onError?.(error);
      } finally {
        this.rebuilding = null;
      }
    })();
    return this.rebuilding;
  }

  private swap(next: MemoryIndex): void {
    if (next.dataset !== this.current.dataset) {
      this.retained.push({ index: this.current, until: Date.now() + this.retainMs });
      if (this.retained.length > (this.options.maxRetained ?? 2)) this.retained.shift();
    }
    this.current = next;
    this.advanced();
    this.options.onSwap?.(next);
  }

  /** The live index moved on: release the `caughtUp` callers it satisfies. */
  private advanced(): void {
    const g = this.current.generation;
    const waiting = this.waiters;
    this.waiters = waiting.filter((w) => w.generation > g);
    for (const w of waiting) if (w.generation <= g) w.resolve();
  }

  /**
   * Resolves once the live index answers from `generation` or newer — the generation a write
   * reported, here or on another instance sharing the store. With a live change feed this waits
   * for the notification (no polling); without one it reads the store's generation once.
   */
  async caughtUp(generation: number): Promise<void> {
    if (this.closed) throw new StoreError('closed', 'The indexed store is closed.');
    if (this.current.generation >= generation) return;
    // No live feed: read the store once. Already notified (the catch-up may have been skipped
    // during a write of our own): catch up now, from the feed.
    const known = this.notified();
    if (known === null || known >= generation) await this.sync(known === null);
    if (this.current.generation >= generation) return;
    await new Promise<void>((resolve, reject) => this.waiters.push({ generation, resolve, reject }));
  }

  /**
   * One index for a whole request. `snapshot` (from a cursor) selects the index the walk began
   * on; when that one is no longer held the walk cannot continue without mixing two datasets,
   * so the cursor is refused (the caller starts the search again).
   */
  async pin(snapshot?: number): Promise<PinnedStore> {
    await this.sync();
    const now = Date.now();
    this.retained = this.retained.filter((r) => r.until >= now);
    let index = this.current;
    if (snapshot !== undefined && snapshot !== index.dataset) {
      const held = this.retained.find((r) => r.index.dataset === snapshot);
      if (held === undefined) {
        throw new UcpRequestError(
          'invalid_cursor',
          'pagination.cursor belongs to a dataset that has since been replaced, so its later pages no longer exist; ' +
            'send the same request without pagination.cursor to page through the current data from the start.',
          '/pagination/cursor',
        );
      }
      index = held.index;
    }
    return { store: new IndexView(index, this), snapshot: index.dataset };
  }

  // ───────────────────────── reads: the live index ─────────────────────────

  protected readIndex(): MemoryIndex {
    return this.current;
  }
  /** The store's generation, read from the store (not the feed), with the index caught up to it. */
  async generation(): Promise<number> {
    await this.sync(true);
    return this.current.generation;
  }

  // ───────────────────────── writes: the store, then the index ─────────────────────────

  async lastImport(): Promise<LastImportRecord | null> {
    return (await this.inner.lastImport?.()) ?? null;
  }

  async replaceAll(
    records: AsyncIterable<LocationRecord> | Iterable<LocationRecord>,
    onProgress?: (p: ImportProgress) => void,
    notes?: ImportNotesSource,
  ): Promise<ImportResult> {
    const result = await this.ownWrite(() => this.inner.replaceAll(records, onProgress, notes));
    // A rebuild already under way may have read the previous dataset: build again after it.
    await this.rebuilding;
    await this.startRebuild('imported');
    return result;
  }

  async applyInventory(rows: readonly InventoryRow[], file?: string): Promise<{ applied: number; generation: number }> {
    const result = await this.ownWrite(() => this.inner.applyInventory(rows, file));
    const index = this.current;
    // In place only when this batch is the one change since the index's generation; otherwise
    // the next sync reloads availability (or the rebuild under way picks it up).
    if (result.generation === index.generation + 1 && this.rebuilding === null) {
      index.applyInventory(rows, result.generation);
      this.advanced();
    } else await this.sync(true);
    return result;
  }

  private async ownWrite<T>(write: () => Promise<T>): Promise<T> {
    this.ownWrites++;
    try {
      return await write();
    } finally {
      this.ownWrites--;
    }
  }

  stats(): Promise<StoreStats> {
    return this.inner.stats();
  }

  /** From the store itself: the index holds public Locations only, and import --dry-run compares private ones too. */
  storedLocations(): Promise<StoredLocation[]> {
    return this.inner.storedLocations();
  }

  async exportIndex(sink: IndexSink): Promise<{ generation: number; dataset: number }> {
    return this.inner.exportIndex(sink);
  }

  async exportAvailability(sink: Pick<IndexSink, 'availability'>): Promise<{ generation: number; dataset: number }> {
    return this.inner.exportAvailability(sink);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.unsubscribe?.();
    const waiting = this.waiters;
    this.waiters = [];
    for (const w of waiting) w.reject(new StoreError('closed', 'The indexed store closed before it caught up.'));
    await this.rebuilding;
    await this.options.indexFiles?.close?.();
    if (this.options.closeSource !== false) await this.inner.close();
  }
}
