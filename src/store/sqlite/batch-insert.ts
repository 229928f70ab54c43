/**
 * Multi-row INSERT for bulk loads. Each `stmt.run()` crosses from JavaScript into SQLite and
 * back; for rows of a few integers that crossing costs more than the insert itself. Collecting
 * `ROWS_PER_STATEMENT` rows and writing them with one `INSERT … VALUES (…), (…), …` statement
 * cuts the crossings by that factor (measured: 470k two-integer rows, 0.5–0.7 s → 0.15–0.19 s).
 *
 * Rows are written in the order they were added, so a table loaded in key order is still
 * appended in key order. Conflict handling (`INSERT OR IGNORE`) applies per row, as with
 * single-row statements. Call `flush()` before anything reads the table.
 */
import type Database from 'better-sqlite3';

export type SqlValue = string | number | bigint | Buffer | null;

/** Rows per full statement; also bounded by SQLite's host-parameter limit (checked below). */
const ROWS_PER_STATEMENT = 128;
/** Lowest SQLITE_MAX_VARIABLE_NUMBER of any supported build (3.32+ default is 32766). */
const MAX_PARAMETERS = 32_766;

export class BatchInsert {
  private readonly full: Database.Statement<unknown[]>;
  private readonly values: SqlValue[];
  private readonly rowsPerStatement: number;
  private filled = 0;
  private rowCount = 0;

  /**
   * @param head  the statement up to VALUES, e.g. `INSERT OR IGNORE INTO t(a, b)`
   * @param width values per row (one `?` each)
   */
  constructor(
    private readonly db: Database.Database,
    private readonly head: string,
    private readonly width: number,
  ) {
    this.rowsPerStatement = Math.max(1, Math.min(ROWS_PER_STATEMENT, Math.floor(MAX_PARAMETERS / width)));
    this.full = db.prepare(this.sql(this.rowsPerStatement));
    this.values = new Array<SqlValue>(this.rowsPerStatement * width);
  }

  /** Rows added so far (written or pending). */
  get rows(): number {
    return this.rowCount;
  }

  private sql(rows: number): string {
    const row = `(${new Array<string>(this.width).fill('?').join(', ')})`;
    return `${this.head} VALUES ${new Array<string>(rows).fill(row).join(', ')}`;
  }

  /** Adds one row of exactly `width` values. */
  add(...row: SqlValue[]): void {
    const v = this.values;
    let f = this.filled;
    for (const value of row) v[f++] = value;
    this.filled = f;
    this.rowCount++;
    if (f === v.length) {
      // An array argument binds its elements to the anonymous parameters in order.
      this.full.run(v);
      this.filled = 0;
    }
  }

  /** Writes the pending rows (a partial statement, prepared once per flush). */
  flush(): void {
    if (this.filled === 0) return;
    const rows = this.filled / this.width;
    this.db.prepare(this.sql(rows)).run(this.values.slice(0, this.filled));
    this.filled = 0;
  }
}
