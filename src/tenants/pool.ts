/**
 * The tenants' servers of one process, started on demand and stopped least-recently-used.
 *
 * Without a memory budget every tenant's server is started before the process listens and kept
 * (as `serve --tenants` always did). With one (`--index-memory`), a tenant's server — and with it
 * its in-memory index, read from its index file — is started on the tenant's first request, and
 * when the started tenants (indexes and servers) exceed the budget the tenants used least recently
 * are stopped until they fit again (never one answering a request: it is stopped once idle, by
 * the next check).
 *
 * Single flight: requests for a tenant being started wait for that one start, and nothing else
 * waits for it — the other tenants keep answering.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { RunningServer } from '../server.js';
import { UNKNOWN_HOST_MESSAGE } from './router.js';
import type { ServedTenant } from './source.js';

export type TenantServer = RunningServer & { listener: RequestListener };

/** What the pool reports of each tenant (metrics). */
export interface PoolObserver {
  state(domain: string, state: 'cold' | 'loading' | 'ready', residentBytes: number): void;
  evicted(domain: string): void;
  removed(domain: string): void;
}

export interface PoolOptions {
  /** Starts one tenant's server; `resident(bytes)` is to be called whenever its indexes' size changes. */
  start(tenant: ServedTenant, resident: (bytes: number) => void): Promise<TenantServer>;
  /** Bytes the started tenants may hold together; undefined: every tenant started and kept. */
  budgetBytes?: number;
  /** What a started tenant whose index holds `indexBytes` is counted for. Default: `indexBytes`. */
  costOf?: (indexBytes: number) => number;
  observer?: PoolObserver;
  /** A start that failed (logged by the caller; the request gets 503 and the next one retries). */
  onStartError?(domain: string, error: unknown): void;
}

interface Slot {
  tenant: ServedTenant;
  server: TenantServer | null;
  loading: Promise<TenantServer> | null;
  bytes: number;
  lastUsed: number;
  active: number;
  /** Set when the slot was replaced or removed: a start still under way closes what it started. */
  gone: boolean;
}

const UNAVAILABLE_MESSAGE = 'This business cannot answer right now; retry in a few seconds.\n';

export class TenantPool {
  /** The router's table: one entry per tenant, whether started or not. */
  readonly byHost = new Map<string, RequestListener>();
  readonly #slots = new Map<string, Slot>();
  readonly #options: PoolOptions;
  #clock = 0;
  #resident = 0;
  #closed = false;
  /** Servers being stopped (evicted, replaced, removed): close() waits for them. */
  readonly #stopping = new Set<Promise<void>>();
  /** Told after every put and remove (tests wait on a catalog change with it). */
  readonly #changeWaiters = new Set<() => void>();

  constructor(options: PoolOptions) {
    this.#options = options;
  }

