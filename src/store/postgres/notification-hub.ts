/**
 * One LISTEN connection for every store of a process that shares a database (a multi-tenant
 * `serve` holds one store per tenant): without it each store keeps two dedicated connections
 * (its change listener and its index-file listener), and a thousand tenants would need two
 * thousand connections where PostgreSQL allows about a hundred.
 *
 * The hub listens on every channel the stores use and hands each notification to the
 * subscribers of its channel and schema (the first word of every payload). When its connection
 * is lost it tells every subscriber (they fall back to reading the database per request, as a
 * lost dedicated listener makes them do) and reconnects with back-off; once listening again it
 * tells them so, and they re-read what they may have missed — after LISTEN, so nothing slips by.
 *
 * Hubs are shared by connection string and counted: the last store to release one closes it.
 */
import pg from 'pg';
import type { ClientConfig } from 'pg';
import type { StoreLogger } from './connection.js';
import { CHANGE_CHANNEL, INDEX_FILE_CHANNEL, TENANT_CHANNEL } from './migrations.js';

const CHANNELS = [CHANGE_CHANNEL, INDEX_FILE_CHANNEL, TENANT_CHANNEL] as const;

export interface HubSubscriber {
  channel: (typeof CHANNELS)[number];
  schema: string;
  /** A notification for this channel and schema: the payload's words after the schema. */
  onNotify(words: string[]): void;
  /** The hub started listening (true: re-read what may have been missed) or lost its connection. */
  onLive?(live: boolean): void;
}

export class NotificationHub {
  static readonly #shared = new Map<string, NotificationHub>();

  readonly #key: string;
  readonly #config: ClientConfig;
  readonly #logger: StoreLogger | undefined;
  readonly #subscribers = new Map<string, Set<HubSubscriber>>();
  #users = 0;
  #client: pg.Client | null = null;
  #live = false;
  #closed = false;
  #attempt = 0;
  #timer: NodeJS.Timeout | null = null;
  #connecting: Promise<void> | null = null;

  private constructor(key: string, config: ClientConfig, logger: StoreLogger | undefined) {
    this.#key = key;
    this.#config = config;
    this.#logger = logger;
  }

  /**
   * The hub of the database `config` connects to (started on first use). Every `acquire` is
   * matched by one `release`. The first caller's settings (timeouts, search path) are the hub's:
   * it runs no query but LISTEN.
   */
  static acquire(config: ClientConfig, logger?: StoreLogger): NotificationHub {
    const key = typeof config.connectionString === 'string' ? config.connectionString : JSON.stringify(config);
    let hub = NotificationHub.#shared.get(key);
    if (hub === undefined) {
      hub = new NotificationHub(key, config, logger);
      NotificationHub.#shared.set(key, hub);
      hub.#connecting = hub.#connect();
    }
    hub.#users++;
    return hub;
  }

  /** True while notifications are known to arrive. */
  get live(): boolean {
    return this.#live;
  }

  /** Resolves once the first connection attempt has ended (listening, or scheduled to retry). */
  async ready(): Promise<void> {
    await this.#connecting;
  }

  subscribe(subscriber: HubSubscriber): () => void {
    const key = `${subscriber.channel} ${subscriber.schema}`;
    let set = this.#subscribers.get(key);
    if (set === undefined) this.#subscribers.set(key, (set = new Set()));
    set.add(subscriber);
    return () => {
      set.delete(subscriber);
      if (set.size === 0) this.#subscribers.delete(key);
    };
  }

  async release(): Promise<void> {
    this.#users--;
    if (this.#users > 0) return;
    NotificationHub.#shared.delete(this.#key);
    this.#closed = true;
    this.#live = false;
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    const client = this.#client;
    this.#client = null;
    if (client !== null) {
      client.removeAllListeners('end');
      await client.end().catch(() => undefined);
    }
  }

  #each(fn: (s: HubSubscriber) => void): void {
    for (const set of this.#subscribers.values()) {
      for (const s of set) {
        try {
          fn(s);
        } catch {
          // One subscriber's failure must not stop the others hearing.
        }
      }
    }
  }

  async #connect(): Promise<void> {
    if (this.#closed) return;
    const client = new pg.Client(this.#config);
    client.on('error', (err) => this.#lost(client, err));
    client.on('end', () => this.#lost(client, new Error('notification connection ended')));
    client.on('notification', (msg) => {
      if (msg.payload === undefined) return;
      const [schema = '', ...words] = msg.payload.split(' ');
      const set = this.#subscribers.get(`${msg.channel} ${schema}`);
      if (set === undefined) return;
      for (const s of [...set]) {
        try {
          s.onNotify(words);
        } catch {
          // as above
        }
      }
    });
    try {
      await client.connect();
      for (const channel of CHANNELS) await client.query(`LISTEN ${channel}`);
      if (this.#closed) {
        await client.end().catch(() => undefined);
        return;
      }
      this.#client = client;
      this.#live = true;
      if (this.#attempt > 0) this.#logger?.info({ hub: 'postgres' }, 'PostgreSQL notification connection reconnected');
      this.#attempt = 0;
      this.#each((s) => s.onLive?.(true));
    } catch (err) {
      client.removeAllListeners('end');
      await client.end().catch(() => undefined);
      this.#schedule();
      if (this.#attempt === 1) {
        this.#logger?.warn(
          { reason: err instanceof Error ? err.message : String(err) },
          'PostgreSQL notification connection failed; retrying',
        );
      }
    }
  }

  #lost(client: pg.Client, err: unknown): void {
    if (this.#client !== client) return;
    this.#client = null;
    this.#live = false;
    client.removeAllListeners('end');
    client.end().catch(() => undefined);
    if (this.#closed) return;
    this.#logger?.warn(
      { reason: err instanceof Error ? err.message : String(err) },
      'PostgreSQL notification connection lost; reading generations per request until it reconnects',
    );
    this.#each((s) => s.onLive?.(false));
    this.#schedule();
  }

  #schedule(): void {
    if (this.#closed || this.#timer !== null) return;
    // Same back-off as a dedicated listener: 0.25 s doubling, capped at 5 s.
    const delay = Math.min(5000, 250 * 2 ** Math.min(this.#attempt, 5));
    this.#attempt++;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.#connecting = this.#connect();
    }, delay);
    this.#timer.unref();
  }
}
