/**
 * A map bounded in entries *and* bytes that forgets the least recently used key first.
 *
 * Every piece of per-URL or per-origin state kept by the discovery layer (cached
 * profiles, rate-limit buckets, back-off records) is keyed by attacker-chosen
 * strings, so each one lives in an `LruMap`: memory stays bounded no matter how
 * many distinct URLs arrive (R-G2 "bounds the cache"). A bound on entries alone is
 * not enough — a thousand 240 KB keys are a quarter of a gigabyte — so each entry's
 * size is estimated when it is stored and the oldest entries go once the total passes
 * `maxBytes`. An entry larger than `maxBytes` by itself is not kept at all.
 *
 * Relies on `Map` iterating in insertion order: re-inserting a key on access moves
 * it to the young end, so the first key is always the oldest.
 */
export interface LruOptions<K, V> {
  /** Upper bound on the estimated bytes of all keys and values. Default 16 MiB. */
  maxBytes?: number;
  /** Estimated bytes of one entry; default `approximateBytes(key) + approximateBytes(value)`. */
  sizeOf?: (key: K, value: V) => number;
}

export const DEFAULT_LRU_BYTES = 16 * 1024 * 1024;

export class LruMap<K, V> {
  readonly #entries = new Map<K, { value: V; bytes: number }>();
  readonly #sizeOf: (key: K, value: V) => number;
  readonly maxBytes: number;
  #bytes = 0;

  constructor(
    readonly maxEntries: number,
    options: LruOptions<K, V> = {},
  ) {
    if (!Number.isInteger(maxEntries) || maxEntries < 1) {
      throw new RangeError(`LruMap maxEntries must be a positive integer, got ${String(maxEntries)}`);
    }
    this.maxBytes = options.maxBytes ?? DEFAULT_LRU_BYTES;
    if (!(this.maxBytes > 0)) throw new RangeError(`LruMap maxBytes must be positive, got ${String(this.maxBytes)}`);
    this.#sizeOf = options.sizeOf ?? ((key, value) => approximateBytes(key) + approximateBytes(value));
  }

  get size(): number {
    return this.#entries.size;
  }

  /** Estimated bytes held (keys and values), never above `maxBytes`. */
  get bytes(): number {
    return this.#bytes;
  }

  /** Reads a value and marks the key as most recently used. */
  get(key: K): V | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry.value;
  }

  /** Reads without touching recency (for inspection and tests). */
  peek(key: K): V | undefined {
    return this.#entries.get(key)?.value;
  }

  has(key: K): boolean {
    return this.#entries.has(key);
  }

  /**
   * Stores a value as most recently used, evicting the oldest keys beyond `maxEntries` or
   * `maxBytes`. A value too large to fit on its own is not stored (and any old value is dropped).
   */
  set(key: K, value: V): void {
    this.delete(key);
    const bytes = this.#sizeOf(key, value);
    if (bytes > this.maxBytes) return;
    this.#entries.set(key, { value, bytes });
    this.#bytes += bytes;
    while (this.#entries.size > this.maxEntries || this.#bytes > this.maxBytes) {
      const oldest = this.#entries.keys().next();
      if (oldest.done) break;
      this.delete(oldest.value);
    }
  }

  delete(key: K): boolean {
    const entry = this.#entries.get(key);
    if (entry === undefined) return false;
    this.#entries.delete(key);
    this.#bytes -= entry.bytes;
    return true;
  }

  clear(): void {
    this.#entries.clear();
    this.#bytes = 0;
  }

  /** Keys from least to most recently used. */
  keys(): IterableIterator<K> {
    return this.#entries.keys();
  }
}

/**
 * A conservative estimate of the heap bytes a value holds: strings at two bytes a character
 * (V8 may store them at one), numbers and slots at eight, a fixed overhead per object and array.
 * Walks JSON-like trees without recursion (depth is no risk); anything else counts as 64 bytes.
 */
export function approximateBytes(value: unknown): number {
  let total = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const next = stack.pop();
    if (typeof next === 'string') total += 16 + 2 * next.length;
    else if (typeof next === 'number' || typeof next === 'boolean' || next === null || next === undefined) total += 8;
    else if (Array.isArray(next)) {
      total += 16 + 8 * next.length;
      for (const item of next) stack.push(item);
    } else if (isPlainObject(next)) {
      total += 32;
      for (const [k, v] of Object.entries(next)) {
        total += 24 + 2 * k.length;
        stack.push(v);
      }
    } else total += 64;
  }
  return total;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
