/**
 * The write half of the PostgreSQL store's port: `replaceAll` and `applyInventory`. Each runs in
 * one transaction (`withWriteTransaction`) under an advisory lock — one writer per schema at a
 * time, across every process — and readers see the old data until commit. Each write bumps
 * `meta.generation` and sends a NOTIFY, which every instance's change feed turns into news.
 */
import type pg from 'pg';
import type { PoolClient, QueryResultRow } from 'pg';
import type { LocationRecord } from '../../domain/location.js';
import { causeMessage, DataValidationError, StoreError } from '../../errors.js';
import { importRecordJson } from '../import-notes.js';
import { resolveInventoryRows } from '../inventory-check.js';
import { deriveUniqueRow } from '../record-rows.js';
import type { ImportNotesSource, ImportProgress, ImportResult, InventoryRow } from '../store.js';
import { readCounters } from './change-feed.js';
import type { Counters } from './change-listener.js';
import { isUnavailable } from './connection.js';
import { DATASET_INDEX_NAMES, DATASET_TABLES, datasetIndexesDdl, datasetTablesDdl } from './dataset-ddl.js';
import { ImportBatch } from './import-batch.js';
import { CHANGE_CHANNEL, LOCK_NAMESPACE_WRITE } from './migrations.js';
import type { PgStoreContext } from './read-path.js';

/** Records per multi-row INSERT during replaceAll. */
const BATCH = 2000;
/** Records between two progress reports. */
const PROGRESS_EVERY = 10_000;
/** Availability rows per INSERT of an inventory batch. */
const INVENTORY_CHUNK = 10_000;
/** Effectively "no client-side timeout" for writes (pg treats 0 as "use the default"). */
const NO_TIMEOUT_MS = 24 * 3600 * 1000;

/**
 * A write statement with its own client-side timeout: `pg` honours `query_timeout` per query,
 * though @types/pg's QueryConfig does not list it.
 */
interface TimedQuery extends pg.QueryConfig {
  query_timeout: number;
}

/** One write transaction's connection: its statements, and the counter bump that ends it. */
export class WriteTransaction {
  /** The counters this transaction's bump will publish at commit (none without a bump). */
  bumped: Counters | null = null;

  constructor(
    private readonly client: PoolClient,
    private readonly schema: string,
  ) {}

  /** Write statements have no client-side timeout (imports build indexes over large tables). */
  w<R extends QueryResultRow = QueryResultRow>(text: string, values: unknown[] = []): Promise<pg.QueryResult<R>> {
    const query: TimedQuery = { text, values, query_timeout: NO_TIMEOUT_MS };
    return this.client.query<R>(query);
  }

  /** Count the change (the dataset too for a replaceAll) and tell every instance at commit. */
  async bump(datasetToo: boolean): Promise<Counters> {
    const names = datasetToo ? ['generation', 'dataset'] : ['generation'];
    await this.w('UPDATE meta SET value = value + 1 WHERE name = ANY($1::text[])', [names]);
    const counters = await readCounters(this.client);
    await this.w('SELECT pg_notify($1, $2)', [CHANGE_CHANNEL, `${this.schema} ${counters.generation} ${counters.dataset}`]);
    this.bumped = counters;
    return counters;
  }
}

interface WriteOptions {
  /** Names the write in errors: 'Import', 'Inventory update'. */
  operation: string;
  /** What a failure leaves behind, for the error: 'the previous dataset is unchanged'. */
  unchanged: string;
  /** How long to wait for a running write's lock (PostgreSQL interval); default: as configured. */
  lockWait?: string;
}

export class PgWrites {
  constructor(private readonly ctx: PgStoreContext) {}

  /**
   * Run `body` in one transaction holding the schema's writer lock: committed whole, or rolled
   * back whole with a StoreError saying nothing changed. The counters the body bumped reach the
   * change feed after commit (this process reads its own writes at once).
   */
  async withWriteTransaction<T>(options: WriteOptions, body: (tx: WriteTransaction) => Promise<T>): Promise<T> {
    const client = await this.connect(options.operation);
    const tx = new WriteTransaction(client, this.ctx.settings.schema);
    let broken = false;
    try {
      await tx.w('BEGIN');
      await tx.w('SET LOCAL statement_timeout = 0');
      if (options.lockWait !== undefined) await tx.w(`SET LOCAL lock_timeout = '${options.lockWait}'`);
      await tx.w('SELECT pg_advisory_xact_lock($1, hashtext($2))', [LOCK_NAMESPACE_WRITE, this.ctx.settings.schema]);
      const result = await body(tx);
      await tx.w('COMMIT');
      if (tx.bumped !== null) this.ctx.feed.observe(tx.bumped);
      return result;
    } catch (cause) {
      try {
        await client.query('ROLLBACK');
      } catch {
        broken = true;
      }
      if (cause instanceof DataValidationError || cause instanceof StoreError) throw cause;
      const unreachable = isUnavailable(cause);
      if (unreachable) broken = true;
      throw new StoreError(
        unreachable ? 'unavailable' : 'write_failed',
        `${options.operation} failed, ${options.unchanged}: ${causeMessage(cause)}${unreachable ? ' (PostgreSQL unreachable; retry when it is back)' : ''}`,
        { cause },
      );
    } finally {
      client.release(broken);
    }
  }

