import { describe, expect, it } from 'vitest';
import { RateLimitedError } from '../errors.js';
import { DEFAULT_CONFIG } from '../config.js';
import type { RateLimitConfig } from '../config.js';
import { BudgetLimiter } from './rate-limits.js';

function limiter(now: { t: number }, overrides: Partial<RateLimitConfig> = {}): BudgetLimiter {
  return new BudgetLimiter(
    {
      ...DEFAULT_CONFIG.rateLimits,
      perIp: { limit: 5, windowSeconds: 60 },
      perProfile: { limit: 8, windowSeconds: 60 },
      itemSearch: { limit: 2, windowSeconds: 60 },
      clientShare: 0,
      ...overrides,
    },
    { now: () => now.t },
  );
}

const P = 'https://platform.example/p.json';

describe('BudgetLimiter (R-P2)', () => {
  it('refuses a client IP past its budget with a positive retry_after, and admits it again later', async () => {
    const now = { t: 1_000_000_000 };
    const l = limiter(now);
    for (let i = 0; i < 5; i++) await l.admitClient('192.0.2.1');
    const err = await l.admitClient('192.0.2.1').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitedError);
    expect((err as RateLimitedError).retryAfterSeconds).toBeGreaterThan(0);
    // another IP has a budget of its own
    await l.admitClient('192.0.2.2');
    now.t += 2 * 60_000;
    await l.admitClient('192.0.2.1');
  });

  it('charges a batch by its messages: a cost above what is left is refused', async () => {
    const l = limiter({ t: 1_500_000_000 });
    await l.admitClient('192.0.2.9', 3);
    await expect(l.admitClient('192.0.2.9', 3)).rejects.toBeInstanceOf(RateLimitedError);
    await l.admitClient('192.0.2.9', 2);
  });

  it('without a reserved share, limits a platform profile across all its IPs', async () => {
    const l = limiter({ t: 2_000_000_000 });
    for (let i = 0; i < 8; i++) await l.admit({ clientIp: `198.51.100.${i}`, profileUrl: P, itemSearch: false });
    await expect(l.admit({ clientIp: '198.51.100.99', profileUrl: P, itemSearch: false })).rejects.toBeInstanceOf(RateLimitedError);
  });

  it('other addresses spending a claimed profile URL never touch the reserved share of the real caller', async () => {
    const now = { t: 2_500_000_000 };
    const l = limiter(now, { perProfile: { limit: 20, windowSeconds: 60 }, clientShare: 0.25 }); // 5 reserved per address
    // Third parties (each within its own share) drain the profile's shared pool…
    for (let i = 0; i < 20; i++) await l.admit({ clientIp: `203.0.113.${i % 4}`, profileUrl: P, itemSearch: false });
    // …and one of them, past its share with the pool empty, is refused…
    for (let i = 0; i < 5; i++) await l.admit({ clientIp: '203.0.113.0', profileUrl: P, itemSearch: false }).catch(() => undefined);
    await expect(l.admit({ clientIp: '203.0.113.0', profileUrl: P, itemSearch: false })).rejects.toBeInstanceOf(RateLimitedError);
    // …while the real caller still has its 5, and only then is refused.
    for (let i = 0; i < 5; i++) await l.admit({ clientIp: '192.0.2.50', profileUrl: P, itemSearch: false });
    await expect(l.admit({ clientIp: '192.0.2.50', profileUrl: P, itemSearch: false })).rejects.toBeInstanceOf(RateLimitedError);
    // The reserved share is per profile: the same address naming another profile is not affected.
    await l.admit({ clientIp: '192.0.2.50', profileUrl: 'https://other.example/p.json', itemSearch: false });
  });

  it('is stricter for searches with filters.items', async () => {
    const l = limiter({ t: 3_000_000_000 });
    await l.admit({ clientIp: '203.0.113.1', profileUrl: P, itemSearch: true });
    await l.admit({ clientIp: '203.0.113.1', profileUrl: P, itemSearch: true });
    await expect(l.admit({ clientIp: '203.0.113.1', profileUrl: P, itemSearch: true })).rejects.toThrow(/filters\.items/);
    // plain searches from the same client still pass
    await l.admit({ clientIp: '203.0.113.1', profileUrl: P, itemSearch: false });
  });

  it('does not limit by IP when there is no network peer (stdio), only by profile', async () => {
    const l = limiter({ t: 4_000_000_000 }, { clientShare: 0.5 });
    for (let i = 0; i < 20; i++) await l.admitClient(undefined);
    for (let i = 0; i < 8; i++) await l.admit({ clientIp: undefined, profileUrl: P, itemSearch: false });
    await expect(l.admit({ clientIp: undefined, profileUrl: P, itemSearch: false })).rejects.toBeInstanceOf(RateLimitedError);
  });
});
