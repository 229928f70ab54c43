/**
 * How the PostgreSQL store reads: every read goes through the outage guard (fail fast while
 * PostgreSQL is unreachable, recover by itself when it returns), common statement shapes become
 * named prepared statements, and multi-statement reads that must agree share one snapshot.
 */
import type { Pool, QueryResultRow } from 'pg';
import { createHash } from 'node:crypto';
import { causeMessage, DataValidationError, ServiceUnavailableError, StoreError } from '../../errors.js';
import { COUNTERS_SQL, countersOf, type PgChangeFeed } from './change-feed.js';
import type { Counters } from './change-listener.js';
import { isConnectionLoss, isUnavailable, type ResolvedPostgresSettings } from './connection.js';
import type { OutageGuard } from './outage.js';

/** A statement run inside a snapshot read (one connection, one transaction). */
export type SnapshotQuery = <R extends QueryResultRow>(text: string) => Promise<R[]>;

function statementName(text: string): string {
  return `ucp_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
}

/** What every part of one PostgreSQL store shares: its pool, settings, guard and change feed. */
export interface PgStoreContext {
  readonly pool: Pool;
  readonly settings: ResolvedPostgresSettings;
  readonly guard: OutageGuard;
  readonly feed: PgChangeFeed;
  /** Throws StoreError('closed') once the store is closed. */
  assertOpen(): void;
}

export class PgReadPath {
  constructor(private readonly ctx: PgStoreContext) {}

  /**
   * Run a read through the outage guard, mapping failures to the two error families. A lost
   * connection is retried once on a fresh one (reads are idempotent): one backend terminated or
   * one stale pooled connection is not an outage; two losses in a row are.
   */
  async read<T>(what: string, op: () => Promise<T>): Promise<T> {
    this.ctx.assertOpen();
    const guard = this.ctx.guard;
    guard.enter();
    for (let attempt = 0; ; attempt++) {
      try {
        const result = await op();
        guard.succeeded();
        return result;
      } catch (cause) {
        if (isUnavailable(cause)) {
          if (attempt === 0 && !guard.down && isConnectionLoss(cause)) continue;
          guard.failed(cause);
          throw guard.unavailable(cause);
        }
        guard.settled();
        if (cause instanceof StoreError || cause instanceof DataValidationError || cause instanceof ServiceUnavailableError) throw cause;
        throw new StoreError('query_failed', `PostgreSQL ${what} failed: ${causeMessage(cause)}`, { cause });
      }
    }
  }

  /** One read statement; common shapes become named prepared statements. No guard: for use inside `read`. */
  async q<R extends QueryResultRow>(text: string, values: unknown[] = [], named = true): Promise<R[]> {
    const r = await this.ctx.pool.query<R>(named ? { name: statementName(text), text, values } : { text, values });
    return r.rows;
  }

  /** The counters read from the database (and told to the change feed). No guard: for use inside `read`. */
  async countersFromDb(): Promise<Counters> {
    const c = countersOf(await this.q<{ name: string; value: number }>(COUNTERS_SQL));
    this.ctx.feed.observe(c);
    return c;
  }

  /**
   * Counters for per-dataset caches: from notifications while the listener is live, else from
   * the database. No guard: callers run it inside `read`.
   */
  async counters(): Promise<Counters> {
    if (!this.ctx.feed.live) return this.countersFromDb();
    return this.ctx.feed.counters;
  }

  /**
   * Run `op` on one connection inside a read-only REPEATABLE READ transaction: every statement
   * sees the same committed snapshot (an export must not straddle a replaceAll).
   */
  async snapshotRead<T>(what: string, op: (query: SnapshotQuery) => Promise<T>): Promise<T> {
    return this.read(what, async () => {
      const client = await this.ctx.pool.connect();
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
}
