/**
 * A size-bounded map that forgets the least recently used key first.
 *
 * Every piece of per-URL or per-origin state kept by the discovery layer (cached
 * profiles, rate-limit buckets, back-off records) is keyed by attacker-chosen
 * strings, so each one lives in an `LruMap`: memory stays bounded no matter how
 * many distinct URLs arrive (R-G2 "bounds the cache").
 *
 * Relies on `Map` iterating in insertion order: re-inserting a key on access moves
 * it to the young end, so the first key is always the oldest.
 */
export class LruMap<K, V> {
  readonly #entries = new Map<K, V>();

  constructor(readonly maxEntries: number) {
    if (!Number.isInteger(maxEntries) || maxEntries < 1) {
      throw new RangeError(`LruMap maxEntries must be a positive integer, got ${String(maxEntries)}`);
    }
  }

  get size(): number {
    return this.#entries.size;
  }

  /** Reads a value and marks the key as most recently used. */
  get(key: K): V | undefined {
    const value = this.#entries.get(key);
    if (value === undefined) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, value);
    return value;
  }

  /** Reads without touching recency (for inspection and tests). */
  peek(key: K): V | undefined {
    return this.#entries.get(key);
  }

  has(key: K): boolean {
    return this.#entries.has(key);
  }

  /** Stores a value as most recently used, evicting the oldest keys beyond `maxEntries`. */
  set(key: K, value: V): void {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    while (this.#entries.size > this.maxEntries) {
      const oldest = this.#entries.keys().next();
      if (oldest.done) break;
      this.#entries.delete(oldest.value);
    }
  }

  delete(key: K): boolean {
    return this.#entries.delete(key);
  }

  clear(): void {
    this.#entries.clear();
  }

  /** Keys from least to most recently used. */
  keys(): IterableIterator<K> {
    return this.#entries.keys();
  }
}
