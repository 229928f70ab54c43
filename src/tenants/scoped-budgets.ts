/**
 * Budgets across tenants. One counter store serves every tenant of the process; each tenant's
 * limiter sees it through this view, which keeps a client address's budget (`ip:` keys, charged
 * before a body is read) common to the whole process and puts every other budget — per Platform
 * profile, item searches, discovery — in the tenant's own namespace. So a caller cannot spend one
 * brand's profile or discovery budget at another's host, but cannot multiply its own request
 * budget by the number of brands either.
 */
import type { RateDecision, RateLimitBackend, RateRule } from '../protocol/rate-limit.js';

/** The prefix BudgetLimiter gives its per-client-address counters (transport/rate-limits.ts). */
const PROCESS_WIDE_PREFIX = 'ip:';

export class TenantScopedBackend implements RateLimitBackend {
  readonly #shared: RateLimitBackend;
  readonly #namespace: string;

  constructor(shared: RateLimitBackend, domain: string) {
    this.#shared = shared;
    // A domain holds no space, so no tenant's namespace is a prefix of another's.
    this.#namespace = `tenant ${domain} `;
  }

  consume(key: string, rule: RateRule, nowMs: number, cost: number): Promise<RateDecision> {
    const scoped = key.startsWith(PROCESS_WIDE_PREFIX) ? key : this.#namespace + key;
    return this.#shared.consume(scoped, rule, nowMs, cost);
  }
}
