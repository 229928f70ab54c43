/**
 * The budget for fetching discovery documents from origins not seen recently (R-G2): every such
 * fetch — and the DNS lookup before it — is outbound traffic a stranger chooses, so the whole
 * process spends at most a token bucket's worth. Three rules keep one party from spending it all:
 *
 *  1. **Shares per network, not per address.** Each client may spend only a share of the bucket
 *     (burst and refill); public addresses are grouped by network — IPv4 /24, IPv6 /56 — because
 *     one operator holding sixteen addresses usually holds them in one block (an IPv6 host alone
 *     gets a /64 or more). (A caller with no address, such as a background refresh, spends from
 *     the bucket directly.)
 *  2. **Fairness under pressure.** Once the bucket is below half full, each network may spend at
 *     most one token per `pressureWindowMs` (default a minute), whatever is left of its share.
 *     Many networks each staying within their share can then take only one token a minute each,
 *     while the bucket refills at its full rate: a new Platform asking for its one profile finds
 *     a token within seconds. Above half full, shares apply as usual, so bursts of legitimate new
 *     Platforms are not slowed.
 *  3. **The bucket itself**, which refuses everyone once it is empty.
 *
 * Whether the bucket is under pressure is judged from the remaining tokens the last spend saw;
 * with a shared (Redis) backend that is this instance's latest view of the fleet's bucket.
 */
import ipaddr from 'ipaddr.js';
import { RateLimiter, type RateLimitBackend, type TokenBucketRule } from './rate-limit.js';

export interface NewOriginBudgetOptions {
  rule: TokenBucketRule;
  /** Fraction (0–1] of the bucket one network may spend; 0 turns shares (and fairness) off. */
  clientShare: number;
  backend?: RateLimitBackend | undefined;
  now: () => number;
  /** Under pressure, each network spends at most one token per this many ms. Default 60 000. */
  pressureWindowMs?: number;
}

export type BudgetRefusal =
  { reason: 'rate_limited'; retryAfterMs: number } | { reason: 'client_rate_limited'; retryAfterMs: number; network: string };

export class NewOriginBudget {
  readonly #global: RateLimiter;
  readonly #share: RateLimiter | undefined;
  readonly #pressure: RateLimiter | undefined;
  readonly #pressureBelow: number;
  #lastRemaining: number;

  constructor(options: NewOriginBudgetOptions) {
    const { rule, clientShare: share, now } = options;
    const backend = options.backend === undefined ? {} : { backend: options.backend };
    this.#global = new RateLimiter({ rule, now, keyPrefix: 'ucp-discovery:', ...backend });
    this.#lastRemaining = rule.capacity;
    this.#pressureBelow = rule.capacity / 2;
    if (share > 0) {
      this.#share = new RateLimiter({
        rule: {
          kind: 'token-bucket',
          capacity: Math.max(1, Math.floor(rule.capacity * share)),
          refillPerSecond: rule.refillPerSecond * share,
        },
        now,
        keyPrefix: 'ucp-discovery-client:',
        ...backend,
      });
      this.#pressure = new RateLimiter({
        rule: { kind: 'sliding-window', limit: 1, windowMs: options.pressureWindowMs ?? 60_000 },
        now,
        keyPrefix: 'ucp-discovery-pressure:',
        ...backend,
      });
    }
  }

  /** Spends one token for `client` (an address), or says why not. */
  async spend(client: string | undefined): Promise<BudgetRefusal | undefined> {
    if (client !== undefined && this.#share !== undefined) {
      const network = clientNetwork(client);
      const mine = await this.#share.consume(network);
      if (!mine.allowed) return { reason: 'client_rate_limited', retryAfterMs: mine.retryAfterMs, network };
      if (this.#pressure !== undefined && this.#lastRemaining < this.#pressureBelow) {
        const fair = await this.#pressure.consume(network);
        if (!fair.allowed) return { reason: 'client_rate_limited', retryAfterMs: fair.retryAfterMs, network };
      }
    }
    const decision = await this.#global.consume('global');
    this.#lastRemaining = decision.remaining;
    return decision.allowed ? undefined : { reason: 'rate_limited', retryAfterMs: decision.retryAfterMs };
  }
}

/**
 * The network a client address belongs to, for budgets: IPv4 /24, IPv6 /56 (an IPv4-mapped IPv6
 * address counts as its IPv4 address). Only public addresses are grouped: loopback and private
 * peers (a reverse proxy, a test) stay one address each. Anything not an address is its own key.
 */
export function clientNetwork(client: string): string {
  if (!ipaddr.isValid(client)) return client;
  let address = ipaddr.parse(client);
  if (address instanceof ipaddr.IPv6 && address.isIPv4MappedAddress()) address = address.toIPv4Address();
  if (address.range() !== 'unicast') return address.toString();
  if (address instanceof ipaddr.IPv4) return `${address.octets.slice(0, 3).join('.')}.0/24`;
  const bytes = address.toByteArray().slice(0, 7);
  return `${ipaddr.fromByteArray([...bytes, ...new Array<number>(9).fill(0)]).toString()}/56`;
}
