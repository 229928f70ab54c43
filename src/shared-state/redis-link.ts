/**
 * One Redis connection (ioredis) shared by the fleet-wide state backends, with the failure
 * behaviour they rely on:
 *
 *  - commands never queue while Redis is away (`enableOfflineQueue: false`) and time out fast
 *    (`commandTimeout`), so a request never waits on Redis for long;
 *  - ioredis reconnects forever with a capped back-off, so the fleet recovers by itself;
 *  - `usable` says whether to try Redis at all; backends fall back to their per-instance state
 *    otherwise. Going down and coming back are logged once each, not per request.
 */
import { Redis } from 'ioredis';
import { ConfigError } from '../errors.js';

/** The subset of a pino logger used here. */
export interface SharedStateLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface RedisLinkOptions {
  /** Longest wait for one command, ms. Default 250. */
  commandTimeoutMs?: number;
  /** TCP connect bound, ms. Default 1000. */
  connectTimeoutMs?: number;
  /** Largest pause between reconnect attempts, ms. Default 2000. */
  maxReconnectDelayMs?: number;
  logger?: SharedStateLogger;
}

/** `redis://…` or `rediss://…` (TLS). */
export function isRedisUrl(value: string): boolean {
  return /^rediss?:\/\//i.test(value);
}

function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password !== '') u.password = '***';
    return u.toString();
  } catch {
    return '<unparseable Redis URL>';
  }
}

export class RedisLink {
  readonly redis: Redis;
  readonly display: string;
  readonly #logger: SharedStateLogger | undefined;
  /** null while healthy; the time the current outage was first noticed otherwise. */
  #downSince: number | null = null;
  #closed = false;

  constructor(url: string, options: RedisLinkOptions = {}) {
    if (!isRedisUrl(url)) throw new ConfigError(`--redis expects a redis:// or rediss:// URL, got ${JSON.stringify(redact(url))}`);
    this.display = redact(url);
    this.#logger = options.logger;
    const maxDelay = options.maxReconnectDelayMs ?? 2000;
    this.redis = new Redis(url, {
      lazyConnect: true,
      enableOfflineQueue: false,
      // A command sent on a connection that then drops fails at once instead of being retried:
      // the caller falls back to local state for this request.
      maxRetriesPerRequest: 0,
      commandTimeout: options.commandTimeoutMs ?? 250,
      connectTimeout: options.connectTimeoutMs ?? 1000,
      retryStrategy: (times) => Math.min(100 * 2 ** Math.min(times, 10), maxDelay),
    });
    this.redis.on('ready', () => this.succeeded());
    // Without an 'error' listener ioredis reports every failed reconnect on the console.
    this.redis.on('error', (err: Error) => this.markDown(err));
    this.redis.on('end', () => this.markDown(new Error('connection closed')));
    this.redis.on('close', () => {
      if (!this.#closed && this.redis.status !== 'ready') this.markDown(new Error('connection closed'));
    });
  }

  /**
   * Connect (bounded by the connect timeout). Never throws: when Redis is not reachable at start
   * the instance runs on local state and switches to Redis when it appears.
   */
  async start(): Promise<boolean> {
    try {
      await this.redis.connect();
      return true;
    } catch (err) {
      this.markDown(err);
      return false;
    }
  }

  /** Redis is connected and worth trying. */
  get usable(): boolean {
    return !this.#closed && this.redis.status === 'ready';
  }

  get down(): boolean {
    return this.#downSince !== null;
  }

  /** A command worked: ends an outage (logged once). */
  succeeded(): void {
    if (this.#downSince === null) return;
    const seconds = Number(((Date.now() - this.#downSince) / 1000).toFixed(1));
    this.#downSince = null;
    this.#logger?.info(
      { redis: this.display, outageSeconds: seconds },
      'Redis reachable again; shared rate limits and profile cache resumed',
    );
  }

  /** Record a failure (connection or command); logs once per outage. */
  markDown(err: unknown): void {
    if (this.#closed || this.#downSince !== null) return;
    this.#downSince = Date.now();
    this.#logger?.warn(
      { redis: this.display, reason: err instanceof Error ? err.message : String(err) },
      'Redis unreachable; each instance now applies its own rate limits and profile cache until it returns',
    );
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    try {
      await this.redis.quit();
    } catch {
      this.redis.disconnect();
    }
  }
}
