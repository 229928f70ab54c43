/**
 * Turn-taking for the CPU-bound part of request handling on the one event loop.
 *
 * Why this exists: libuv accepts one pending connection per turn of the event loop (seen with
 * strace on Node 20 / libuv 1.46: a single accept4 per epoll_wait), and one turn runs the handler
 * of every socket that became readable. A search costs about a millisecond of CPU, so with 200
 * busy keep-alive connections a turn lasts a few hundred ms — and connections opened meanwhile
 * wait in the kernel's accept queue for seconds (10-s client timeouts in the 200-connection load
 * test) while the connections already accepted are served in a fraction of a second.
 *
 * Requests therefore queue for a turn, first come first served. Turns are handed out by a batch
 * of `setImmediate` callbacks, one request each: Node drains promise jobs and `nextTick`s after
 * every immediate, so a request whose data is at hand (SQLite is synchronous, profiles cached)
 * runs to completion inside its own immediate, and the next one checks the clock. Once a batch
 * has used its time budget the rest of the batch passes, and the queue resumes on the next loop
 * turn — after the poll phase has accepted, read and timed what was waiting. A request that
 * awaits real I/O (PostgreSQL, a profile fetch) simply continues later like any callback.
 *
 * The queue is bounded: past `maxQueued` waiting requests the caller is told to shed load (503 +
 * Retry-After) rather than let latency and memory grow without limit.
 */

export interface RequestTurnsOptions {
  /** CPU time one loop turn may spend on queued requests before I/O gets its turn, ms. */
  budgetMs: number;
  /** Requests allowed to wait at once; beyond that `turn()` answers false. */
  maxQueued: number;
}

export const DEFAULT_REQUEST_TURNS: RequestTurnsOptions = { budgetMs: 10, maxQueued: 4096 };

/** Most immediates scheduled per loop turn (each starts at most one request). */
const MAX_BATCH = 64;

export class RequestTurns {
  readonly #options: RequestTurnsOptions;
  /** Waiting requests: a growable ring would do; an array with a moving head is simpler and O(1) amortised. */
  #waiting: Array<(granted: boolean) => void> = [];
  #head = 0;
  #batchScheduled = false;
  /** When the current batch handed out its first turn (performance.now()), or -1 before that. */
  #batchStart = -1;

  constructor(options: Partial<RequestTurnsOptions> = {}) {
    this.#options = { ...DEFAULT_REQUEST_TURNS, ...options };
    if (!(this.#options.budgetMs > 0) || !Number.isInteger(this.#options.maxQueued) || this.#options.maxQueued < 1) {
      throw new RangeError(`request turns need budgetMs > 0 and an integer maxQueued ≥ 1 (got ${JSON.stringify(this.#options)})`);
    }
  }

  /** Requests currently waiting for a turn. */
  get queued(): number {
    return this.#waiting.length - this.#head;
  }

  /**
   * Resolves true when the caller may run; false at once when the queue is full (shed the
   * request). Await it right before the CPU-bound work, never while holding a resource.
   */
  turn(): Promise<boolean> {
    if (this.queued >= this.#options.maxQueued) return Promise.resolve(false);
    const granted = new Promise<boolean>((resolve) => this.#waiting.push(resolve));
    if (!this.#batchScheduled) this.#scheduleBatch();
    return granted;
  }

  #scheduleBatch(): void {
    this.#batchScheduled = true;
    this.#batchStart = -1;
    const size = Math.min(this.queued, MAX_BATCH);
    for (let i = 0; i < size; i++) setImmediate(this.#grantOne, i === size - 1);
  }

  readonly #grantOne = (last: boolean): void => {
    const now = performance.now();
    if (this.#batchStart < 0) this.#batchStart = now;
    if (now - this.#batchStart < this.#options.budgetMs && this.queued > 0) {
      const resolve = this.#waiting[this.#head];
      this.#waiting[this.#head++] = NO_ONE;
      if (this.#head === this.#waiting.length) {
        this.#waiting = [];
        this.#head = 0;
      } else if (this.#head >= 1024 && this.#head * 2 >= this.#waiting.length) {
        this.#waiting = this.#waiting.slice(this.#head);
        this.#head = 0;
      }
      resolve?.(true);
    }
    if (last) {
      this.#batchScheduled = false;
      if (this.queued > 0) this.#scheduleBatch();
    }
  };
}

/** Placeholder left in a slot already granted, so the array does not keep resolved closures alive. */
const NO_ONE = (): void => undefined;
