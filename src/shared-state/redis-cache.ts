/**
 * The platform-profile cache (SafeFetcher's CacheBackend) in Redis, so a profile fetched by one
 * instance serves every instance until it expires, and the fleet fetches each profile about
 * once per lifetime instead of once per instance.
 *
 * Entries are JSON with a Redis expiry equal to their own usable life (`staleUntil − storedAt`),
 * so Redis never holds a document the fetcher would discard. Every entry is also written to a
 * per-instance LRU, which answers while Redis is unreachable (and then keeps answering as the
 * in-memory default would).
 *
 * Object identity: the profile resolver memoises validation per document object. Parsing the
 * same JSON again would defeat that, so the last parsed object per key is reused while Redis
 * returns the same text.
 */
import { createHash } from 'node:crypto';
import { LruMap } from '../protocol/lru.js';
import { MemoryCacheBackend, type CacheBackend, type CachedDocument } from '../protocol/fetch-cache.js';
import type { RedisLink } from './redis-link.js';

export interface RedisCacheOptions {
  /** Prefix of every key. Default 'ucp-location:'. */
  keyPrefix?: string;
  /** Entries of the per-instance LRU (fallback and parse memo). Default 1000. */
  localEntries?: number;
}

function isCachedDocument(v: unknown): v is CachedDocument {
  if (typeof v !== 'object' || v === null) return false;
  const d = v as Record<string, unknown>;
  return typeof d['storedAt'] === 'number' && typeof d['expiresAt'] === 'number' && typeof d['staleUntil'] === 'number' && 'body' in d;
}

export class RedisCacheBackend implements CacheBackend {
  readonly #link: RedisLink;
  readonly #prefix: string;
  readonly #local: MemoryCacheBackend;
  /** key → the JSON text last seen and its parsed document. */
  readonly #parsed: LruMap<string, { text: string; doc: CachedDocument }>;

  constructor(link: RedisLink, options: RedisCacheOptions = {}) {
    this.#link = link;
    this.#prefix = options.keyPrefix ?? 'ucp-location:';
    const entries = options.localEntries ?? 1000;
    this.#local = new MemoryCacheBackend({ maxEntries: entries });
    // Bounded in bytes as well (the default 16 MiB): it holds each document twice, as text and parsed.
    this.#parsed = new LruMap(entries);
  }

  redisKey(key: string): string {
    return `${this.#prefix}doc:${createHash('sha256').update(key).digest('base64url')}`;
  }

  async get(key: string): Promise<CachedDocument | undefined> {
    if (!this.#link.usable) return this.#local.get(key);
    let text: string | null;
    try {
      text = await this.#link.redis.get(this.redisKey(key));
      this.#link.succeeded();
    } catch (err) {
      this.#link.markDown(err);
      return this.#local.get(key);
    }
    if (text === null) return undefined;
    const known = this.#parsed.get(key);
    if (known !== undefined && known.text === text) return known.doc;
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch {
      return undefined; // not ours or damaged: treat as a miss, the next fetch overwrites it
    }
    if (!isCachedDocument(doc)) return undefined;
    this.#parsed.set(key, { text, doc });
    return doc;
  }

  async set(key: string, value: CachedDocument): Promise<void> {
    await this.#local.set(key, value);
    if (!this.#link.usable) return;
    const text = JSON.stringify(value);
    this.#parsed.set(key, { text, doc: value });
    const lifeMs = Math.max(1000, Math.ceil(value.staleUntil - value.storedAt));
    try {
      await this.#link.redis.set(this.redisKey(key), text, 'PX', lifeMs);
      this.#link.succeeded();
    } catch (err) {
      this.#link.markDown(err);
    }
  }

  async delete(key: string): Promise<void> {
    await this.#local.delete(key);
    this.#parsed.delete(key);
    if (!this.#link.usable) return;
    try {
      await this.#link.redis.del(this.redisKey(key));
      this.#link.succeeded();
    } catch (err) {
      this.#link.markDown(err);
    }
  }
}
