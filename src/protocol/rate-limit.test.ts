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

describe('slidingWindowStep: a sliding window, not a clock-aligned one (R-P2)', () => {
  it('never admits more than `limit` in any span of `windowMs`, wherever it starts (property)', () => {
    fc.assert(
      fc.property(times, fc.integer({ min: 1, max: 10 }), fc.integer({ min: 100, max: 20_000 }), (ts, limit, windowMs) => {
        const rule = { kind: 'sliding-window', limit, windowMs } as const;
        let state: SlidingWindowState | undefined;
        const admitted: number[] = [];
        for (const t of ts) {
          const step = slidingWindowStep(state, rule, t);
          state = step.state;
          if (step.decision.allowed) admitted.push(t);
        }
        // Every span (t − windowMs, t] ending at an admitted event holds at most `limit` of them.
        for (const t of admitted) expect(admitted.filter((a) => a > t - windowMs && a <= t).length).toBeLessThanOrEqual(limit);
      }),
    );
  });

  it('a spent budget comes back windowMs after the burst (within a tenth), whatever the phase of the burst in the clock window', () => {
    const windowMs = 60_000;
    const rule = { kind: 'sliding-window', limit: 5, windowMs } as const;
    const minute = 1_700_000_040_000; // a multiple of 60 000: the start of a clock minute
    for (const phase of [1_000, 30_000, 59_000]) {
      const burst = minute + phase;
      let state: SlidingWindowState | undefined;
      for (let i = 0; i < 5; i += 1) state = slidingWindowStep(state, rule, burst).state;
      const refused = slidingWindowStep(state, rule, burst + 1);
      expect(refused.decision.allowed).toBe(false);
      const backAt = burst + 1 + refused.decision.retryAfterMs;
      // A clock-aligned window would free the key at the next minute (59 s, 30 s or 1 s later).
      expect(backAt - burst).toBeGreaterThanOrEqual(windowMs);
      expect(backAt - burst).toBeLessThanOrEqual(windowMs * 1.1);
      // Still refused just before the advertised time, admitted at it: the retry time is honest.
      expect(slidingWindowStep(state, rule, backAt - 1).decision.allowed).toBe(false);
      expect(slidingWindowStep(state, rule, backAt).decision.allowed).toBe(true);
    }
  });

  it('R-G7: a refusal never asks to wait longer than the window, and a burst is admitted again exactly windowMs after it (fails before: 62–66 s for 60 s)', () => {
    const windowMs = 60_000;
    const rule = { kind: 'sliding-window', limit: 5, windowMs } as const;
    for (const burst of [1_700_000_040_000, 1_700_000_045_999, 1_700_000_041_000]) {
      let state: SlidingWindowState | undefined;
      for (let i = 0; i < 5; i += 1) state = slidingWindowStep(state, rule, burst).state;
      const refused = slidingWindowStep(state, rule, burst);
      expect(refused.decision.retryAfterMs).toBe(windowMs);
      expect(slidingWindowStep(state, rule, burst + windowMs).decision.allowed).toBe(true);
    }
    fc.assert(
      fc.property(times, fc.integer({ min: 1, max: 10 }), fc.integer({ min: 100, max: 20_000 }), (ts, limit, w) => {
        const r = { kind: 'sliding-window', limit, windowMs: w } as const;
        let state: SlidingWindowState | undefined;
        for (const t of ts) {
          const step = slidingWindowStep(state, r, t);
          state = step.state;
          if (!step.decision.allowed) expect(step.decision.retryAfterMs).toBeLessThanOrEqual(w);
        }
      }),
    );
  });

  it('a clock stepping backwards forgets no events', () => {
    const rule = { kind: 'sliding-window', limit: 2, windowMs: 1_000 } as const;
    let state = slidingWindowStep(undefined, rule, 10_000).state;
    state = slidingWindowStep(state, rule, 10_500).state;
    expect(slidingWindowStep(state, rule, 5_000).decision.allowed).toBe(false);
  });

  it('keeps constant memory per key: at most one bucket per tenth of the window, plus one', () => {
    const rule = { kind: 'sliding-window', limit: 1_000, windowMs: 1_000 } as const;
    let state: SlidingWindowState | undefined;
    for (let t = 0; t < 10_000; t += 7) state = slidingWindowStep(state, rule, t).state;
    expect(state?.buckets.length).toBeLessThanOrEqual(11);
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
