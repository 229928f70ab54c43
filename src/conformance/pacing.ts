/**
 * How the checker treats the Business's rate limit while it checks other rules. A run sends a few
 * hundred calls, and a Business that charges every request to the caller's address may refuse some
 * with 429. Such a refusal says nothing about the rule being checked, so the checker waits the time
 * the Business advised and sends the same request again, within a per-wait cap and a budget for the
 * whole run. When the budget is spent the refusal is handed back, and the runner reports the check
 * that met it as not evaluated instead of blaming the Business for an unrelated rule. The R-G7
 * probe, which wants to see the refusal, runs its calls with retries and spacing turned off.
 *
 * Optionally (`--pace`), calls are spaced out so that a known budget is not met at all.
 */
import { headerValue, type Exchange } from './exchange.js';
import { isRecord } from './oracle.js';
import type { ThrottlingSummary } from './types.js';

export type { ThrottlingSummary } from './types.js';

/** Longest single wait, ms: a Business advising minutes is not waited out by a conformance run. */
export const MAX_WAIT_MS = 15_000;
/** Default total waiting a run may spend on rate-limit refusals, ms (`--retry-budget`). */
export const DEFAULT_RETRY_BUDGET_MS = 45_000;
/** Wait when the refusal advises none (or zero): short, so a sliding window has moved on. */
const FALLBACK_WAIT_MS = 1_000;
/** Shortest wait, ms: "Retry-After: 0" must not turn into a tight loop. */
const MIN_WAIT_MS = 200;

/**
 * Milliseconds a Retry-After value advises (RFC 9110 §10.2.3: delta-seconds or an HTTP-date),
 * or undefined when the value is neither. A date in the past advises 0.
 */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  if (!/[A-Za-z]/.test(v)) return undefined;
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/**
 * When `exchange` is a rate-limit refusal (HTTP 429), the wait it advises in ms: the Retry-After
 * header, else MCP's `error.data.retry_after` (seconds), else a short default. Undefined for any
 * other answer.
 */
export function rateLimitAdvice(exchange: Exchange, now: number): number | undefined {
  if (exchange.status !== 429) return undefined;
  const header = parseRetryAfter(headerValue(exchange.headers, 'retry-after'), now);
  if (header !== undefined) return header;
  try {
    const body: unknown = JSON.parse(exchange.responseText ?? '');
    const error = isRecord(body) ? body['error'] : undefined;
    const seconds = isRecord(error) && isRecord(error['data']) ? error['data']['retry_after'] : undefined;
    if (typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  } catch {
    // Not JSON: the status alone says "later"; the default wait applies.
  }
  return FALLBACK_WAIT_MS;
}

/** The wait actually taken for an advice: at least MIN_WAIT_MS, at most MAX_WAIT_MS. */
export function cappedWait(adviceMs: number): number {
  return Math.min(MAX_WAIT_MS, Math.max(MIN_WAIT_MS, adviceMs));
}

export interface PacingOptions {
  /** Calls per second at most; undefined: unpaced. */
  paceCallsPerSecond?: number;
  /** Total waiting allowed for refusals, ms. Default DEFAULT_RETRY_BUDGET_MS; 0 never retries. */
  retryBudgetMs?: number;
  /** Injected for tests. */
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

const realSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** One per run, shared by every binding (the Business charges the address, not the binding). */
export class Pacer {
  readonly #intervalMs: number;
  readonly #budgetMs: number;
  readonly #sleep: (ms: number) => Promise<void>;
  readonly #now: () => number;
  readonly #pace: number | null;
  #nextSlot = 0;
  #retried = 0;
  #waitedMs = 0;
  #exhausted = false;
  /** Refusals handed back to a check unretried (budget spent); the runner reads it around each check. */
  #givenUp = 0;
  /** Inside the R-G7 probe: no spacing, no retries. */
  #raw = false;

  constructor(options: PacingOptions = {}) {
    this.#pace = options.paceCallsPerSecond ?? null;
    this.#intervalMs = this.#pace === null ? 0 : 1000 / this.#pace;
    this.#budgetMs = options.retryBudgetMs ?? DEFAULT_RETRY_BUDGET_MS;
    this.#sleep = options.sleep ?? realSleep;
    this.#now = options.now ?? Date.now;
  }

  /** Refusals handed back so far because the budget was spent. */
  get givenUp(): number {
    return this.#givenUp;
  }

  /** Runs `work` with neither spacing nor retries: the R-G7 probe must meet the refusal itself. */
  async unpaced<T>(work: () => Promise<T>): Promise<T> {
    this.#raw = true;
    try {
      return await work();
    } finally {
      this.#raw = false;
    }
  }

  /**
   * Sends with `attempt` (which must resend the same request each time), spacing calls under
   * `--pace` and waiting out 429s while the budget lasts. `cost`: how many calls the Business
   * charges for it (a batch is charged per element), so it takes that many slots.
   */
  async send(attempt: () => Promise<Exchange>, cost = 1): Promise<Exchange> {
    let retry = false;
    for (;;) {
      await this.#takeSlot(cost);
      const exchange = await attempt();
      if (this.#raw) return exchange;
      const advice = rateLimitAdvice(exchange, this.#now());
      if (advice === undefined || !(await this.waitOut(advice, retry))) return exchange;
      retry = true;
    }
  }

  /**
   * Waits out one refusal advising `adviceMs` when the budget allows and returns true; otherwise
   * records the refusal as handed back and returns false. `again`: the call was already counted
   * as retried (a second refusal of the same request).
   */
  async waitOut(adviceMs: number, again = false): Promise<boolean> {
    const wait = cappedWait(adviceMs);
    if (this.#raw || this.#exhausted || this.#waitedMs + wait > this.#budgetMs) {
      if (!this.#raw) this.#exhausted = true;
      this.#givenUp += 1;
      return false;
    }
    if (!again) this.#retried += 1;
    this.#waitedMs += wait;
    await this.#sleep(wait);
    return true;
  }

  async #takeSlot(cost: number): Promise<void> {
    if (this.#raw || this.#intervalMs === 0) return;
    const now = this.#now();
    // A call charged as n takes the n slots ending at the one it is sent in: the n − 1 before it
    // stay idle, so the Business's window never sees more than the pace allows.
    const slot = Math.max(now, this.#nextSlot + (Math.max(1, cost) - 1) * this.#intervalMs);
    this.#nextSlot = slot + this.#intervalMs;
    if (slot > now) await this.#sleep(slot - now);
  }

  summary(): ThrottlingSummary {
    return {
      paceCallsPerSecond: this.#pace,
      retriedCalls: this.#retried,
      waitedMs: Math.round(this.#waitedMs),
      budgetMs: this.#budgetMs,
      budgetExhausted: this.#exhausted,
    };
  }
}

/** Why a check met an unretried refusal is not a verdict, and what to do about it. */
export function throttledReason(summary: ThrottlingSummary): string {
  return `not evaluated: the Business rate-limited the checker (HTTP 429) and the ${(summary.budgetMs / 1000).toFixed(0)} s --retry-budget for waiting is spent (${(summary.waitedMs / 1000).toFixed(1)} s waited); rerun with --pace <calls-per-second> or a larger --retry-budget <seconds>, or raise the Business's per-address budget for this client`;
}
