/**
 * Small, reusable counters: token bucket, sliding window, and failure back-off.
 *
 * The decision arithmetic lives in pure step functions (`tokenBucketStep`,
 * `slidingWindowStep`) over plain JSON state, so a shared backend (Redis, for a
 * fleet of Business nodes) can run the very same arithmetic atomically on its
 * side; `RateLimitBackend` is the seam. Time is always passed in (milliseconds
 * since the epoch), never read here.
 */
import { createHash } from 'node:crypto';
import { LruMap } from './lru.js';

/** A bucket holding at most `capacity` tokens, refilled continuously at `refillPerSecond`. */
export interface TokenBucketRule {
  kind: 'token-bucket';
  capacity: number;
  refillPerSecond: number;
}

/**
 * At most `limit` events in any span of `windowMs`, wherever that span starts: a true sliding
 * window, not one aligned to the clock. Counts are kept in `SLIDING_BUCKETS` buckets per window
 * (constant memory per key), each with the time of its latest event; a bucket counts in full while
 * that latest event is inside the window, so the limit is never exceeded, and a refusal's retry
 * time (the moment the bucket's latest event leaves the window) is never more than `windowMs`
 * away: a burst is admitted again exactly `windowMs` after it (R-G7: Retry-After is the time until
 * the window admits the call).
 */
export interface SlidingWindowRule {
  kind: 'sliding-window';
  limit: number;
  windowMs: number;
}

/** Buckets per sliding window: the window's edge is blurred by at most 1/SLIDING_BUCKETS of it. */
export const SLIDING_BUCKETS = 10;

export type RateRule = TokenBucketRule | SlidingWindowRule;

export interface RateDecision {
  allowed: boolean;
  /** Whole events still admissible right now after this decision. */
  remaining: number;
  /** When refused: milliseconds until the same request could be admitted; 0 when allowed. */
  retryAfterMs: number;
}

export interface TokenBucketState {
  tokens: number;
  /** Time of the last refill, ms. */
  at: number;
}

export interface SlidingWindowState {
  /**
   * Events per bucket, oldest first: `[bucket index, count, latest event ms]`, where bucket `i`
   * spans `[i, i + 1) × windowMs / SLIDING_BUCKETS` ms since the epoch. A state written before the
   * third member existed has none: its bucket then counts until the bucket's end.
   */
  buckets: ([number, number, number] | [number, number])[];
}

export function tokenBucketStep(
  state: TokenBucketState | undefined,
  rule: TokenBucketRule,
  nowMs: number,
  cost = 1,
): { state: TokenBucketState; decision: RateDecision } {
  const last = state ?? { tokens: rule.capacity, at: nowMs };
  // A clock that steps backwards must not mint tokens: elapsed is clamped at 0.
  const elapsedMs = Math.max(0, nowMs - last.at);
  const tokens = Math.min(rule.capacity, last.tokens + (elapsedMs / 1000) * rule.refillPerSecond);
  if (tokens >= cost) {
    const left = tokens - cost;
    return {
      state: { tokens: left, at: Math.max(nowMs, last.at) },
      decision: { allowed: true, remaining: Math.floor(left), retryAfterMs: 0 },
    };
  }
  const retryAfterMs = rule.refillPerSecond > 0 ? Math.ceil(((cost - tokens) / rule.refillPerSecond) * 1000) : Number.POSITIVE_INFINITY;
  return { state: { tokens, at: Math.max(nowMs, last.at) }, decision: { allowed: false, remaining: Math.floor(tokens), retryAfterMs } };
}

export function slidingWindowStep(
  state: SlidingWindowState | undefined,
  rule: SlidingWindowRule,
  nowMs: number,
  cost = 1,
): { state: SlidingWindowState; decision: RateDecision } {
  const n = SLIDING_BUCKETS;
  const w = rule.windowMs;
  let now = nowMs;
  let bucket = Math.floor((now * n) / w);
  const stored = state?.buckets ?? [];
  const newest = stored[stored.length - 1]?.[0] ?? Number.NEGATIVE_INFINITY;
  if (newest > bucket) {
    // Clock went backwards: decide as of the newest bucket rather than forget its counts.
    bucket = newest;
    now = Math.max(now, (bucket * w) / n);
  }
  // The window (now − windowMs, now] holds every bucket whose latest event is later than now − windowMs.
  const latest = (b: readonly number[]): number => b[2] ?? ((b[0] ?? 0) + 1) * (w / n);
  const kept = stored.filter((b) => b[0] >= bucket - n && latest(b) > now - w);
  const total = kept.reduce((sum, [, count]) => sum + count, 0);
  if (total + cost <= rule.limit) {
    const last = kept[kept.length - 1];
    const at = Math.max(now, last === undefined ? now : latest(last));
    const buckets: [number, number, number][] = kept.map((b) => [b[0], b[1], latest(b)]);
    if (last !== undefined && last[0] === bucket) buckets[buckets.length - 1] = [bucket, last[1] + cost, at];
    else buckets.push([bucket, cost, at]);
    return {
      state: { buckets },
      decision: { allowed: true, remaining: Math.max(0, Math.floor(rule.limit - total - cost)), retryAfterMs: 0 },
    };
  }
  // Earliest moment enough old buckets have left the window; never, for a cost above the limit.
  let retryAfterMs = Number.POSITIVE_INFINITY;
  let left = total;
  for (const b of kept) {
    left -= b[1];
    if (left + cost <= rule.limit) {
      retryAfterMs = Math.max(1, Math.ceil(latest(b) + w - now));
      break;
    }
  }
  return { state: { buckets: kept }, decision: { allowed: false, remaining: 0, retryAfterMs } };
}

