/**
 * Redis-shared state against a real redis-server started for this file: the Lua counters give
 * the same decisions as the in-memory arithmetic, several instances share one budget, the
 * profile cache is shared, and an outage falls back to per-instance state (logged once) and
 * recovers by itself.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { MemoryRateLimitBackend, RateLimiter, type RateRule } from '../../src/protocol/rate-limit.js';
import { SafeFetchError, SafeFetcher } from '../../src/protocol/safe-fetch.js';
import { connectSharedState, RedisLink, type SharedState } from '../../src/shared-state/index.js';
import { json, startTestServer } from '../support/http-server.js';
import { ThrowawayRedis } from './support/redis.js';
import { describeWith, type ServiceName } from '../support/services.js';

const NEEDS: ServiceName[] = ['redis'];

let redis: ThrowawayRedis;

beforeAll(async () => {
  redis = await ThrowawayRedis.start();
});

afterAll(async () => {
  await redis.stop();
});

function recordingLogger() {
  const lines: string[] = [];
  return {
    lines,
    info: (_o: object, m: string) => void lines.push(`info: ${m}`),
    warn: (_o: object, m: string) => void lines.push(`warn: ${m}`),
  };
}

/**
 * Resolves once the link is (or is not) usable, checked on each of ioredis's own connection events
 * (it updates its status before emitting them): a slow reconnect on a busy machine is waited for,
 * never mistaken for a failure by a stopwatch.
 */
function linkBecomes(link: RedisLink, usable: boolean): Promise<void> {
  const events = ['ready', 'close', 'end', 'reconnecting'] as const;
  return new Promise((resolve) => {
    const check = (): void => {
      if (link.usable !== usable) return;
      for (const event of events) link.redis.off(event, check);
      resolve();
    };
    for (const event of events) link.redis.on(event, check);
    check();
  });
}

describeWith(NEEDS, 'RedisRateLimitBackend', () => {
  let shared: SharedState;
  beforeAll(async () => {
    shared = await connectSharedState(redis.url, { keyPrefix: 'parity:' });
  });
  afterAll(async () => {
    await shared.close();
  });

  const rules = fc.oneof(
    fc.record({
      kind: fc.constant('sliding-window' as const),
      limit: fc.integer({ min: 1, max: 20 }),
      windowMs: fc.integer({ min: 10, max: 5000 }),
    }),
    fc.record({
      kind: fc.constant('token-bucket' as const),
      capacity: fc.integer({ min: 1, max: 20 }),
      refillPerSecond: fc.oneof(fc.constant(0), fc.double({ min: 0.1, max: 50, noNaN: true })),
    }),
  );
  const steps = fc.array(fc.record({ dt: fc.integer({ min: -50, max: 3000 }), cost: fc.integer({ min: 1, max: 3 }) }), {
    minLength: 1,
    maxLength: 40,
  });

  it('gives exactly the decisions of the in-memory arithmetic, step by step (R-P2, same rules fleet-wide)', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(rules, steps, fc.integer({ min: 1_700_000_000_000, max: 1_800_000_000_000 }), async (rule: RateRule, seq, start) => {
        const memory = new MemoryRateLimitBackend();
        const key = `k${run++}`;
        let now = start;
        for (const { dt, cost } of seq) {
          now += dt;
          const expected = await memory.consume(key, rule, now, cost);
          const actual = await shared.rateLimitBackend.consume(key, rule, now, cost);
          expect(actual).toEqual(expected);
        }
      }),
      { numRuns: 60 },
    );
  });

  it('slides in Redis too: a spent budget returns a window after the burst, not at the next clock minute', async () => {
    const rule: RateRule = { kind: 'sliding-window', limit: 3, windowMs: 60_000 };
    const burst = 1_700_000_041_000; // one second into a clock minute
    for (let i = 0; i < 3; i++) expect((await shared.rateLimitBackend.consume('slide', rule, burst, 1)).allowed).toBe(true);
    const refused = await shared.rateLimitBackend.consume('slide', rule, burst + 1, 1);
    expect(refused.allowed).toBe(false);
    // At the turn of the minute (59 s later) a clock-aligned window would admit again; this does not.
    expect((await shared.rateLimitBackend.consume('slide', rule, burst + 59_000, 1)).allowed).toBe(false);
    const backAt = burst + 1 + refused.retryAfterMs;
    expect(backAt - burst).toBeGreaterThanOrEqual(60_000);
    expect(backAt - burst).toBeLessThanOrEqual(66_000);
    expect((await shared.rateLimitBackend.consume('slide', rule, backAt, 1)).allowed).toBe(true);
  });

  it('shares one budget between instances: a limit trips across two of them', async () => {
    const other = await connectSharedState(redis.url, { keyPrefix: 'parity:' });
    try {
      const rule: RateRule = { kind: 'sliding-window', limit: 5, windowMs: 60_000 };
      const a = new RateLimiter({ rule, backend: shared.rateLimitBackend, keyPrefix: 'ip:' });
      const b = new RateLimiter({ rule, backend: other.rateLimitBackend, keyPrefix: 'ip:' });
      const allowed: boolean[] = [];
      for (let i = 0; i < 8; i++) allowed.push((await (i % 2 === 0 ? a : b).consume('203.0.113.7')).allowed);
      expect(allowed.filter(Boolean).length).toBe(5);
      expect(allowed.slice(5)).toEqual([false, false, false]);
    } finally {
      await other.close();
    }
  });
});

