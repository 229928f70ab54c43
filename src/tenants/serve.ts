/**
 * `serve --tenants <dir>`: every tenant of a registry on one address. Each tenant is a whole
 * business server (server.ts, as a single-business `serve` builds it, with nothing bound) over its
 * own store, configuration, profile and tools; a router in front picks the tenant by host name.
 *
 * What keeps tenants apart by construction:
 *  - cursors: each tenant seals them with its own key (cursor-keys.ts), unless its configuration
 *    sets `cursorSecret` itself;
 *  - budgets: one counter store for the process, seen by each tenant through a view that keeps a
 *    client address's budget process-wide and every other budget its own (scoped-budgets.ts); the
 *    request queue is one, so its bound holds for the process;
 *  - logs: every line a tenant's server writes carries `tenant`.
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { RequestListener, Server } from 'node:http';
import { DEFAULT_CONFIG } from '../config.js';
import type { ServerConfig } from '../config.js';
import { ConfigError } from '../errors.js';
import type { Logger, LogLevel } from '../logging.js';
import { errorCodeOf } from '../protocol/error-code.js';
import { listeningPort } from '../protocol/guards.js';
import { MemoryRateLimitBackend } from '../protocol/rate-limit.js';
import type { RateLimitBackend } from '../protocol/rate-limit.js';
import type { Resolver } from '../protocol/safe-fetch.js';
import { startServerInProcess } from '../server.js';
import type { ServerInstruments } from '../server.js';
import { RequestTurns } from '../transport/index.js';
import type { Hosting } from '../transport/index.js';
import { tenantCursorSecret } from './cursor-keys.js';
import { forwardedClientAddress } from './forwarded.js';
import { TenantRegistry } from './registry.js';
import { tenantCost, tenantsShare } from './memory-cost.js';
import { TenantPool } from './pool.js';
import type { TenantServer } from './pool.js';
import { tenantRouter } from './router.js';
import { directoryTenants } from './source.js';
import type { ServedTenant, TenantSource } from './source.js';
import { TenantScopedBackend } from './scoped-budgets.js';

export interface TenantMetrics {
  /** The hooks into one tenant's server, its samples labelled `tenant="<domain>"`. */
  forTenant(domain: string): ServerInstruments;
  unknownHost(): void;
  /** Each tenant's index: cold (not started), loading or ready, and the bytes it holds. */
  tenantIndex?(domain: string, state: 'cold' | 'loading' | 'ready', residentBytes: number): void;
  tenantEvicted?(domain: string): void;
  tenantRemoved?(domain: string): void;
  indexBudget?(bytes: number): void;
}

export interface TenantServeOptions {
  /** The registry directory (`tenant add --tenants <dir>`); or give `source`. */
  tenants?: string;
  /** Where the tenants are listed (a PostgreSQL store's catalog); default the `tenants` directory. */
  source?: TenantSource;
  /**
   * Bytes the tenants' in-memory indexes may hold together (`--index-memory`): tenants are then
   * started on their first request and stopped least-recently-used. Undefined: every tenant is
   * started before the process listens, and kept.
   */
  indexMemoryBytes?: number;
  host: string;
  /** 0 picks a free port. */
  port: number;
  logger: Logger;
  /** Overrides every tenant's configured log level (`--log-level`). */
  logLevel?: LogLevel;
  /** The process secret tenants' cursor keys are derived from; default a per-process random one. */
  cursorSecret?: string;
  allowLoopbackProfiles?: boolean;
  /** Believe `X-Forwarded-Host` for routing and `X-Forwarded-For` for per-address budgets. */
  trustProxy?: boolean;
  /** redis:// URL: budget counters shared by a fleet. */
  redis?: string;
  metrics?: TenantMetrics;
  shutdownGraceMs?: number;
  now?: () => number;
  resolveHost?: Resolver;
}

export interface RunningTenants {
  url: string;
  port: number;
  /** The domains served. */
  domains: readonly string[];
  close(): Promise<void>;
}

