/**
 * Fleet-wide state in Redis (`--redis redis://…`): request rate limits (per client IP, per
 * Platform profile, stricter for item searches), the global discovery-fetch budget and the
 * Platform-profile cache. Without Redis each instance keeps these in memory; with it N instances
 * behave as one, and fall back to per-instance state while Redis is unreachable.
 */
import type { CacheBackend } from '../protocol/fetch-cache.js';
import type { RateLimitBackend } from '../protocol/rate-limit.js';
import { RedisCacheBackend } from './redis-cache.js';
import { RedisLink, type RedisLinkOptions } from './redis-link.js';
import { RedisRateLimitBackend } from './redis-rate-limit.js';

export { RedisCacheBackend } from './redis-cache.js';
export { isRedisUrl, RedisLink, type RedisLinkOptions, type SharedStateLogger } from './redis-link.js';
export { RedisRateLimitBackend } from './redis-rate-limit.js';

export interface SharedState {
  /** For BudgetLimiter (request budgets) and SafeFetcher (discovery budget). */
  rateLimitBackend: RateLimitBackend;
  /** For SafeFetcher: the Platform-profile cache. */
  cache: CacheBackend;
  link: RedisLink;
  close(): Promise<void>;
}

export interface SharedStateOptions extends RedisLinkOptions {
  /** Prefix of every Redis key (one Redis, several deployments). Default 'ucp-location:'. */
  keyPrefix?: string;
  /** Entries of the per-instance profile cache (fallback). Default 1000. */
  cacheEntries?: number;
}

/**
 * Connect to Redis and build the shared backends. Resolves even when Redis is unreachable at
 * start (the instance then uses local state and switches over when Redis appears); throws
 * ConfigError only for a malformed URL.
 */
export async function connectSharedState(url: string, options: SharedStateOptions = {}): Promise<SharedState> {
  const link = new RedisLink(url, options);
  await link.start();
  const keyPrefix = options.keyPrefix ?? 'ucp-location:';
  return {
    link,
    rateLimitBackend: new RedisRateLimitBackend(link, { keyPrefix }),
    cache: new RedisCacheBackend(link, {
      keyPrefix,
      ...(options.cacheEntries === undefined ? {} : { localEntries: options.cacheEntries }),
    }),
    close: () => link.close(),
  };
}
