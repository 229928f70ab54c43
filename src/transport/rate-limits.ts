/**
 * Request budgets (R-P2): per client IP and per Platform profile, plus a stricter budget for
 * searches that carry `filters.items` (item availability is what a competitor would probe).
 *
 * The counting itself is `RateLimiter` from protocol/rate-limit.ts; the counters live behind its
 * `RateLimitBackend`, in memory by default, so a shared backend (Redis) can be dropped in for a
 * fleet without touching this file.
 */
import { RateLimitedError } from '../errors.js';
import { MemoryRateLimitBackend, RateLimiter } from '../protocol/rate-limit.js';
import type { RateDecision, RateLimitBackend } from '../protocol/rate-limit.js';
import type { RateBudget, RateLimitConfig } from '../config.js';

export interface RequestIdentity {
  /** Socket peer address; `undefined` over stdio (no network peer to limit). */
  clientIp: string | undefined;
  /** The Platform profile URL as sent (before resolution: limits apply even when discovery fails). */
  profileUrl: string;
  /** True for a search with a non-empty `filters.items`. */
  itemSearch: boolean;
}

export interface RequestLimiter {
  /** Charges one request; throws RateLimitedError (429) when any applicable budget is spent. */
  admit(identity: RequestIdentity): Promise<void>;
}

/** No limits at all (config `rateLimits.enabled: false`, benchmarks). */
export const UNLIMITED: RequestLimiter = { admit: () => Promise.resolve() };

export class BudgetLimiter implements RequestLimiter {
  readonly #perIp: RateLimiter;
  readonly #perProfile: RateLimiter;
  readonly #itemsPerIp: RateLimiter;
  readonly #itemsPerProfile: RateLimiter;

  constructor(config: RateLimitConfig, options: { backend?: RateLimitBackend; now?: () => number } = {}) {
    const backend = options.backend ?? new MemoryRateLimitBackend({ maxKeys: 50_000 });
    const make = (budget: RateBudget, keyPrefix: string): RateLimiter =>
      new RateLimiter({
        rule: { kind: 'sliding-window', limit: budget.limit, windowMs: budget.windowSeconds * 1000 },
        backend,
        keyPrefix,
        ...(options.now ? { now: options.now } : {}),
      });
    this.#perIp = make(config.perIp, 'ip:');
    this.#perProfile = make(config.perProfile, 'profile:');
    this.#itemsPerIp = make(config.itemSearch, 'items-ip:');
    this.#itemsPerProfile = make(config.itemSearch, 'items-profile:');
  }

  async admit(identity: RequestIdentity): Promise<void> {
    const checks: Promise<RateDecision>[] = [this.#perProfile.consume(identity.profileUrl)];
    if (identity.clientIp !== undefined) checks.push(this.#perIp.consume(identity.clientIp));
    if (identity.itemSearch) {
      checks.push(this.#itemsPerProfile.consume(identity.profileUrl));
      if (identity.clientIp !== undefined) checks.push(this.#itemsPerIp.consume(identity.clientIp));
    }
    const decisions = await Promise.all(checks);
    const refused = decisions.filter((d) => !d.allowed);
    if (refused.length > 0) {
      const waitMs = Math.max(...refused.map((d) => d.retryAfterMs));
      const seconds = Number.isFinite(waitMs) ? Math.max(1, Math.ceil(waitMs / 1000)) : 60;
      throw new RateLimitedError(
        seconds,
        identity.itemSearch
          ? `Rate limit exceeded for searches with filters.items; retry after ${seconds} s`
          : `Rate limit exceeded; retry after ${seconds} s`,
      );
    }
  }
}