/**
 * Where counters live. The in-memory default suits one process; a Redis backend
 * (same arithmetic, run atomically server-side) lets a fleet share budgets.
 */
export interface RateLimitBackend {
  consume(key: string, rule: RateRule, nowMs: number, cost: number): Promise<RateDecision>;
}

type AnyState = TokenBucketState | SlidingWindowState;

/**
 * Per-process counters, bounded by an LRU in keys and bytes so attacker-chosen keys cannot grow
 * memory. Keys are stored as fixed-size digests: a key may carry a caller's profile URL, and the
 * counter must not keep a copy of whatever the caller sent.
 */
export class MemoryRateLimitBackend implements RateLimitBackend {
  readonly #states: LruMap<string, AnyState>;

  constructor(options: { maxKeys?: number; maxBytes?: number } = {}) {
    this.#states = new LruMap(options.maxKeys ?? 10_000, options.maxBytes === undefined ? {} : { maxBytes: options.maxBytes });
  }

  /** Estimated bytes held by the counters (diagnostics and tests). */
  get bytes(): number {
    return this.#states.bytes;
  }

  consume(key: string, rule: RateRule, nowMs: number, cost: number): Promise<RateDecision> {
    const stateKey = `${rule.kind}:${budgetKeyDigest(key)}`;
    const previous = this.#states.get(stateKey);
    const step =
      rule.kind === 'token-bucket'
        ? tokenBucketStep(previous as TokenBucketState | undefined, rule, nowMs, cost)
        : slidingWindowStep(previous as SlidingWindowState | undefined, rule, nowMs, cost);
    this.#states.set(stateKey, step.state);
    return Promise.resolve(step.decision);
  }
}

export interface RateLimiterOptions {
  rule: RateRule;
  backend?: RateLimitBackend;
  /** Clock in ms; injectable for tests. */
  now?: () => number;
  /** Namespaces keys when several limiters share one backend. */
  keyPrefix?: string;
}

/** One rule applied to any number of keys (`'global'`, an origin, a client id…). */
export class RateLimiter {
  readonly #rule: RateRule;
  readonly #backend: RateLimitBackend;
  readonly #now: () => number;
  readonly #prefix: string;

  constructor(options: RateLimiterOptions) {
    validateRule(options.rule);
    this.#rule = options.rule;
    this.#backend = options.backend ?? new MemoryRateLimitBackend();
    this.#now = options.now ?? Date.now;
    this.#prefix = options.keyPrefix ?? '';
  }

  consume(key = 'global', cost = 1): Promise<RateDecision> {
    return this.#backend.consume(this.#prefix + key, this.#rule, this.#now(), cost);
  }
}

/** A budget key's fixed-size stand-in (SHA-256, base64url: 43 characters), whatever its length. */
export function budgetKeyDigest(key: string): string {
  return createHash('sha256').update(key).digest('base64url');
}

function validateRule(rule: RateRule): void {
  const positive = (n: number): boolean => Number.isFinite(n) && n > 0;
  if (rule.kind === 'token-bucket' && (!positive(rule.capacity) || !(rule.refillPerSecond >= 0))) {
    throw new RangeError('token-bucket rule needs capacity > 0 and refillPerSecond >= 0');
  }
  if (rule.kind === 'sliding-window' && (!positive(rule.limit) || !positive(rule.windowMs))) {
    throw new RangeError('sliding-window rule needs limit > 0 and windowMs > 0');
  }
}

export interface BackoffOptions {
  /** Refusal period after the first failure, ms; doubles with each further consecutive failure. */
  baseMs?: number;
  /** Longest refusal period, ms. */
  maxMs?: number;
  /** Keys remembered at most (LRU). */
  maxKeys?: number;
  now?: () => number;
}

export interface BackoffState {
  failures: number;
  /** Refuse until this time, ms. */
  until: number;
}

/**
 * Exponential back-off per key (an origin, R-G2): after `n` consecutive failures
 * the key is refused for `min(baseMs · 2^(n−1), maxMs)`. No jitter: this refuses
 * work immediately, it does not schedule retries, so there is no herd to spread.
 */
export class FailureBackoff {
  readonly #baseMs: number;
  readonly #maxMs: number;
  readonly #now: () => number;
  readonly #states: LruMap<string, BackoffState>;

  constructor(options: BackoffOptions = {}) {
    this.#baseMs = options.baseMs ?? 1_000;
    this.#maxMs = options.maxMs ?? 5 * 60_000;
    this.#now = options.now ?? Date.now;
    this.#states = new LruMap(options.maxKeys ?? 10_000);
  }

  /** Milliseconds the key must still wait; 0 when it may proceed. */
  waitMs(key: string): number {
    const state = this.#states.peek(key);
    return state ? Math.max(0, state.until - this.#now()) : 0;
  }

  recordFailure(key: string): BackoffState {
    const failures = (this.#states.peek(key)?.failures ?? 0) + 1;
    const delay = Math.min(this.#maxMs, this.#baseMs * 2 ** Math.min(failures - 1, 30));
    const state = { failures, until: this.#now() + delay };
    this.#states.set(key, state);
    return state;
  }

  recordSuccess(key: string): void {
    this.#states.delete(key);
  }
}
