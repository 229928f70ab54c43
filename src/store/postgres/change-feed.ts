/**
 * The PostgreSQL store's change feed (`LocationStore.changeFeed`): the highest data counters this
 * process has seen — from its own writes, from other processes' notifications (ChangeListener),
 * and from counter reads — and the listeners told when they move on.
 */
import type pg from 'pg';
import type { StoreChangeFeed } from '../store.js';
import type { Counters } from './change-listener.js';

/** The statement that reads both counters (one primary-key look-up each). */
export const COUNTERS_SQL = "SELECT name, value FROM meta WHERE name IN ('generation', 'dataset')";

export function countersOf(rows: readonly { name: string; value: number }[]): Counters {
  let generation = 0;
  let dataset = 0;
  for (const row of rows) {
    if (row.name === 'generation') generation = Number(row.value);
    else dataset = Number(row.value);
  }
  return { generation, dataset };
}

export async function readCounters(client: pg.ClientBase): Promise<Counters> {
  return countersOf((await client.query<{ name: string; value: number }>(COUNTERS_SQL)).rows);
}

export class PgChangeFeed implements StoreChangeFeed {
  #counters: Counters = { generation: 0, dataset: -1 };
  readonly #listeners = new Set<(c: Counters) => void>();
  #listener: { readonly live: boolean } | null = null;

  /** The notification listener this feed trusts while it is live (none when `listen: false`). */
  attach(listener: { readonly live: boolean } | null): void {
    this.#listener = listener;
  }

  /** True while change notifications arrive (else every reader must query the counters). */
  get live(): boolean {
    return this.#listener?.live ?? false;
  }

  /** The highest counters seen so far. */
  get counters(): Counters {
    return this.#counters;
  }

  /**
   * The newest committed generation as the change listener tells it, or null while the listener
   * is not live — connecting, reconnecting, or not yet past its re-read of the counters after
   * (re)connecting. This process's own writes update it at commit.
   */
  notifiedGeneration(): number | null {
    return this.live ? this.#counters.generation : null;
  }

  onChange(listener: (counters: Counters) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Keep the highest counters seen (notifications may arrive out of order with our own reads). */
  observe(c: Counters): void {
    const newer = c.generation > this.#counters.generation;
    if (newer || (c.generation === this.#counters.generation && c.dataset > this.#counters.dataset)) {
      this.#counters = c;
    }
    if (!newer) return;
    for (const l of this.#listeners) {
      try {
        l({ ...c });
      } catch {
        // A listener's failure must not break the store.
      }
    }
  }
}
