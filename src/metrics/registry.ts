/**
 * The Prometheus metrics an operator runs a fleet by, for one process: one registry, with every
 * business server of the process (one, or one per tenant) reporting into it under its `tenant`
 * label (`default` for a single-business `serve`; a tenant's domain always holds a dot, so the
 * two never meet). Labels take only values this code chooses — operation, binding, outcome, the
 * error and warning codes of our own tables — so no caller can grow the series count.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { RateLimitedError, UcpNegotiationError } from '../errors.js';
import type { ServerInstruments, UcpAppParts } from '../server.js';
import type { LocationStore } from '../store/store.js';
import type { OperationEvent, PlatformProfileSource, Readiness, RequestLimiter } from '../transport/index.js';

/** The label a single-business server's samples carry. */
export const SINGLE_TENANT = 'default';

/** Seconds: a search answered from memory takes about a millisecond, a cold profile fetch seconds. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export class ServerMetrics {
  readonly registry = new Registry();
  readonly #requests: Counter<'tenant' | 'operation' | 'binding' | 'outcome'>;
  readonly #latency: Histogram<'tenant' | 'operation' | 'binding'>;
  readonly #errors: Counter<'tenant' | 'operation' | 'binding' | 'code'>;
  readonly #warnings: Counter<'tenant' | 'operation' | 'binding' | 'code'>;
  readonly #refusals: Counter<'tenant' | 'budget'>;
  readonly #discovery: Counter<'tenant' | 'result'>;
  readonly #indexLoads: Counter<'tenant'>;
  readonly #indexLocations: Gauge<'tenant'>;
  readonly #indexSeconds: Gauge<'tenant'>;
  readonly #unknownHosts: Counter;
  readonly #indexReady: Gauge<'tenant'>;
  readonly #indexBytes: Gauge<'tenant'>;
  readonly #evictions: Counter<'tenant'>;
  readonly #budget: Gauge;
  /** Each server's readiness probe, asked at scrape time. */
  readonly #probes = new Map<string, () => Promise<Readiness>>();

  constructor() {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.#requests = new Counter({
      name: 'ucp_requests_total',
      help: 'Binding requests for an operation, by tenant, operation, binding (mcp, rest) and outcome (success, capabilities_incompatible, error)',
      labelNames: ['tenant', 'operation', 'binding', 'outcome'],
      registers,
    });
    this.#latency = new Histogram({
      name: 'ucp_request_duration_seconds',
      help: 'Time from reading a binding request to its answer, seconds',
      labelNames: ['tenant', 'operation', 'binding'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.#errors = new Counter({
      name: 'ucp_errors_total',
      help: 'Error answers by their UCP code (invalid_cursor, not_found, rate_limited, …)',
      labelNames: ['tenant', 'operation', 'binding', 'code'],
      registers,
    });
    this.#warnings = new Counter({
      name: 'ucp_warnings_total',
      help: 'Warnings carried by successful answers, by code',
      labelNames: ['tenant', 'operation', 'binding', 'code'],
      registers,
    });
    this.#refusals = new Counter({
      name: 'ucp_budget_refusals_total',
      help: 'Requests refused with 429: budget "client" (per address, before the body is read) or "operation" (per profile, item search)',
      labelNames: ['tenant', 'budget'],
      registers,
    });
    this.#discovery = new Counter({
      name: 'ucp_discovery_total',
      help: 'Platform profile resolutions (cache, trusted file or fetch) by result: ok, or the discovery error code',
      labelNames: ['tenant', 'result'],
      registers,
    });
    this.#indexLoads = new Counter({ name: 'ucp_index_loads_total', help: 'In-memory index builds', labelNames: ['tenant'], registers });
    this.#indexLocations = new Gauge({
      name: 'ucp_index_locations',
      help: 'Locations in the in-memory index',
      labelNames: ['tenant'],
      registers,
    });
    this.#indexSeconds = new Gauge({
      name: 'ucp_index_load_seconds',
      help: 'How long the last in-memory index build took, seconds',
      labelNames: ['tenant'],
      registers,
    });
    this.#unknownHosts = new Counter({
      name: 'ucp_unknown_host_requests_total',
      help: 'Requests whose host name names no tenant (answered 404)',
      registers,
    });
    this.#indexReady = new Gauge({
      name: 'ucp_index_ready',
      help: "1 while the tenant's server and in-memory index are loaded and answering, 0 while it is not started (or being started)",
      labelNames: ['tenant'],
      registers,
    });
    this.#indexBytes = new Gauge({
      name: 'ucp_index_resident_bytes',
      help: 'Bytes the tenant is counted for while started: its in-memory index (3.25 times its index file) and, under --index-memory, its server; 0 when not started',
      labelNames: ['tenant'],
      registers,
    });
    this.#evictions = new Counter({
      name: 'ucp_index_evictions_total',
      help: "Tenants' servers stopped to keep their indexes within --index-memory, least recently used first",
      labelNames: ['tenant'],
      registers,
    });
    this.#budget = new Gauge({
      name: 'ucp_index_memory_budget_bytes',
      help: 'The --index-memory budget the tenants indexes share, bytes (absent without one)',
      registers,
    });
    const probes = this.#probes;
    new Gauge({
      name: 'ucp_store_up',
      help: '1 when the store answers (and for PostgreSQL is migrated), 0 during an outage; asked at each scrape',
      labelNames: ['tenant'],
      registers,
      async collect() {
        this.reset();
        await Promise.all(
          [...probes].map(async ([tenant, probe]) => {
            const ready = await probe().then(
              (r) => r.ready,
              () => false,
            );
            this.set({ tenant }, ready ? 1 : 0);
          }),
        );
      },
    });
  }

  /** The hooks into one business server; its samples are labelled `tenant`. */
  forTenant(tenant: string): ServerInstruments {
    return {
      decorate: (parts, store) => this.#decorate(tenant, parts, store),
      indexLoaded: ({ locations, ms, bytes }) => {
        this.#indexLoads.inc({ tenant });
        this.#indexLocations.set({ tenant }, locations);
        this.#indexSeconds.set({ tenant }, ms / 1000);
        this.#indexBytes.set({ tenant }, bytes);
      },
      indexResident: (bytes) => this.#indexBytes.set({ tenant }, bytes),
    };
  }

  /** A tenant's server was stopped, is being started or answers (the pool of tenants/pool.ts). */
  tenantIndex(tenant: string, state: 'cold' | 'loading' | 'ready', residentBytes: number): void {
    this.#indexReady.set({ tenant }, state === 'ready' ? 1 : 0);
    this.#indexBytes.set({ tenant }, residentBytes);
    // A stopped server's store is closed: asking it at scrape time would only say "down".
    if (state !== 'ready') this.#probes.delete(tenant);
  }

  tenantEvicted(tenant: string): void {
    this.#evictions.inc({ tenant });
  }

  /** A tenant removed from the catalog: its series go with it. */
  tenantRemoved(tenant: string): void {
    this.#probes.delete(tenant);
    for (const metric of [this.#indexReady, this.#indexBytes, this.#indexLocations, this.#indexSeconds]) metric.remove({ tenant });
  }

  indexBudget(bytes: number): void {
    this.#budget.set(bytes);
  }

  unknownHost(): void {
    this.#unknownHosts.inc();
  }

  /** The exposition text and its content type, for `/metrics`. */
  async exposition(): Promise<{ contentType: string; text: string }> {
    return { contentType: this.registry.contentType, text: await this.registry.metrics() };
  }

  #decorate(tenant: string, parts: UcpAppParts, store: LocationStore): UcpAppParts {
    const readiness = parts.readiness ?? (() => store.generation().then((): Readiness => ({ ready: true, reason: 'ok' })));
    this.#probes.set(tenant, readiness);
    const previous = parts.observe;
    return {
      ...parts,
      observe: (event) => {
        previous?.(event);
        this.#observe(tenant, event);
      },
      limiter: this.#countRefusals(tenant, parts.limiter),
      profileSource: this.#countDiscovery(tenant, parts.profileSource),
    };
  }

  #observe(tenant: string, event: OperationEvent): void {
    const labels = { tenant, operation: event.operation ?? 'unknown', binding: event.binding };
    this.#requests.inc({ ...labels, outcome: event.outcome });
    this.#latency.observe(labels, event.durationMs / 1000);
    if (event.code !== undefined) this.#errors.inc({ ...labels, code: event.code });
    for (const code of event.warnings) this.#warnings.inc({ ...labels, code });
  }

  #countRefusals(tenant: string, limiter: RequestLimiter): RequestLimiter {
    const refused = (budget: 'client' | 'operation') => (err: unknown) => {
      if (err instanceof RateLimitedError) this.#refusals.inc({ tenant, budget });
      throw err;
    };
    return {
      admitClient: (clientIp, cost) => limiter.admitClient(clientIp, cost).catch(refused('client')),
      admit: (identity) => limiter.admit(identity).catch(refused('operation')),
    };
  }

  #countDiscovery(tenant: string, source: PlatformProfileSource): PlatformProfileSource {
    const count = <T>(work: Promise<T>): Promise<T> =>
      work.then(
        (value) => {
          this.#discovery.inc({ tenant, result: 'ok' });
          return value;
        },
        (err: unknown) => {
          this.#discovery.inc({ tenant, result: discoveryResult(err) });
          throw err;
        },
      );
    const withReport = source.resolveWithReport?.bind(source);
    return {
      resolve: (url, context) => count(source.resolve(url, context)),
      ...(withReport === undefined ? {} : { resolveWithReport: (url, context) => count(withReport(url, context)) }),
    };
  }
}

function discoveryResult(err: unknown): string {
  if (err instanceof UcpNegotiationError) return err.code;
  if (err instanceof RateLimitedError) return 'rate_limited';
  return 'error';
}