/** Binds `host:port` and serves every tenant of the registry there. Throws ConfigError for bad options. */
export async function startTenantServers(options: TenantServeOptions): Promise<RunningTenants> {
  const server = createServer({ requestTimeout: 30_000, headersTimeout: 10_000, keepAliveTimeout: 5_000 });
  // The port is bound before the tenants are built (their profiles name it): a request that
  // arrives meanwhile is told to come back rather than left without an answer.
  let serve: RequestListener = (req, res) => {
    req.resume();
    res.writeHead(503, { 'Content-Type': 'text/plain; charset=utf-8', 'Retry-After': '1' });
    res.end('The server is starting; retry in a second.\n');
  };
  server.on('request', (req, res) => serve(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err) => reject(bindError(err, options)));
    server.listen(options.port, options.host, () => resolve());
  });
  const port = listeningPort(server.address());
  let assembled: AssembledTenants;
  try {
    assembled = await assembleTenants(options, port);
  } catch (err) {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    throw err;
  }
  const shutdown = gracefulClose(server, options.shutdownGraceMs ?? 10_000);
  serve = shutdown.track(assembled.listener);
  const url = `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${port}`;
  options.logger.info(
    { url, tenants: assembled.domains },
    `UCP Location business servers for ${assembled.domains.length} tenant(s) listening on ${url}`,
  );
  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    domains: assembled.domains,
    close: () =>
      (closing ??= (async () => {
        await shutdown.close();
        await assembled.close();
        options.logger.info('UCP Location business servers stopped');
      })()),
  };
}

export interface AssembledTenants {
  listener: RequestListener;
  /** The domains served (at the time of asking: a watched catalog adds and removes). */
  readonly domains: readonly string[];
  /** The servers, started or not (tests: eviction order, resident bytes). */
  pool: TenantPool;
  close(): Promise<void>;
}

/**
 * @internal Every tenant's server behind the router, with nothing bound (`port` is only written
 * into URLs): `startTenantServers` installs the listener on its socket; tests call it in-process.
 */
export async function assembleTenants(options: TenantServeOptions, port: number): Promise<AssembledTenants> {
  const source = options.source ?? directoryTenants(new TenantRegistry(options.tenants ?? ''));
  const tenants = await source.list();
  if (tenants.length === 0 && source.watch === undefined) {
    throw new ConfigError(`No tenants in ${source.description}; add one with: ${source.addHint}`);
  }
  const empty = tenants.filter((t) => !t.hasData);
  if (empty.length > 0) {
    const first = empty[0]?.domain ?? '';
    throw new ConfigError(
      `The tenant(s) ${empty.map((t) => t.domain).join(', ')} have no data yet; import it first, e.g. ${source.importHint.replace('<domain>', first)}`,
    );
  }
  let processSecret = options.cursorSecret;
  if (processSecret === undefined) {
    processSecret = randomBytes(32).toString('hex');
    options.logger.info(
      'cursorSecret is not configured: tenants seal pagination cursors with keys derived from a per-process secret (they stop working after a restart, and across instances)',
    );
  }
  const secret = processSecret;
  let sharedState: { rateLimitBackend: RateLimitBackend; close(): Promise<void> } | undefined;
  if (options.redis !== undefined) {
    const { connectSharedState } = await import('../shared-state/index.js');
    sharedState = await connectSharedState(options.redis, { logger: options.logger });
  }
  const counters: RateLimitBackend =
    sharedState?.rateLimitBackend ?? new MemoryRateLimitBackend({ maxKeys: 50_000, maxBytes: 64 * 1024 * 1024 });
  const turns = new RequestTurns({ maxQueued: DEFAULT_CONFIG.maxQueuedRequests });
  const metrics = options.metrics;
  const budget = options.indexMemoryBytes;
  if (budget !== undefined) metrics?.indexBudget?.(budget);
  const start = async (tenant: ServedTenant, resident: (bytes: number) => void): Promise<TenantServer> => {
    const config = await tenantConfig(tenant, secret, options.logLevel);
    const hosting: Hosting = {
      hostNames: [tenant.domain],
      turns,
      ...(options.trustProxy === true ? { clientAddress: forwardedClientAddress } : {}),
    };
    const own = metrics?.forTenant(tenant.domain);
    const instruments: ServerInstruments = {
      decorate: (parts, store) => own?.decorate(parts, store) ?? parts,
      // The tenant's own gauges first: the pool then reports what it counts (index plus server).
      indexLoaded: (info) => {
        own?.indexLoaded(info);
        resident(info.bytes);
      },
      indexResident: (bytes) => {
        own?.indexResident?.(bytes);
        resident(bytes);
      },
    };
    return startServerInProcess({
      config,
      db: tenant.store,
      host: options.host,
      port,
      baseUrl: tenant.baseUrl,
      hosting,
      logger: options.logger.child({ tenant: tenant.domain }),
      rateLimitBackend: new TenantScopedBackend(counters, tenant.domain),
      allowLoopbackProfiles: options.allowLoopbackProfiles === true,
      instruments,
      ...(source.storeOptions === undefined ? {} : { postgres: source.storeOptions }),
      ...(options.now === undefined ? {} : { now: options.now }),
      ...(options.resolveHost === undefined ? {} : { resolveHost: options.resolveHost }),
    });
  };
  const pool = new TenantPool({
    start,
    costOf: tenantCost,
    ...(budget === undefined ? {} : { budgetBytes: tenantsShare(budget) }),
    ...(metrics === undefined
      ? {}
      : {
          observer: {
            state: (domain, state, bytes) => metrics.tenantIndex?.(domain, state, bytes),
            evicted: (domain) => metrics.tenantEvicted?.(domain),
            removed: (domain) => metrics.tenantRemoved?.(domain),
          },
        }),
    onStartError: (domain, error) =>
      options.logger.error({ tenant: domain, err: error }, `the server of tenant ${domain} could not start; its requests get 503`),
  });
  let unwatch: (() => Promise<void>) | undefined;
  const closeAll = async (): Promise<void> => {
    await unwatch?.();
    await pool.close();
    await sharedState?.close();
  };
  try {
    // A bad configuration is refused at start, whether or not its tenant is started now.
    for (const tenant of tenants) await tenant.config();
    for (const tenant of tenants) pool.put(tenant);
    // Without a budget, every tenant is started (and any failure stops the start) as before.
    if (budget === undefined) for (const tenant of tenants) await pool.load(tenant.domain);
    if (source.watch !== undefined) unwatch = await source.watch((domain) => void follow(source, pool, domain, budget, options.logger));
  } catch (err) {
    await closeAll();
    throw err;
  }
  const listener = tenantRouter(pool.byHost, {
    trustProxy: options.trustProxy === true,
    ...(metrics === undefined ? {} : { onUnknownHost: () => metrics.unknownHost() }),
  });
  return {
    listener,
    get domains() {
      return pool.domains;
    },
    pool,
    close: closeAll,
  };
}