  /** A pooled client for a write transaction; unreachability becomes a transient StoreError. */
  private async connect(operation: string): Promise<PoolClient> {
    this.ctx.assertOpen();
    try {
      return await this.ctx.pool.connect();
    } catch (cause) {
      throw new StoreError(
        'unavailable',
        `${operation} failed, nothing was changed: cannot reach PostgreSQL at ${this.ctx.settings.display} (${causeMessage(cause)}); retry when it is back.`,
        { cause },
      );
    }
  }

  replaceAll(
    source: AsyncIterable<LocationRecord> | Iterable<LocationRecord>,
    onProgress?: (p: ImportProgress) => void,
    notes?: ImportNotesSource,
  ): Promise<ImportResult> {
    const label = this.ctx.settings.recordsLabel;
    return this.withWriteTransaction({ operation: 'Import', unchanged: 'the previous dataset is unchanged' }, async (tx) => {
      for (const t of DATASET_TABLES) await tx.w(`DROP TABLE IF EXISTS ${t}_next`);
      for (const ddl of datasetTablesDdl('_next')) await tx.w(ddl);
      const nextKeyRow = await tx.w<{ value: number }>("SELECT value FROM meta WHERE name = 'next_key'");
      let nextKey = nextKeyRow.rows[0]?.value ?? 1;
      const seen = new Set<string>();
      let count = 0;
      let publicCount = 0;
      let availability = 0;
      let batch = new ImportBatch();
      for await (const record of source) {
        count++;
        const row = deriveUniqueRow(record, seen, label, count);
        batch.add(row, nextKey++);
        availability += row.items.length;
        if (row.isPublic) publicCount++;
        if (batch.size >= BATCH) {
          await batch.write((text, values) => tx.w(text, values));
          batch = new ImportBatch();
        }
        if (count % PROGRESS_EVERY === 0) onProgress?.({ phase: 'writing', done: count });
      }
      if (batch.size > 0) await batch.write((text, values) => tx.w(text, values));
      onProgress?.({ phase: 'indexing', done: count, total: count });
      await tx.w(
        "INSERT INTO vocab_next (term, docs) SELECT word, ndoc FROM ts_stat('SELECT tsv FROM locations_next WHERE public AND tsv IS NOT NULL')",
      );
      for (const ddl of datasetIndexesDdl('_next')) await tx.w(ddl);
      for (const t of DATASET_TABLES) await tx.w(`ANALYZE ${t}_next`);
      // The swap: readers are held only from here to COMMIT (milliseconds). A reader that holds
      // a table lock longer than this makes the import fail cleanly rather than wait forever.
      await tx.w("SET LOCAL lock_timeout = '30s'");
      await tx.w(`DROP TABLE ${DATASET_TABLES.join(', ')}`);
      for (const t of DATASET_TABLES) await tx.w(`ALTER TABLE ${t}_next RENAME TO ${t}`);
      for (const i of DATASET_INDEX_NAMES) await tx.w(`ALTER INDEX ${i}_next RENAME TO ${i}`);
      await tx.w("UPDATE meta SET value = $1 WHERE name = 'next_key'", [nextKey]);
      const counters = await tx.bump(true);
      const result = { locations: count, publicLocations: publicCount, availability, generation: counters.generation };
      await tx.w('INSERT INTO last_import (id, json) VALUES (1, $1) ON CONFLICT (id) DO UPDATE SET json = excluded.json', [
        importRecordJson(result, notes),
      ]);
      return result;
    }).then((result) => {
      onProgress?.({ phase: 'done', done: result.locations, total: result.locations });
      return result;
    });
  }

  applyInventory(rows: readonly InventoryRow[], file = 'inventory'): Promise<{ applied: number; generation: number }> {
    // Wait for a running import rather than fail (it holds the same lock), but not forever.
    const options = { operation: 'Inventory update', unchanged: 'nothing was applied', lockWait: '15min' };
    return this.withWriteTransaction(options, async (tx) => {
      const ids = [...new Set(rows.map((r) => r.location_id))];
      const found = await tx.w<{ id: string; key: number }>('SELECT id, key FROM locations WHERE id = ANY($1::text[])', [ids]);
      const keyOf = new Map(found.rows.map((r) => [r.id, r.key]));
      const resolved = resolveInventoryRows(rows, (id) => keyOf.get(id), file);
      // One row per (item, location); the last line wins, as when rows are applied in order.
      const last = new Map<string, { item: string; key: number; available: boolean }>();
      for (const { row, key } of resolved) last.set(`${key}\u0000${row.item_id}`, { item: row.item_id, key, available: row.available });
      const list = [...last.values()];
      for (let i = 0; i < list.length; i += INVENTORY_CHUNK) {
        const part = list.slice(i, i + INVENTORY_CHUNK);
        await tx.w(
          `INSERT INTO availability (item, key, available) SELECT * FROM unnest($1::text[], $2::bigint[], $3::boolean[])
           ON CONFLICT (item, key) DO UPDATE SET available = excluded.available`,
          [part.map((x) => x.item), part.map((x) => x.key), part.map((x) => x.available)],
        );
      }
      const counters = await tx.bump(false);
      return { applied: rows.length, generation: counters.generation };
    });
  }
}
