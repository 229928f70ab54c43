/**
 * Fleet-wide rate-limit counters in Redis: the same arithmetic as `tokenBucketStep` and
 * `slidingWindowStep` (protocol/rate-limit.ts), run atomically inside Redis by a Lua script, so
 * N instances admit what one instance would. The decision depends on the caller's clock (`nowMs`),
 * exactly as the in-memory backend does, so instances need NTP-synchronised clocks (a skew of a
 * few ms only blurs the window edge by as much).
 *
 * While Redis is unreachable every decision is taken by a per-instance MemoryRateLimitBackend
 * (the fleet then admits up to N times a budget; better than refusing everyone or waiting on a
 * dead Redis). Shared counting resumes by itself when Redis returns.
 *
 * Keys are `<prefix>rl:<kind>:<sha256(key)>`: attacker-chosen keys (profile URLs) have bounded
 * size in Redis, and every key expires once its state can no longer matter.
 */
import { createHash } from 'node:crypto';
import {
  MemoryRateLimitBackend,
  SLIDING_BUCKETS,
  type RateDecision,
  type RateLimitBackend,
  type RateRule,
} from '../protocol/rate-limit.js';
import type { RedisLink } from './redis-link.js';

/**
 * Mirrors slidingWindowStep: the hash maps bucket index → events, and `t<index>` → the time of the
 * bucket's latest event (absent in state written before it existed: the bucket's end is used).
 * Numbers are returned as strings because Redis truncates Lua numbers to integers.
 * KEYS[1] state; ARGV limit, windowMs, nowMs, cost, buckets per window.
 */
const SLIDING_WINDOW_LUA = `
local limit = tonumber(ARGV[1])
local w = tonumber(ARGV[2])
local now = tonumber(ARGV[3])
local cost = tonumber(ARGV[4])
local n = tonumber(ARGV[5])
local bucket = math.floor((now * n) / w)
local flat = redis.call('HGETALL', KEYS[1])
local counts = {}
local latestOf = {}
local newest = nil
for i = 1, #flat, 2 do
  local field = flat[i]
  if string.sub(field, 1, 1) == 't' then
    latestOf[tonumber(string.sub(field, 2))] = tonumber(flat[i + 1])
  else
    local index = tonumber(field)
    counts[index] = tonumber(flat[i + 1])
    if newest == nil or index > newest then newest = index end
  end
end
-- A clock that went backwards: decide as of the newest bucket (keeps the counts).
if newest ~= nil and newest > bucket then
  bucket = newest
  now = math.max(now, (bucket * w) / n)
end
local kept = {}
local total = 0
for index, count in pairs(counts) do
  local latest = latestOf[index] or ((index + 1) * w) / n
  if index >= bucket - n and latest > now - w then
    kept[#kept + 1] = {index, count, latest}
    total = total + count
  else
    redis.call('HDEL', KEYS[1], string.format('%d', index), 't' .. string.format('%d', index))
  end
end
table.sort(kept, function(a, b) return a[1] < b[1] end)
local fmt = function(x) return string.format('%.17g', x) end
local ttl = math.ceil((w * (n + 2)) / n)
if total + cost <= limit then
  local at = now
  if #kept > 0 then at = math.max(now, kept[#kept][3]) end
  redis.call('HINCRBY', KEYS[1], string.format('%d', bucket), cost)
  redis.call('HSET', KEYS[1], 't' .. string.format('%d', bucket), fmt(at))
  redis.call('PEXPIRE', KEYS[1], ttl)
  return {'1', fmt(math.max(0, math.floor(limit - total - cost))), '0'}
end
if #kept > 0 then redis.call('PEXPIRE', KEYS[1], ttl) end
local left = total
for _, entry in ipairs(kept) do
  left = left - entry[2]
  if left + cost <= limit then
    return {'0', '0', fmt(math.max(1, math.ceil(entry[3] + w - now)))}
  end
end
return {'0', '0', 'inf'}
`;

/**
 * Mirrors tokenBucketStep. KEYS[1] state; ARGV capacity, refillPerSecond, nowMs, cost, ttlMs.
 * A refused request with no refill at all reports retry 'inf'.
 */
