import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  FailureBackoff,
  MemoryRateLimitBackend,
  RateLimiter,
  slidingWindowStep,
  tokenBucketStep,
  type SlidingWindowState,
  type TokenBucketRule,
  type TokenBucketState,
} from './rate-limit.js';

/** Increasing times (ms) from gaps. */
const times = fc.array(fc.integer({ min: 0, max: 5_000 }), { minLength: 1, maxLength: 200 }).map((gaps) => {
  let t = 1_000_000;
  return gaps.map((g) => (t += g));
});

describe('tokenBucketStep (R-G2 global discovery budget)', () => {
  it('admits a burst of exactly `capacity`, then refuses with the time to the next token', () => {
    const rule: TokenBucketRule = { kind: 'token-bucket', capacity: 3, refillPerSecond: 0.5 };
    let state: TokenBucketState | undefined;
    const allowed: boolean[] = [];
    let retry = 0;
    for (let i = 0; i < 4; i += 1) {
      const step = tokenBucketStep(state, rule, 0);
      state = step.state;
      allowed.push(step.decision.allowed);
      retry = step.decision.retryAfterMs;
    }
    expect(allowed).toEqual([true, true, true, false]);
    expect(retry).toBe(2_000);
    expect(tokenBucketStep(state, rule, 2_000).decision.allowed).toBe(true);
  });

  it('never admits more than capacity + refill × elapsed (property)', () => {
    fc.assert(
      fc.property(times, fc.integer({ min: 1, max: 20 }), fc.double({ min: 0, max: 10, noNaN: true }), (ts, capacity, refillPerSecond) => {
        const rule: TokenBucketRule = { kind: 'token-bucket', capacity, refillPerSecond };
        let state: TokenBucketState | undefined;
        let admitted = 0;
        for (const t of ts) {
          const step = tokenBucketStep(state, rule, t);
          state = step.state;
          if (step.decision.allowed) admitted += 1;
        }
        const first = ts[0] ?? 0;
        const last = ts[ts.length - 1] ?? 0;
        expect(admitted).toBeLessThanOrEqual(capacity + Math.floor(((last - first) / 1000) * refillPerSecond) + 1e-9);
      }),
    );
  });

  it('a clock stepping backwards mints no tokens', () => {
    const rule: TokenBucketRule = { kind: 'token-bucket', capacity: 1, refillPerSecond: 1 };
    const spent = tokenBucketStep(undefined, rule, 10_000).state;
    expect(tokenBucketStep(spent, rule, 0).decision.allowed).toBe(false);
  });
});

describe('slidingWindowStep', () => {
  it('never admits more than `limit` within one aligned window (property)', () => {
    fc.assert(
      fc.property(times, fc.integer({ min: 1, max: 10 }), fc.integer({ min: 100, max: 20_000 }), (ts, limit, windowMs) => {
        const rule = { kind: 'sliding-window', limit, windowMs } as const;
        let state: SlidingWindowState | undefined;
        const perWindow = new Map<number, number>();
        for (const t of ts) {
          const step = slidingWindowStep(state, rule, t);
          state = step.state;
          if (step.decision.allowed) {
            const w = Math.floor(t / windowMs);
            perWindow.set(w, (perWindow.get(w) ?? 0) + 1);
          }
        }
        for (const count of perWindow.values()) expect(count).toBeLessThanOrEqual(limit);
      }),
    );
  });

  it('weights the previous window by its remaining overlap', () => {
    const rule = { kind: 'sliding-window', limit: 10, windowMs: 1_000 } as const;
    let state: SlidingWindowState | undefined;
    for (let i = 0; i < 10; i += 1) state = slidingWindowStep(state, rule, 500).state;
    // At 1250 ms the previous window (10 hits) still counts 75 % → 7.5; 2 more fit, the third does not.
    const a = slidingWindowStep(state, rule, 1_250);
    const b = slidingWindowStep(a.state, rule, 1_250);
    const c = slidingWindowStep(b.state, rule, 1_250);
    expect([a.decision.allowed, b.decision.allowed, c.decision.allowed]).toEqual([true, true, false]);
    expect(c.decision.retryAfterMs).toBeGreaterThan(0);
    // The advertised retry time is honest: at that moment the event is admitted.
    expect(slidingWindowStep(c.state, rule, 1_250 + c.decision.retryAfterMs).decision.allowed).toBe(true);
  });
});

describe('RateLimiter + MemoryRateLimitBackend', () => {
  it('keeps separate budgets per key and per rule kind', async () => {
    let now = 0;
    const backend = new MemoryRateLimitBackend();
    const limiter = new RateLimiter({ rule: { kind: 'token-bucket', capacity: 1, refillPerSecond: 0 }, backend, now: () => now });
    expect((await limiter.consume('a')).allowed).toBe(true);
    expect((await limiter.consume('a')).allowed).toBe(false);
    expect((await limiter.consume('b')).allowed).toBe(true);
    now += 60_000;
    expect((await limiter.consume('a')).allowed).toBe(false); // refill 0: never again
  });

  it('forgets the least recently used keys beyond maxKeys', async () => {
    const backend = new MemoryRateLimitBackend({ maxKeys: 2 });
    const rule = { kind: 'token-bucket', capacity: 1, refillPerSecond: 0 } as const;
    await backend.consume('a', rule, 0, 1);
    await backend.consume('b', rule, 0, 1);
    await backend.consume('c', rule, 0, 1); // evicts a
    expect((await backend.consume('a', rule, 0, 1)).allowed).toBe(true);
    expect((await backend.consume('c', rule, 0, 1)).allowed).toBe(false);
  });

  it('rejects nonsensical rules at construction', () => {
    expect(() => new RateLimiter({ rule: { kind: 'token-bucket', capacity: 0, refillPerSecond: 1 } })).toThrow(RangeError);
    expect(() => new RateLimiter({ rule: { kind: 'sliding-window', limit: 5, windowMs: 0 } })).toThrow(RangeError);
  });
});

describe('FailureBackoff (R-G2 back-off on repeated failures)', () => {
  it('doubles the refusal period per consecutive failure up to the maximum, and resets on success', () => {
    let now = 0;
    const backoff = new FailureBackoff({ baseMs: 1_000, maxMs: 5_000, now: () => now });
    expect(backoff.waitMs('o')).toBe(0);
    const periods = [1, 2, 3, 4, 5].map(() => backoff.recordFailure('o').until - now);
    expect(periods).toEqual([1_000, 2_000, 4_000, 5_000, 5_000]);
    now += 4_000;
    expect(backoff.waitMs('o')).toBe(1_000);
    backoff.recordSuccess('o');
    expect(backoff.waitMs('o')).toBe(0);
    expect(backoff.recordFailure('o').until - now).toBe(1_000);
  });

  it('tracks keys independently', () => {
    const backoff = new FailureBackoff({ now: () => 0 });
    backoff.recordFailure('a');
    expect(backoff.waitMs('a')).toBeGreaterThan(0);
    expect(backoff.waitMs('b')).toBe(0);
  });
});