/** A tenant added, changed or removed elsewhere (`null`: re-read them all): the pool brought up to date. */
async function follow(
  source: TenantSource,
  pool: TenantPool,
  domain: string | null,
  budget: number | undefined,
  logger: Logger,
): Promise<void> {
  try {
    const now = domain === null ? await source.list() : [await source.get(domain)].filter((t): t is ServedTenant => t !== null);
    const names = new Set(now.map((t) => t.domain));
    const gone = domain === null ? pool.domains.filter((d) => !names.has(d)) : names.has(domain) ? [] : [domain];
    for (const d of gone) {
      pool.remove(d);
      logger.info({ tenant: d }, `tenant ${d} removed: no longer served`);
    }
    for (const t of now) {
      const known = pool.domains.includes(t.domain);
      pool.put(t);
      if (!known) logger.info({ tenant: t.domain }, `tenant ${t.domain} added: served from now on`);
      if (budget === undefined) await pool.load(t.domain);
    }
  } catch (error) {
    logger.warn({ err: error }, 'could not read the tenant catalog after a change; the next change reads it again');
  }
}

/** The tenant's configuration with its cursor key and the process's log level. */
async function tenantConfig(tenant: ServedTenant, processSecret: string, logLevel: LogLevel | undefined): Promise<ServerConfig> {
  const own = (await tenant.config()) ?? DEFAULT_CONFIG;
  return {
    ...own,
    cursorSecret: own.cursorSecret ?? tenantCursorSecret(processSecret, tenant.domain),
    ...(logLevel === undefined ? {} : { logLevel }),
  };
}

/** Stops accepting, lets in-flight requests finish, and cuts what is left after the grace period. */
function gracefulClose(server: Server, graceMs: number): { track(listener: RequestListener): RequestListener; close(): Promise<void> } {
  let closing = false;
  return {
    track: (listener) => (req, res) => {
      // A connection whose last answer went out while closing would otherwise idle until keepAliveTimeout.
      res.once('close', () => {
        if (closing) setImmediate(() => server.closeIdleConnections());
      });
      listener(req, res);
    },
    close: async () => {
      if (closing) return;
      closing = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const timer = setTimeout(() => server.closeAllConnections(), graceMs);
      timer.unref();
      await closed;
      clearTimeout(timer);
    },
  };
}

function bindError(err: Error, options: TenantServeOptions): Error {
  const code = errorCodeOf(err);
  if (code === 'EADDRINUSE') {
    return new ConfigError(`Port ${options.port} on ${options.host} is already in use; choose another with --port (0 picks a free one).`, {
      cause: err,
    });
  }
  if (code === 'EADDRNOTAVAIL') {
    return new ConfigError(`Cannot listen on ${options.host}: no such local address; use --host 127.0.0.1 or 0.0.0.0.`, { cause: err });
  }
  return err;
}