describeWith(NEEDS, 'global discovery budget', () => {
  it('is shared: once one instance spent the new-origin budget, another instance is refused too (R-G2)', async () => {
    const [one, two] = await Promise.all([startTestServer(), startTestServer()]);
    const [sa, sb] = await Promise.all([
      connectSharedState(redis.url, { keyPrefix: 'budget:' }),
      connectSharedState(redis.url, { keyPrefix: 'budget:' }),
    ]);
    try {
      one.route('/p.json', json({ ok: 1 }, { 'cache-control': 'public, max-age=300' }));
      two.route('/p.json', json({ ok: 2 }, { 'cache-control': 'public, max-age=300' }));
      const options = { allowLoopback: true, newOriginRate: { kind: 'token-bucket' as const, capacity: 1, refillPerSecond: 0 } };
      const a = new SafeFetcher({ ...options, rateLimitBackend: sa.rateLimitBackend, cache: sa.cache });
      const b = new SafeFetcher({ ...options, rateLimitBackend: sb.rateLimitBackend, cache: sb.cache });
      expect((await a.get(`${one.origin('127.0.0.1')}/p.json`)).body).toEqual({ ok: 1 });
      const refused = await b.get(`${two.origin('127.0.0.1')}/p.json`).then(
        () => null,
        (e: unknown) => e,
      );
      expect(refused).toBeInstanceOf(SafeFetchError);
      expect((refused as SafeFetchError).reason).toBe('rate_limited');
      expect(two.requests).toHaveLength(0);
      // The document A fetched is served to B from the shared cache, without a fetch or budget.
      expect(await b.get(`${one.origin('127.0.0.1')}/p.json`)).toMatchObject({ body: { ok: 1 }, source: 'cache' });
      expect(one.requests).toHaveLength(1);
    } finally {
      await Promise.all([sa.close(), sb.close(), one.close(), two.close()]);
    }
  });
});

describeWith(NEEDS, 'RedisCacheBackend', () => {
  it('shares cached profiles between instances, expiring with the entry, and keeps object identity for repeated reads', async () => {
    const a = await connectSharedState(redis.url, { keyPrefix: 'cache:' });
    const b = await connectSharedState(redis.url, { keyPrefix: 'cache:' });
    try {
      const doc = { body: { ucp: { version: '2026-08-25' } }, etag: '"v1"', storedAt: 1000, expiresAt: 61_000, staleUntil: 3_601_000 };
      await a.cache.set('https://platform.example/profile', doc);
      const seen = await b.cache.get('https://platform.example/profile');
      expect(seen).toEqual(doc);
      expect(await b.cache.get('https://platform.example/profile')).toBe(seen);
      const ttl = await a.link.redis.pttl(
        (a.cache as unknown as { redisKey(k: string): string }).redisKey('https://platform.example/profile'),
      );
      expect(ttl).toBeGreaterThan(3_500_000);
      expect(ttl).toBeLessThanOrEqual(3_600_000);
      await b.cache.delete('https://platform.example/profile');
      expect(await a.cache.get('https://platform.example/profile')).toBeUndefined();
    } finally {
      await a.close();
      await b.close();
    }
  });
});

describeWith(NEEDS, 'Redis outage', () => {
  it('falls back to per-instance limits while Redis is down, logs it once, and shares again after it returns', async () => {
    const log = recordingLogger();
    const s = await connectSharedState(redis.url, { keyPrefix: 'outage:', logger: log });
    try {
      const rule: RateRule = { kind: 'sliding-window', limit: 3, windowMs: 60_000 };
      const now = Date.now();
      // Two shared admissions recorded in Redis.
      for (let i = 0; i < 2; i++) expect((await s.rateLimitBackend.consume('p', rule, now, 1)).allowed).toBe(true);

      await redis.stop();
      await linkBecomes(s.link, false);
      // Local counting starts from zero (the Redis counts are unreachable): 3 admitted, then refused.
      // Never waits on a dead Redis: while it is down, not one command is sent to it.
      const sent = vi.spyOn(s.link.redis, 'sendCommand');
      const local: boolean[] = [];
      for (let i = 0; i < 5; i++) local.push((await s.rateLimitBackend.consume('p', rule, now, 1)).allowed);
      expect(local).toEqual([true, true, true, false, false]);
      expect(await s.cache.get('https://nowhere.example/p')).toBeUndefined();
      expect(sent).not.toHaveBeenCalled();
      sent.mockRestore();
      expect(log.lines.filter((l) => l.startsWith('warn'))).toHaveLength(1);

      await redis.start();
      await linkBecomes(s.link, true);
      // Shared again: a fresh Redis has no counts for the key, so the next 3 are admitted.
      const back: boolean[] = [];
      for (let i = 0; i < 4; i++) back.push((await s.rateLimitBackend.consume('p', rule, now, 1)).allowed);
      expect(back).toEqual([true, true, true, false]);
      expect(log.lines.filter((l) => l.startsWith('info'))).toEqual([
        'info: Redis reachable again; shared rate limits and profile cache resumed',
      ]);
    } finally {
      await s.close();
    }
  });

  it('starts on local state when Redis is unreachable at start, then switches over (URL errors are ConfigErrors)', async () => {
    expect(() => new RedisLink('http://127.0.0.1:6379')).toThrow(/redis:\/\/ or rediss:\/\//);
    const log = recordingLogger();
    await redis.stop();
    const s = await connectSharedState(redis.url, { keyPrefix: 'late:', logger: log });
    try {
      expect(s.link.usable).toBe(false);
      const rule: RateRule = { kind: 'token-bucket', capacity: 1, refillPerSecond: 0 };
      expect((await s.rateLimitBackend.consume('g', rule, 0, 1)).allowed).toBe(true);
      expect((await s.rateLimitBackend.consume('g', rule, 0, 1)).allowed).toBe(false);
      await redis.start();
      await linkBecomes(s.link, true);
      expect((await s.rateLimitBackend.consume('g', rule, 0, 1)).allowed).toBe(true);
    } finally {
      await s.close();
      await redis.start();
    }
  });
});
