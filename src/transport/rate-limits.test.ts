import { describe, expect, it } from 'vitest';
import { RateLimitedError } from '../errors.js';
import { DEFAULT_CONFIG } from '../config.js';
import { BudgetLimiter } from './rate-limits.js';

function limiter(now: { t: number }): BudgetLimiter {
  return new BudgetLimiter(
    {
      ...DEFAULT_CONFIG.rateLimits,
      perIp: { limit: 5, windowSeconds: 60 },
      perProfile: { limit: 8, windowSeconds: 60 },
      itemSearch: { limit: 2, windowSeconds: 60 },
    },
    { now: () => now.t },
  );
}

const P = 'https://platform.example/p.json';

describe('BudgetLimiter (R-P2)', () => {
  it('refuses a client IP past its budget with a positive retry_after, and admits it again later', async () => {
    const now = { t: 1_000_000_000 };
    const l = limiter(now);
    for (let i = 0; i < 5; i++) await l.admit({ clientIp: '192.0.2.1', profileUrl: P, itemSearch: false });
    const err = await l.admit({ clientIp: '192.0.2.1', profileUrl: P, itemSearch: false }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitedError);
    expect((err as RateLimitedError).retryAfterSeconds).toBeGreaterThan(0);
    // another IP of the same platform still has room in the profile budget
    await l.admit({ clientIp: '192.0.2.2', profileUrl: P, itemSearch: false });
    now.t += 2 * 60_000;
    await l.admit({ clientIp: '192.0.2.1', profileUrl: P, itemSearch: false });
  });

  it('limits a platform profile across all its IPs', async () => {
    const l = limiter({ t: 2_000_000_000 });
    for (let i = 0; i < 8; i++) await l.admit({ clientIp: `198.51.100.${i}`, profileUrl: P, itemSearch: false });
    await expect(l.admit({ clientIp: '198.51.100.99', profileUrl: P, itemSearch: false })).rejects.toBeInstanceOf(RateLimitedError);
  });

  it('is stricter for searches with filters.items', async () => {
    const l = limiter({ t: 3_000_000_000 });
    await l.admit({ clientIp: '203.0.113.1', profileUrl: P, itemSearch: true });
    await l.admit({ clientIp: '203.0.113.1', profileUrl: P, itemSearch: true });
    await expect(l.admit({ clientIp: '203.0.113.1', profileUrl: P, itemSearch: true })).rejects.toThrow(/filters\.items/);
    // plain searches from the same client still pass
    await l.admit({ clientIp: '203.0.113.1', profileUrl: P, itemSearch: false });
  });

  it('does not limit by IP when there is no network peer (stdio)', async () => {
    const l = limiter({ t: 4_000_000_000 });
    for (let i = 0; i < 8; i++) await l.admit({ clientIp: undefined, profileUrl: P, itemSearch: false });
    await expect(l.admit({ clientIp: undefined, profileUrl: P, itemSearch: false })).rejects.toBeInstanceOf(RateLimitedError);
  });
});
