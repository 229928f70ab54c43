/**
 * Request budgets (R-P2). Who can spend what:
 *
 *  - **per client address** (`perIp`): charged by `admitClient` for every request to a binding
 *    endpoint *before its body is read*, so a flood of garbage costs its sender, not the server;
 *  - **per Platform profile** (`perProfile`): the profile URL is only *claimed* by the caller
 *    (nothing authenticates it), so a profile-wide pool alone would let anyone lock a Platform
 *    out by naming its URL. Each client address therefore also holds a reserved share of the
 *    profile's budget (`clientShare`, keyed by profile *and* address): a call is admitted when
 *    either the caller's reserved share or the shared pool has room. Spending the pool from other
 *    addresses never touches the real Platform's share;
 *  - **item searches** (`itemSearch`, availability probing): per client address, and per profile
 *    with the same pool-plus-reserved-share rule.
 *
 * Windows are sliding (protocol/rate-limit.ts). The counters live behind a `RateLimitBackend`, in
 * memory by default, so a shared backend (Redis) can be dropped in for a fleet.
 */
import { RateLimitedError } from '../errors.js';
import { MemoryRateLimitBackend, RateLimiter, budgetKeyDigest } from '../protocol/rate-limit.js';
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
  /**
   * Charges `cost` requests to the client address's budget; throws RateLimitedError (429) when it
   * is spent. Called before the body is read; `undefined` (stdio) is never limited.
   */
  admitClient(clientIp: string | undefined, cost?: number): Promise<void>;
  /** Charges one operation to its profile (and item-search) budgets; throws RateLimitedError (429). */
  admit(identity: RequestIdentity): Promise<void>;
}

/** No limits at all (config `rateLimits.enabled: false`, benchmarks). */
export const UNLIMITED: RequestLimiter = { admitClient: () => Promise.resolve(), admit: () => Promise.resolve() };

/** A profile-wide pool plus a reserved share of it per client address. */
class SharedBudget {
  readonly #pool: RateLimiter;
  readonly #reserved: RateLimiter | undefined;

  constructor(make: (budget: RateBudget, prefix: string) => RateLimiter, budget: RateBudget, share: number, prefix: string) {
    this.#pool = make(budget, `${prefix}:`);
    const reserved = Math.ceil(budget.limit * share);
    this.#reserved = reserved > 0 ? make({ ...budget, limit: reserved }, `${prefix}-client:`) : undefined;
  }

  /** Both counters are charged while they have room; refused only when both are spent. */
  async consume(profileUrl: string, clientIp: string | undefined): Promise<RateDecision> {
    // Keyed by a digest of the URL: counters never hold a copy of what the caller sent. The
    // separator cannot occur in an IP address, so (profile, address) pairs never collide.
    const profile = budgetKeyDigest(profileUrl);
    const own = clientIp === undefined || this.#reserved === undefined ? undefined : this.#reserved.consume(`${clientIp} ${profile}`);
    const [pool, mine] = await Promise.all([this.#pool.consume(profile), own]);
    if (pool.allowed || mine === undefined) return pool;
    if (mine.allowed) return mine;
    return { allowed: false, remaining: 0, retryAfterMs: Math.min(pool.retryAfterMs, mine.retryAfterMs) };
  }
}

export class BudgetLimiter implements RequestLimiter {
  readonly #perIp: RateLimiter;
  readonly #perProfile: SharedBudget;
  readonly #itemsPerIp: RateLimiter;
  readonly #itemsPerProfile: SharedBudget;

  constructor(config: RateLimitConfig, options: { backend?: RateLimitBackend; now?: () => number } = {}) {
    // ~800 bytes a key at most (digest key, ten buckets): 50,000 keys fit in the byte bound.
    const backend = options.backend ?? new MemoryRateLimitBackend({ maxKeys: 50_000, maxBytes: 64 * 1024 * 1024 });
    const make = (budget: RateBudget, keyPrefix: string): RateLimiter =>
      new RateLimiter({
        rule: { kind: 'sliding-window', limit: budget.limit, windowMs: budget.windowSeconds * 1000 },
        backend,
        keyPrefix,
        ...(options.now ? { now: options.now } : {}),
      });
    this.#perIp = make(config.perIp, 'ip:');
    this.#perProfile = new SharedBudget(make, config.perProfile, config.clientShare, 'profile');
    this.#itemsPerIp = make(config.itemSearch, 'items-ip:');
    this.#itemsPerProfile = new SharedBudget(make, config.itemSearch, config.clientShare, 'items-profile');
  }

  async admitClient(clientIp: string | undefined, cost = 1): Promise<void> {
    if (clientIp === undefined || cost <= 0) return;
    refuseIfSpent([await this.#perIp.consume(clientIp, cost)], false);
  }

  async admit(identity: RequestIdentity): Promise<void> {
    const { clientIp, profileUrl, itemSearch } = identity;
    const checks: Promise<RateDecision>[] = [this.#perProfile.consume(profileUrl, clientIp)];
    if (itemSearch) {
      checks.push(this.#itemsPerProfile.consume(profileUrl, clientIp));
      if (clientIp !== undefined) checks.push(this.#itemsPerIp.consume(clientIp));
    }
    refuseIfSpent(await Promise.all(checks), itemSearch);
  }
}

function refuseIfSpent(decisions: readonly RateDecision[], itemSearch: boolean): void {
  const refused = decisions.filter((d) => !d.allowed);
  if (refused.length === 0) return;
  const waitMs = Math.max(...refused.map((d) => d.retryAfterMs));
  const seconds = Number.isFinite(waitMs) ? Math.max(1, Math.ceil(waitMs / 1000)) : 60;
  throw new RateLimitedError(
    seconds,
    itemSearch
      ? `Rate limit exceeded for searches with filters.items; retry after ${seconds} s`
      : `Rate limit exceeded; retry after ${seconds} s`,
  );
}
