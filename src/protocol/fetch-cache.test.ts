import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_FRESHNESS, MemoryCacheBackend, cacheEntry, freshness, parseCacheControl } from './fetch-cache.js';

describe('parseCacheControl', () => {
  it('reads directives case-insensitively with numeric arguments', () => {
    const cc = parseCacheControl('Public, MAX-AGE=300, stale-while-revalidate=30');
    expect([...cc.directives].sort()).toEqual(['max-age', 'public', 'stale-while-revalidate']);
    expect(cc.maxAge).toBe(300);
    expect(cc.staleWhileRevalidate).toBe(30);
  });

  it('accepts quoted arguments, joins several header lines, keeps the lowest duplicated max-age', () => {
    const cc = parseCacheControl(['public, max-age="120"', 'max-age=90']);
    expect(cc.maxAge).toBe(90);
  });

  it('ignores malformed numbers instead of guessing', () => {
    expect(parseCacheControl('max-age=-5').maxAge).toBeUndefined();
    expect(parseCacheControl('max-age=1e3').maxAge).toBeUndefined();
    expect(parseCacheControl(undefined).directives.size).toBe(0);
  });
});

describe('freshness (R-G2 TTL floor of 60 s)', () => {
  it.each([
    ['max-age=10', 60],
    ['max-age=0', 60],
    ['no-store', 60],
    ['private, no-cache', 60],
    ['', 60],
    ['public, max-age=300', 300],
    ['max-age=999999999', DEFAULT_FRESHNESS.ceilingSeconds],
  ])('Cache-Control %j gives a lifetime of %i s', (header, ttl) => {
    expect(freshness(parseCacheControl(header)).ttlSeconds).toBe(ttl);
  });

  it('never goes below the floor nor above the ceiling (property)', () => {
    fc.assert(
      fc.property(fc.option(fc.nat(), { nil: undefined }), (maxAge) => {
        const { ttlSeconds } = freshness(parseCacheControl(maxAge === undefined ? '' : `max-age=${maxAge}`));
        expect(ttlSeconds).toBeGreaterThanOrEqual(60);
        expect(ttlSeconds).toBeLessThanOrEqual(DEFAULT_FRESHNESS.ceilingSeconds);
        if (maxAge !== undefined && maxAge >= 60 && maxAge <= DEFAULT_FRESHNESS.ceilingSeconds) expect(ttlSeconds).toBe(maxAge);
      }),
    );
  });

  it('uses the response stale-while-revalidate, else the default, capped', () => {
    expect(freshness(parseCacheControl('stale-while-revalidate=7')).staleSeconds).toBe(7);
    expect(freshness(parseCacheControl('')).staleSeconds).toBe(DEFAULT_FRESHNESS.defaultStaleWhileRevalidateSeconds);
    expect(freshness(parseCacheControl('stale-while-revalidate=99999999')).staleSeconds).toBe(
      DEFAULT_FRESHNESS.maxStaleWhileRevalidateSeconds,
    );
  });
});

describe('cacheEntry', () => {
  it('computes expiry and stale windows from the fetch time and keeps validators', () => {
    const entry = cacheEntry({ a: 1 }, { cacheControl: parseCacheControl('max-age=120, stale-while-revalidate=30'), etag: '"v1"' }, 1_000);
    expect(entry).toEqual({ body: { a: 1 }, etag: '"v1"', storedAt: 1_000, expiresAt: 121_000, staleUntil: 151_000 });
  });
});

describe('MemoryCacheBackend', () => {
  it('evicts the least recently used entry beyond its bound; reads refresh recency', async () => {
    const cache = new MemoryCacheBackend({ maxEntries: 2 });
    const entry = cacheEntry(1, { cacheControl: parseCacheControl('') }, 0);
    await cache.set('a', entry);
    await cache.set('b', entry);
    await cache.get('a');
    await cache.set('c', entry);
    expect(cache.keys()).toEqual(['a', 'c']);
    expect(await cache.get('b')).toBeUndefined();
  });

  it('returns the stored object itself (identity lets callers memoise per document)', async () => {
    const cache = new MemoryCacheBackend();
    const entry = cacheEntry({ x: 1 }, { cacheControl: parseCacheControl('') }, 0);
    await cache.set('k', entry);
    expect((await cache.get('k'))?.body).toBe(entry.body);
  });
});