const TOKEN_BUCKET_LUA = `
local capacity = tonumber(ARGV[1])
local refill = tonumber(ARGV[2])
local now = tonumber(ARGV[3])
local cost = tonumber(ARGV[4])
local ttl = tonumber(ARGV[5])
local s = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens0 = tonumber(s[1])
local at0 = tonumber(s[2])
if tokens0 == nil or at0 == nil then
  tokens0 = capacity
  at0 = now
end
local elapsed = math.max(0, now - at0)
local tokens = math.min(capacity, tokens0 + (elapsed / 1000) * refill)
local at = math.max(now, at0)
local fmt = function(x) return string.format('%.17g', x) end
if tokens >= cost then
  local left = tokens - cost
  redis.call('HSET', KEYS[1], 'tokens', fmt(left), 'at', fmt(at))
  redis.call('PEXPIRE', KEYS[1], ttl)
  return {'1', fmt(math.floor(left)), '0'}
end
redis.call('HSET', KEYS[1], 'tokens', fmt(tokens), 'at', fmt(at))
redis.call('PEXPIRE', KEYS[1], ttl)
if refill > 0 then
  return {'0', fmt(math.floor(tokens)), fmt(math.ceil(((cost - tokens) / refill) * 1000))}
end
return {'0', fmt(math.floor(tokens)), 'inf'}
`;

type StepReply = [string, string, string];

interface RateCommands {
  ucpSlidingWindow(key: string, limit: number, windowMs: number, nowMs: number, cost: number, buckets: number): Promise<StepReply>;
  ucpTokenBucket(key: string, capacity: number, refill: number, nowMs: number, cost: number, ttlMs: number): Promise<StepReply>;
}

export interface RedisRateLimitOptions {
  /** Prefix of every key, so several deployments can share one Redis. Default 'ucp-location:'. */
  keyPrefix?: string;
  /** The per-instance backend used while Redis is unreachable. */
  fallback?: RateLimitBackend;
}

function decision(reply: StepReply): RateDecision {
  const retry = reply[2] === 'inf' ? Number.POSITIVE_INFINITY : Number(reply[2]);
  return { allowed: reply[0] === '1', remaining: Number(reply[1]), retryAfterMs: retry };
}

export class RedisRateLimitBackend implements RateLimitBackend {
  readonly #link: RedisLink;
  readonly #commands: RateCommands;
  readonly #prefix: string;
  readonly #fallback: RateLimitBackend;

  constructor(link: RedisLink, options: RedisRateLimitOptions = {}) {
    this.#link = link;
    this.#prefix = options.keyPrefix ?? 'ucp-location:';
    this.#fallback = options.fallback ?? new MemoryRateLimitBackend({ maxKeys: 50_000, maxBytes: 64 * 1024 * 1024 });
    // defineCommand sends EVALSHA and falls back to EVAL once per connection (script cache).
    link.redis.defineCommand('ucpSlidingWindow', { numberOfKeys: 1, lua: SLIDING_WINDOW_LUA });
    link.redis.defineCommand('ucpTokenBucket', { numberOfKeys: 1, lua: TOKEN_BUCKET_LUA });
    this.#commands = link.redis as unknown as RateCommands;
  }

  /** The Redis key holding the counters of `key` under `rule`'s kind. */
  redisKey(key: string, rule: RateRule): string {
    return `${this.#prefix}rl:${rule.kind}:${createHash('sha256').update(key).digest('base64url')}`;
  }

  async consume(key: string, rule: RateRule, nowMs: number, cost: number): Promise<RateDecision> {
    if (!this.#link.usable) return this.#fallback.consume(key, rule, nowMs, cost);
    const k = this.redisKey(key, rule);
    try {
      const reply =
        rule.kind === 'sliding-window'
          ? await this.#commands.ucpSlidingWindow(k, rule.limit, rule.windowMs, nowMs, cost, SLIDING_BUCKETS)
          : await this.#commands.ucpTokenBucket(
              k,
              rule.capacity,
              rule.refillPerSecond,
              nowMs,
              cost,
              // A bucket untouched for this long is full again: its state no longer matters.
              rule.refillPerSecond > 0 ? Math.ceil((rule.capacity / rule.refillPerSecond) * 1000) + 1000 : 24 * 3600 * 1000,
            );
      this.#link.succeeded();
      return decision(reply);
    } catch (err) {
      this.#link.markDown(err);
      return this.#fallback.consume(key, rule, nowMs, cost);
    }
  }
}
