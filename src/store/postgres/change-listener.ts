/**
 * LISTEN/NOTIFY for data changes, so every instance sharing a store drops its per-generation
 * caches as soon as any process commits an import or an inventory batch.
 *
 * Writers send `pg_notify(CHANGE_CHANNEL, '<schema> <generation> <dataset>')` inside their
 * transaction; PostgreSQL delivers it at commit. This class keeps one dedicated connection
 * listening (not a pooled one: a pooled connection is handed to queries and may be recycled).
 * While it is connected, the latest generation is known without a query; when it drops, the
 * store falls back to reading the counter on every call and this class reconnects with back-off.
 * After (re)connecting it subscribes *before* reading the counter, so no change can slip between.
 */
import pg from 'pg';
import type { ClientConfig } from 'pg';
import type { StoreLogger } from './connection.js';
import { CHANGE_CHANNEL } from './migrations.js';
import type { NotificationHub } from './notification-hub.js';

export interface Counters {
  generation: number;
  dataset: number;
}

export class ChangeListener {
  #client: pg.Client | null = null;
  #live = false;
  #closed = false;
  #attempt = 0;
  #timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly config: ClientConfig,
    private readonly schema: string,
    /** Reads the counters through the given client (used right after LISTEN). */
    private readonly read: (client: pg.Client) => Promise<Counters>,
    private readonly onCounters: (c: Counters) => void,
    private readonly logger: StoreLogger | undefined,
  ) {}

  /** True while notifications are known to arrive. */
  get live(): boolean {
    return this.#live;
  }

  /** First connection; failures are not fatal (the store then reads counters per call). */
  async start(): Promise<void> {
    await this.#connect();
  }

  async #connect(): Promise<void> {
    if (this.#closed) return;
    const client = new pg.Client(this.config);
    client.on('error', (err) => this.#lost(client, err));
    client.on('end', () => this.#lost(client, new Error('listener connection ended')));
    client.on('notification', (msg) => {
      if (msg.channel !== CHANGE_CHANNEL || msg.payload === undefined) return;
      const [schema, g, d] = msg.payload.split(' ');
      if (schema !== this.schema) return;
      const generation = Number(g);
      const dataset = Number(d);
      if (Number.isFinite(generation) && Number.isFinite(dataset)) this.onCounters({ generation, dataset });
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANGE_CHANNEL}`);
      this.onCounters(await this.read(client));
      if (this.#closed) {
        await client.end().catch(() => undefined);
        return;
      }
      this.#client = client;
      this.#live = true;
      if (this.#attempt > 0) this.logger?.info({ schema: this.schema }, 'PostgreSQL change listener reconnected');
      this.#attempt = 0;
    } catch (err) {
      client.removeAllListeners('end');
      await client.end().catch(() => undefined);
      this.#schedule(err);
    }
  }

  #lost(client: pg.Client, err: unknown): void {
    if (this.#client !== client) return;
    this.#client = null;
    this.#live = false;
    client.removeAllListeners('end');
    client.end().catch(() => undefined);
    if (this.#closed) return;
    this.logger?.warn(
      { schema: this.schema, reason: err instanceof Error ? err.message : String(err) },
      'PostgreSQL change listener lost; reading the generation per request until it reconnects',
    );
    this.#schedule(err);
  }

  #schedule(_err: unknown): void {
    if (this.#closed || this.#timer !== null) return;
    // 0.25 s, 0.5 s, 1 s … capped at 5 s: quick to return after a restart, gentle during a long outage.
    const delay = Math.min(5000, 250 * 2 ** Math.min(this.#attempt, 5));
    this.#attempt++;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      void this.#connect();
    }, delay);
    this.#timer.unref();
  }

  async close(): Promise<void> {
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
}

/**
 * The change listener of a store that shares its process's notification connection
 * (notification-hub.ts) instead of keeping one of its own. Live only once it has re-read the
 * counters after the hub started listening, as a dedicated listener is.
 */
export class SharedChangeListener {
  #live = false;
  #closed = false;
  #unsubscribe: (() => void) | null = null;
  /** Counts hub (re)connections, so a slow counter read never marks a lost connection live. */
  #epoch = 0;

  constructor(
    private readonly hub: NotificationHub,
    private readonly schema: string,
    private readonly read: () => Promise<Counters>,
    private readonly onCounters: (c: Counters) => void,
  ) {}

  get live(): boolean {
    return this.#live;
  }

  async start(): Promise<void> {
    this.#unsubscribe = this.hub.subscribe({
      channel: CHANGE_CHANNEL,
      schema: this.schema,
      onNotify: ([g, d]) => {
        const generation = Number(g);
        const dataset = Number(d);
        if (Number.isFinite(generation) && Number.isFinite(dataset)) this.onCounters({ generation, dataset });
      },
      onLive: (live) => {
        this.#epoch++;
        this.#live = false;
        if (live) void this.#catchUp(this.#epoch);
      },
    });
    await this.hub.ready();
    if (this.hub.live) await this.#catchUp(this.#epoch);
  }

  async #catchUp(epoch: number): Promise<void> {
    try {
      this.onCounters(await this.read());
      if (!this.#closed && epoch === this.#epoch && this.hub.live) this.#live = true;
    } catch {
      // Not live: every request reads the counters until the next reconnection.
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#live = false;
    this.#unsubscribe?.();
    this.#unsubscribe = null;
    await this.hub.release();
  }
}