  get domains(): string[] {
    return [...this.#slots.keys()].sort();
  }

  /** Bytes the started tenants are counted for (`costOf` their indexes). */
  get residentBytes(): number {
    return this.#resident;
  }

  /** Domains whose server is started, least recently used first. */
  residentDomains(): string[] {
    return [...this.#slots.values()]
      .filter((s) => s.server !== null)
      .sort((a, b) => a.lastUsed - b.lastUsed)
      .map((s) => s.tenant.domain);
  }

  /** Adds a tenant, or replaces one whose origin or configuration changed (its server restarts on demand). */
  put(tenant: ServedTenant): void {
    const old = this.#slots.get(tenant.domain);
    if (old !== undefined && old.tenant.fingerprint === tenant.fingerprint) return;
    if (old !== undefined) this.#retire(old);
    const slot: Slot = { tenant, server: null, loading: null, bytes: 0, lastUsed: 0, active: 0, gone: false };
    this.#slots.set(tenant.domain, slot);
    this.byHost.set(tenant.domain, (req, res) => this.#dispatch(tenant.domain, req, res));
    this.#options.observer?.state(tenant.domain, 'cold', 0);
    this.#changed();
  }

  /** The started server of `domain`, if it is started. */
  server(domain: string): TenantServer | null {
    return this.#slots.get(domain)?.server ?? null;
  }

  /** Resolves once `test()` holds after a put or remove (or at once when it holds already). */
  async until(test: (pool: TenantPool) => boolean): Promise<void> {
    while (!test(this)) await new Promise<void>((resolve) => this.#changeWaiters.add(resolve));
  }

  #changed(): void {
    const waiting = [...this.#changeWaiters];
    this.#changeWaiters.clear();
    for (const resolve of waiting) resolve();
  }

  #stop(server: TenantServer): void {
    const closing = server.close().finally(() => this.#stopping.delete(closing));
    this.#stopping.add(closing);
  }

  /** Stops serving a tenant: its host is unknown from now on. */
  remove(domain: string): void {
    const slot = this.#slots.get(domain);
    if (slot === undefined) return;
    this.#retire(slot);
    this.#slots.delete(domain);
    this.byHost.delete(domain);
    this.#options.observer?.removed(domain);
    this.#changed();
  }

  /** Starts a tenant now (without a budget every tenant is started before the process listens). */
  async load(domain: string): Promise<TenantServer> {
    const slot = this.#slots.get(domain);
    if (slot === undefined) throw new Error(`no tenant ${domain}`);
    return this.#load(slot);
  }

  #retire(slot: Slot): void {
    slot.gone = true;
    const server = slot.server;
    slot.server = null;
    this.#resident -= slot.bytes;
    slot.bytes = 0;
    if (server !== null) this.#stop(server);
  }

  #dispatch(domain: string, req: IncomingMessage, res: ServerResponse): void {
    const slot = this.#slots.get(domain);
    if (slot === undefined || this.#closed) {
      req.resume();
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end(UNKNOWN_HOST_MESSAGE);
      return;
    }
    slot.lastUsed = ++this.#clock;
    slot.active++;
    let done = false;
    const finished = (): void => {
      if (done) return;
      done = true;
      slot.active--;
      if (slot.active === 0) this.#enforceBudget();
    };
    res.once('finish', finished);
    res.once('close', finished);
    if (slot.server !== null) {
      slot.server.listener(req, res);
      return;
    }
    this.#load(slot).then(
      (server) => server.listener(req, res),
      () => {
        req.resume();
        res.writeHead(503, { 'Content-Type': 'text/plain; charset=utf-8', 'Retry-After': '2' });
        res.end(UNAVAILABLE_MESSAGE);
      },
    );
  }

  #load(slot: Slot): Promise<TenantServer> {
    if (slot.server !== null) return Promise.resolve(slot.server);
    if (slot.loading !== null) return slot.loading;
    const domain = slot.tenant.domain;
    this.#options.observer?.state(domain, 'loading', 0);
    const costOf = this.#options.costOf ?? ((indexBytes: number): number => indexBytes);
    const resident = (indexBytes: number): void => {
      if (slot.gone) return;
      const bytes = costOf(indexBytes);
      this.#resident += bytes - slot.bytes;
      slot.bytes = bytes;
      if (slot.server !== null) this.#options.observer?.state(domain, 'ready', bytes);
    };
    slot.loading = this.#options.start(slot.tenant, resident).then(
      (server) => {
        slot.loading = null;
        if (slot.gone || this.#closed) {
          this.#stop(server);
          throw new Error(`the tenant ${domain} was removed while it started`);
        }
        // A server that reported no index (one answering from its store) still holds its own bytes.
        if (slot.bytes === 0) resident(0);
        slot.server = server;
        this.#options.observer?.state(domain, 'ready', slot.bytes);
        this.#enforceBudget(slot);
        return server;
      },
      (error: unknown) => {
        slot.loading = null;
        this.#resident -= slot.bytes;
        slot.bytes = 0;
        this.#options.observer?.state(domain, 'cold', 0);
        this.#options.onStartError?.(domain, error);
        throw error;
      },
    );
    return slot.loading;
  }

  /** Stops idle tenants, least recently used first, until the indexes fit the budget (`keep` stays). */
  #enforceBudget(keep?: Slot): void {
    const budget = this.#options.budgetBytes;
    if (budget === undefined || this.#resident <= budget) return;
    const candidates = [...this.#slots.values()]
      .filter((s) => s.server !== null && s.active === 0 && s !== keep)
      .sort((a, b) => a.lastUsed - b.lastUsed);
    for (const slot of candidates) {
      if (this.#resident <= budget) break;
      const server = slot.server;
      slot.server = null;
      this.#resident -= slot.bytes;
      slot.bytes = 0;
      this.#options.observer?.evicted(slot.tenant.domain);
      this.#options.observer?.state(slot.tenant.domain, 'cold', 0);
      if (server !== null) this.#stop(server);
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    const slots = [...this.#slots.values()];
    await Promise.allSettled(slots.flatMap((s) => (s.loading === null ? [] : [s.loading])));
    await Promise.all(slots.flatMap((s) => (s.server === null ? [] : [s.server.close()])));
    await Promise.all([...this.#stopping]);
  }
}
