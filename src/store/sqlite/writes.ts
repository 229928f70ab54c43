/**
 * The write half of the SQLite store's port: `replaceAll` and `applyInventory`, on the writer
 * connection. Writes are serialised inside the process by a promise chain and across processes
 * by SQLite's write lock; each runs in one `withWriteTransaction`, so it commits whole or leaves
 * the store as it was.
 */
import type Database from 'better-sqlite3';
import type { LocationRecord } from '../../domain/location.js';
import { causeMessage, DataValidationError, StoreError } from '../../errors.js';
import { importRecordJson } from '../import-notes.js';
import { resolveInventoryRows } from '../inventory-check.js';
import type { ImportNotesSource, ImportProgress, ImportResult, InventoryRow } from '../store.js';
import { bulkLoad } from './bulk-import.js';
import { one } from './read-connection.js';
import { DATASET_INDEXES_DDL, DATASET_TABLES, datasetTablesDdl } from './schema.js';

export interface WriteSettings {
  /** Name used for import records in DataValidationError issues. */
  recordsLabel: string;
  /** Page cache of the writer during replaceAll, MiB. */
  importCacheMiB: number;
  /** Page cache of the writer otherwise, MiB. */
  cacheSizeMiB: number;
}

export class SqliteWrites {
  private chain: Promise<unknown> = Promise.resolve();

  constructor(
    /** Null for a store opened read-only: every write is refused. */
    private readonly db: Database.Database | null,
    private readonly settings: WriteSettings,
    private readonly assertOpen: () => void,
  ) {}

  /** Resolves once every write started so far has finished (close waits for it). */
  async idle(): Promise<void> {
    await this.chain;
  }

  /** Run write operations one after another (a transaction must not interleave on one connection). */
  private exclusive<T>(task: () => Promise<T> | T): Promise<T> {
    const run = this.chain.then(task, task);
    this.chain = run.catch(() => undefined);
    return run;
  }

  private writer(operation: string): Database.Database {
    this.assertOpen();
    if (this.db === null) throw new StoreError('read_only', `${operation} needs a writable store; this one was opened read-only.`);
    return this.db;
  }

  /**
   * Run `body` in one immediate transaction on the writer: committed whole, or rolled back whole
   * with `failure` ("Import failed, the previous dataset is unchanged") leading the StoreError.
   * Called inside `exclusive`.
   */
  private async withWriteTransaction<T>(db: Database.Database, failure: string, body: () => Promise<T> | T): Promise<T> {
    db.exec('BEGIN IMMEDIATE');
    try {
      const result = await body();
      db.exec('COMMIT');
      return result;
    } catch (cause) {
      if (db.inTransaction) db.exec('ROLLBACK');
      if (cause instanceof DataValidationError || cause instanceof StoreError) throw cause;
      throw new StoreError('write_failed', `${failure}: ${causeMessage(cause)}`, { cause });
    }
  }

  replaceAll(
    records: AsyncIterable<LocationRecord> | Iterable<LocationRecord>,
    onProgress?: (p: ImportProgress) => void,
    notes?: ImportNotesSource,
  ): Promise<ImportResult> {
    return this.exclusive(async () => {
      const db = this.writer('replaceAll');
      db.pragma(`cache_size = -${this.settings.importCacheMiB * 1024}`);
      try {
        const result = await this.withWriteTransaction(db, 'Import failed, the previous dataset is unchanged', async () => {
          for (const t of DATASET_TABLES) db.exec(`DROP TABLE IF EXISTS ${t}_next`);
          for (const ddl of datasetTablesDdl('_next')) db.exec(ddl);
          const firstKey = one(db.prepare<[], number>("SELECT value FROM meta WHERE name = 'next_key'").pluck());
          const loaded = await bulkLoad(db, records, firstKey, this.settings.recordsLabel, onProgress);
          // The swap: from here to COMMIT readers still see the old tables, then the new ones.
          for (const t of DATASET_TABLES) db.exec(`DROP TABLE ${t}`);
          for (const t of DATASET_TABLES) db.exec(`ALTER TABLE ${t}_next RENAME TO ${t}`);
          for (const ddl of DATASET_INDEXES_DDL) db.exec(ddl);
          db.prepare("UPDATE meta SET value = ? WHERE name = 'next_key'").run(loaded.nextKey);
          db.exec("UPDATE meta SET value = value + 1 WHERE name IN ('generation', 'dataset')");
          const generation = one(db.prepare<[], number>("SELECT value FROM meta WHERE name = 'generation'").pluck());
          const { locations, publicLocations, availability } = loaded;
          const done: ImportResult = { locations, publicLocations, availability, generation };
          db.prepare<[string]>('INSERT OR REPLACE INTO last_import (id, json) VALUES (1, ?)').run(importRecordJson(done, notes));
          return done;
        });
        // Planner statistics for the few choices left to SQLite (IN-subqueries); bounded cost.
        db.exec('PRAGMA analysis_limit = 1000; PRAGMA optimize;');
        onProgress?.({ phase: 'done', done: result.locations, total: result.locations });
        return result;
      } finally {
        // Give the import cache back (SQLite shrinks the cache when the limit drops).
        db.pragma(`cache_size = -${this.settings.cacheSizeMiB * 1024}`);
      }
    });
  }

  applyInventory(rows: readonly InventoryRow[], file = 'inventory'): Promise<{ applied: number; generation: number }> {
    return this.exclusive(() => {
      const db = this.writer('applyInventory');
      const lookup = db.prepare<[string], number>('SELECT key FROM locations WHERE id = ?').pluck();
      const internItem = db.prepare<[string]>('INSERT INTO item_keys(item) VALUES (?) ON CONFLICT(item) DO NOTHING');
      const itemId = db.prepare<[string], number>('SELECT iid FROM item_keys WHERE item = ?').pluck();
      const generation = db.prepare<[], number>("SELECT value FROM meta WHERE name = 'generation'").pluck();
      const upsert = db.prepare<[iid: number, key: number, available: 0 | 1]>(
        'INSERT INTO availability(iid, key, available) VALUES (?, ?, ?) ON CONFLICT(iid, key) DO UPDATE SET available = excluded.available',
      );
      return this.withWriteTransaction(db, 'Inventory update failed, nothing was applied', () => {
        const resolved = resolveInventoryRows(rows, (id) => lookup.get(id), file);
        for (const { row, key } of resolved) {
          internItem.run(row.item_id);
          upsert.run(one(itemId, row.item_id), key, row.available ? 1 : 0);
        }
        db.exec("UPDATE meta SET value = value + 1 WHERE name = 'generation'");
        return { applied: rows.length, generation: one(generation) };
      });
    });
  }
}
