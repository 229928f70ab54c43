/**
 * The SQLite store's reading connection: its cached prepared statements and the data counters
 * as of the last look. Every read calls `refresh()` first; caches that belong to one dataset or
 * one generation compare the counters they were filled at with `dataset` / `generation`.
 */
import type Database from 'better-sqlite3';
import { StoreError } from '../../errors.js';
import type { ExportCounters } from '../store.js';

/**
 * A prepared statement whose bind parameters and rows are declared where its SQL is written
 * (the SQL text fixes both; better-sqlite3 cannot check them).
 */
export type Statement<P extends unknown[] = unknown[], R = unknown> = Database.Statement<P, R>;

/** Memory map of the reading connection (1 GiB): fewer copies for the store's own SQL queries. */
export const READER_MMAP_BYTES = 1 << 30;

/** Distinct statement texts kept prepared; query shapes are few, the bound is a safety net. */
const STATEMENT_CACHE_LIMIT = 500;

const COUNTERS_SQL = "SELECT name, value FROM meta WHERE name IN ('generation', 'dataset')";

/** A `meta` counter. */
interface MetaRow {
  name: string;
  value: number;
}

/** The row a statement always returns (a counter, a PRAGMA): none means a damaged store. */
export function one<P extends unknown[], R>(statement: Statement<P, R>, ...params: P): R {
  const row = statement.get(...params);
  if (row === undefined) throw new StoreError('query_failed', `The SQLite store returned no row for: ${statement.source}`);
  return row;
}

export class ReadConnection {
  private readonly statements = new Map<string, Statement>();
  private lastDataVersion = -1;
  #generation = 0;
  #dataset = -1;
  #closed = false;

  constructor(readonly db: Database.Database) {}

  /** The committed generation as of the last `refresh()`. */
  get generation(): number {
    return this.#generation;
  }

  /** The committed dataset (bumped by replaceAll only) as of the last `refresh()`. */
  get dataset(): number {
    return this.#dataset;
  }

  /** A cached statement; `P` and `R` declare its parameters and rows (see Statement). */
  stmt<P extends unknown[] = [], R = never>(sql: string): Statement<P, R> {
    let s = this.statements.get(sql);
    if (s === undefined) {
      if (this.statements.size > STATEMENT_CACHE_LIMIT) this.statements.clear();
      s = this.db.prepare(sql);
      this.statements.set(sql, s);
    }
    // The cache forgets the declared types; the SQL text (the key) fixes them again.
    return s as Statement<P, R>;
  }

  assertOpen(): void {
    if (this.#closed) throw new StoreError('closed', 'The SQLite store is closed.');
  }

  /**
   * Re-read the counters when any connection committed since the last look. PRAGMA data_version
   * changes only for commits by *other* connections, and every write here goes through the
   * writer, so the reader always notices.
   */
  refresh(): void {
    this.assertOpen();
    const dv = one(this.stmt<[], number>('PRAGMA data_version').pluck());
    if (dv === this.lastDataVersion) return;
    this.lastDataVersion = dv;
    const counters = this.counters();
    this.#generation = counters.generation;
    this.#dataset = counters.dataset;
  }

  /** The counters as the current read transaction sees them (no caching). */
  counters(): ExportCounters {
    const rows = this.stmt<[], MetaRow>(COUNTERS_SQL).all();
    return {
      generation: rows.find((r) => r.name === 'generation')?.value ?? 0,
      dataset: rows.find((r) => r.name === 'dataset')?.value ?? 0,
    };
  }

  close(): void {
    this.#closed = true;
    this.statements.clear();
    this.db.close();
  }
}
