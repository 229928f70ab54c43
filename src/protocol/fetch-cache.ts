/**
 * The cache of fetched discovery documents (platform profiles, schemas) and the
 * freshness policy applied to them (R-G2).
 *
 * Freshness policy, decided once here:
 *  - lifetime = `max-age` from `Cache-Control`, raised to a floor of 60 s and
 *    lowered to a ceiling (default 24 h, so a changed profile is picked up within a day);
 *  - the 60 s floor applies *regardless* of `no-store`, `no-cache`, `private`,
 *    `max-age=0` or a missing header: the UCP overview tells verifiers to cache
 *    profiles with a minimum TTL floor of 60 s regardless of the origin's
 *    Cache-Control, because a profile is a stable identity document and a
 *    per-request refetch would turn every buyer request into outbound traffic
 *    an attacker controls. Publishers that send those directives are
 *    non-conformant hosts anyway (R-D5, see `checkProfileHosting`);
 *  - a stale entry may still be served for `stale-while-revalidate` seconds (the
 *    response's directive if present, else the configured default) while one
 *    background refresh runs;
 *  - an entry keeps its validators (`ETag`, `Last-Modified`) so that refreshes
 *    are conditional, and a 304 renews the lifetime.
 */
import { LruMap } from './lru.js';

/** One cached document. JSON-serialisable, so a shared backend can store it as is. */
export interface CachedDocument {
  /** Parsed JSON body. */
  body: unknown;
  etag?: string;
  lastModified?: string;
  /** When the document was fetched or last revalidated, ms since the epoch. */
  storedAt: number;
  /** Fresh until this instant, ms. */
  expiresAt: number;
  /** May be served stale (with a background refresh) until this instant, ms; ≥ expiresAt. */
  staleUntil: number;
}

/**
 * Storage for cached documents, keyed by the normalised URL. Asynchronous so a
 * networked backend (Redis) fits; implementations bound their own size.
 */
export interface CacheBackend {
  get(key: string): Promise<CachedDocument | undefined>;
  set(key: string, value: CachedDocument): Promise<void>;
  delete(key: string): Promise<void>;
}

/** Default byte bound of the in-process document cache. */
export const DEFAULT_CACHE_BYTES = 32 * 1024 * 1024;

/**
 * In-process LRU. Returns the stored object itself (no copy), so callers that
 * memoise work per document (e.g. schema validation) can key on its identity;
 * callers must treat it as read-only.
 */
export class MemoryCacheBackend implements CacheBackend {
  readonly #entries: LruMap<string, CachedDocument>;

  /**
   * @param options.maxBytes bound on the estimated bytes of the parsed documents held (default
   *   32 MiB): a thousand profiles at the 256 KiB body limit would otherwise hold a gigabyte.
   */
  constructor(options: { maxEntries?: number; maxBytes?: number } = {}) {
    this.#entries = new LruMap(options.maxEntries ?? 1_000, { maxBytes: options.maxBytes ?? DEFAULT_CACHE_BYTES });
  }

  get size(): number {
    return this.#entries.size;
  }

  /** Estimated bytes held (diagnostics and tests). */
  get bytes(): number {
    return this.#entries.bytes;
  }

  get(key: string): Promise<CachedDocument | undefined> {
    return Promise.resolve(this.#entries.get(key));
  }

  set(key: string, value: CachedDocument): Promise<void> {
    this.#entries.set(key, value);
    return Promise.resolve();
  }

  delete(key: string): Promise<void> {
    this.#entries.delete(key);
    return Promise.resolve();
  }

  /** Keys from least to most recently used (for tests and diagnostics). */
  keys(): string[] {
    return [...this.#entries.keys()];
  }
}

export interface CacheControl {
  /** Directive names, lower-case, e.g. `public`, `no-store`. */
  directives: ReadonlySet<string>;
  /** `max-age`, seconds, when present and a valid non-negative integer. */
  maxAge?: number;
  /** `stale-while-revalidate`, seconds, when present and valid. */
  staleWhileRevalidate?: number;
}

/**
 * Parses a `Cache-Control` header (RFC 9111 §5.2). Tolerant: unknown directives
 * are kept by name, malformed numeric arguments are ignored (as if absent).
 * Several header lines are joined as one list.
 */
export function parseCacheControl(header: string | readonly string[] | undefined): CacheControl {
  const text = typeof header === 'string' ? header : (header ?? []).join(',');
  const directives = new Set<string>();
  const result: { maxAge?: number; staleWhileRevalidate?: number } = {};
  for (const part of text.split(',')) {
    const [rawName, ...rest] = part.split('=');
    const name = (rawName ?? '').trim().toLowerCase();
    if (!name) continue;
    directives.add(name);
    const arg = rest
      .join('=')
      .trim()
      .replace(/^"(.*)"$/, '$1');
    const seconds = /^\d+$/.test(arg) ? Number(arg) : undefined;
    // RFC 9111 §4.2.1: with duplicated max-age, the most restrictive (lowest) wins.
    if (name === 'max-age' && seconds !== undefined) result.maxAge = Math.min(result.maxAge ?? seconds, seconds);
    if (name === 'stale-while-revalidate' && seconds !== undefined) result.staleWhileRevalidate = seconds;
  }
  return { directives, ...result };
}

export interface FreshnessPolicy {
  /** Lower bound on the lifetime, seconds (R-G2: 60). */
  floorSeconds: number;
  /** Upper bound on the lifetime, seconds. */
  ceilingSeconds: number;
  /** Stale-while-revalidate window when the response names none, seconds. */
  defaultStaleWhileRevalidateSeconds: number;
  /** Upper bound on any stale-while-revalidate window, seconds. */
  maxStaleWhileRevalidateSeconds: number;
}

export const DEFAULT_FRESHNESS: FreshnessPolicy = {
  floorSeconds: 60,
  ceilingSeconds: 24 * 60 * 60,
  defaultStaleWhileRevalidateSeconds: 5 * 60,
  maxStaleWhileRevalidateSeconds: 60 * 60,
};

/** Lifetime and stale window, in seconds, for a response with this `Cache-Control`. */
export function freshness(
  cacheControl: CacheControl,
  policy: FreshnessPolicy = DEFAULT_FRESHNESS,
): { ttlSeconds: number; staleSeconds: number } {
  const ttlSeconds = Math.min(policy.ceilingSeconds, Math.max(policy.floorSeconds, cacheControl.maxAge ?? 0));
  const staleSeconds = Math.min(
    policy.maxStaleWhileRevalidateSeconds,
    cacheControl.staleWhileRevalidate ?? policy.defaultStaleWhileRevalidateSeconds,
  );
  return { ttlSeconds, staleSeconds };
}

/** Builds the cache entry for a document fetched (or revalidated) at `nowMs`. */
export function cacheEntry(
  body: unknown,
  headers: { cacheControl: CacheControl; etag?: string | undefined; lastModified?: string | undefined },
  nowMs: number,
  policy: FreshnessPolicy = DEFAULT_FRESHNESS,
): CachedDocument {
  const { ttlSeconds, staleSeconds } = freshness(headers.cacheControl, policy);
  const expiresAt = nowMs + ttlSeconds * 1000;
  return {
    body,
    ...(headers.etag !== undefined ? { etag: headers.etag } : {}),
    ...(headers.lastModified !== undefined ? { lastModified: headers.lastModified } : {}),
    storedAt: nowMs,
    expiresAt,
    staleUntil: expiresAt + staleSeconds * 1000,
  };
}
