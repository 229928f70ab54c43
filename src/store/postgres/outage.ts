/**
 * Fail-fast while the database is unreachable (a small circuit breaker).
 *
 * When a query fails because PostgreSQL cannot be reached, the store enters an *outage*: for
 * `probeMs` every request is refused at once with ServiceUnavailableError (HTTP 503 / JSON-RPC
 * -32000 with `retry_after`) without touching the pool, so a dead or black-holed server never
 * makes requests queue for the connect timeout. After that one request at a time is let through
 * as a probe; its success ends the outage (no restart needed), its failure re-arms the timer.
 * The transitions are logged once each, not per request.
 */
import { ServiceUnavailableError } from '../../errors.js';
import type { StoreLogger } from './connection.js';

export class OutageGuard {
  #downSince: number | null = null;
  #until = 0;
  #probing = false;
  #lastReason = '';

  constructor(
    private readonly probeMs: number,
    private readonly retryAfterSeconds: number,
    private readonly logger: StoreLogger | undefined,
    private readonly label: string,
    private readonly now: () => number = Date.now,
  ) {}

  get down(): boolean {
    return this.#downSince !== null;
  }

  /** Why the last outage began (for readiness reports); '' when up. */
  get reason(): string {
    return this.#downSince === null ? '' : this.#lastReason;
  }

  /** The error requests get during an outage. */
  unavailable(cause?: unknown): ServiceUnavailableError {
    return new ServiceUnavailableError(
      this.retryAfterSeconds,
      `The location directory is temporarily unavailable; retry in ${this.retryAfterSeconds} s.`,
      cause === undefined ? undefined : { cause },
    );
  }

  /**
   * Call before using the database. Throws during an outage, except for the one probe allowed
   * once the quiet period is over; returns true when the caller is that probe.
   */
  enter(): boolean {
    if (this.#downSince === null) return false;
    if (this.now() < this.#until || this.#probing) throw this.unavailable();
    this.#probing = true;
    return true;
  }

  succeeded(): void {
    this.#probing = false;
    if (this.#downSince === null) return;
    const seconds = ((this.now() - this.#downSince) / 1000).toFixed(1);
    this.#downSince = null;
    this.logger?.info({ store: this.label, outageSeconds: Number(seconds) }, 'PostgreSQL reachable again; serving requests');
  }

  /** Record an unavailability failure. */
  failed(error: unknown): void {
    this.#probing = false;
    this.#until = this.now() + this.probeMs;
    this.#lastReason = error instanceof Error ? error.message : String(error);
    if (this.#downSince !== null) return;
    this.#downSince = this.now();
    this.logger?.error(
      { store: this.label, reason: this.#lastReason, retryAfterSeconds: this.retryAfterSeconds },
      'PostgreSQL unreachable; answering 503 until it returns',
    );
  }

  /** A probe that ended with an error unrelated to reachability still proves the server is up. */
  settled(): void {
    this.#probing = false;
  }
}
