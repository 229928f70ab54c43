/**
 * `ucp-location/server`: run the business server — `/.well-known/ucp`, MCP (Streamable HTTP at
 * `/ucp/mcp`, or stdio) and REST (`/ucp/locations/*`) — over a Location store.
 *
 * ```ts
 * import { startServer } from 'ucp-location/server';
 * const server = await startServer({ port: 8080, db: 'locations.db', config: 'ucp-location.json' });
 * process.once('SIGTERM', () => void server.close());
 * ```
 *
 * Data source, in order: `store` (yours, not closed by us) → `db` (an SQLite file made with
 * `ucp-location import`, or a `postgres://` URL of a migrated PostgreSQL store) → `data`
 * (files imported into a temporary store at start) → the bundled demo dataset.
 *
 * Fleet: with `redis` (a `redis://` URL) request budgets, the discovery budget and the Platform
 * profile cache are shared by every instance using that Redis; without it each process keeps its
 * own. Instances serving one store must share `cursorSecret`.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import type { RequestListener } from 'node:http';
import type { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { DEFAULT_CONFIG, loadConfigFile } from './config.js';
import type { ServerConfig } from './config.js';
import { withComingHolidays } from './data/demo-holidays.js';
import { importFiles, readRecords } from './data/import.js';
import { applyInventoryFile } from './data/inventory.js';
import type { LocationRecord } from './domain/location.js';
import { unknownRequestMemberReport } from './domain/request-members.js';
import { mcpToolSchemas, validateLookupRequest, validateSearchRequest, validateToolArguments } from './domain/request-validation.js';
import { ConfigError } from './errors.js';
import { createLogger } from './logging.js';
import type { Logger } from './logging.js';
import { PlatformProfileResolver } from './protocol/profile-resolver.js';
import type { RateLimitBackend } from './protocol/rate-limit.js';
import type { Resolver } from './protocol/safe-fetch.js';
import { UCP_VERSION } from './protocol/types.js';
import type { UcpProfile } from './protocol/types.js';
import type { SharedState } from './shared-state/index.js';
import { LocationService } from './service.js';
import { SqliteLocationStore } from './store/sqlite/index.js';
import type { LocationStore } from './store/store.js';
import type { IndexFileHome } from './store/memory-index/index.js';
import { attachUcpHttp, buildUcpApp, listenUcpHttp, normaliseBaseUrl } from './transport/index.js';
import type { Hosting, ListeningUcp, UcpAppParts } from './transport/index.js';
import { isLoopbackHost } from './transport/index.js';
import type { Readiness } from './transport/index.js';
import { serveStdio } from './transport/index.js';
import type { CallerGuidance } from './transport/index.js';
import { loadSigningKeyFile } from './protocol/signatures/index.js';
import { loadTrustedProfiles, TRUST_FLAG } from './trusted-profiles.js';
import type { TrustedProfile } from './trusted-profiles.js';
import type { LocationOperations, RequestValidators } from './transport/index.js';
import { BudgetLimiter, UNLIMITED } from './transport/index.js';
import { errorCodeOf } from './protocol/error-code.js';

export type { ServerConfig } from './config.js';
export { DEFAULT_CONFIG, loadConfigFile, parseConfig, SIGNATURE_VERIFICATIONS } from './config.js';
export type { SignatureVerification, SignaturesConfig } from './config.js';
export type { Logger, LogLevel } from './logging.js';
export type { LocationOperations } from './transport/index.js';

export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_PORT = 8080;

/** The demo dataset shipped with the package (same relative path from src/ and dist/). */
export const DEMO_DATASET = fileURLToPath(new URL('../data/demo.ndjson', import.meta.url));
/** The demo's availability feed, applied over the dataset whenever the demo is served. */
export const DEMO_INVENTORY = fileURLToPath(new URL('../data/demo-inventory.csv', import.meta.url));

/**
 * The example Platform profile URL of seed 000's envelope examples. When the server runs the demo
 * dataset, this URL is pre-approved with a bundled profile (`data/demo-platform-profile.json`), so the
 * seed's requests work against the demo out of the box without any network access. Never used for
 * real data (`--db`, `--data`, `--store`), where only the configured registry is trusted.
 */
export const DEMO_PLATFORM_PROFILE_URL = 'https://platform.example/profiles/v2026-01/agent.json';
const DEMO_PLATFORM_PROFILE = fileURLToPath(new URL('../data/demo-platform-profile.json', import.meta.url));

export interface ServerOptions {
  /** Configuration object, or the path of a JSON configuration file. Default: all defaults. */
  config?: ServerConfig | string;
  /** A store you own (not closed by the server). */
  store?: LocationStore;
  /** SQLite store file (opened read-only), or a `postgres://` URL (see `ucp-location migrate`). */
  db?: string;
  /**
   * Redis URL for fleet-wide rate limits, discovery budget and profile cache (falls back to
   * per-instance state while Redis is unreachable).
   */
  redis?: string;
  /** Data files (NDJSON, GeoJSON, CSV) imported into a temporary store at start. */
  data?: readonly string[];
  /**
   * Accept Platform profiles on loopback addresses over plain http (local development and tests
   * only). Refused unless the server itself listens on loopback (R-N4).
   */
  allowLoopbackProfiles?: boolean;
  /** Default: pino at the configured level, on stdout (stderr for stdio). */
  logger?: Logger;
  /** DNS resolver for Platform profile fetches (split-horizon DNS, tests). */
  resolveHost?: Resolver;
  /** CA certificate(s), PEM, trusted for Platform profile fetches instead of the system roots. */
  profileCa?: string | Buffer | readonly (string | Buffer)[];
  /** Where rate-limit counters live; default in memory. A shared backend lets a fleet share budgets. */
  rateLimitBackend?: RateLimitBackend;
  /**
   * The clock (epoch ms) for what answers say about a schedule now, and the day the demo's coming
   * holidays start from. Default: the system clock. Tests and docs pin it.
   */
  now?: () => number;
  /** @internal What metrics observe of this server (src/metrics/); default nothing. */
  instruments?: ServerInstruments;
  /**
   * @internal Settings for a `postgres://` `db` beyond its URL: a process holding many stores (a
   * multi-tenant `serve`) shares one notification connection and keeps each pool small.
   */
  postgres?: { sharedNotifications?: boolean; poolMax?: number; idleTimeoutMs?: number };
}

/** @internal The hooks a metrics registry needs into one server, decorated before the app is built. */
export interface ServerInstruments {
  /** The parts the app is built from, decorated (operation observer, limiter, discovery source). */
  decorate(parts: UcpAppParts, store: LocationStore): UcpAppParts;
  /** An in-memory index was built (or loaded) in `ms`, holding `locations` Locations in about `bytes`. */
  indexLoaded(info: { locations: number; ms: number; bytes: number }): void;
  /** The in-memory indexes now hold about `bytes` (another index replaced the live one). */
  indexResident?(bytes: number): void;
}

export type { UcpAppParts } from './transport/index.js';

export interface StartServerOptions extends ServerOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 8080; 0 picks a free port. */
  port?: number;
  /** Public origin written into the profile; default `http://<host>:<port>`. */
  baseUrl?: string;
  /** How long in-flight requests may run on close, ms. Default 10 000. */
  shutdownGraceMs?: number;
}

export interface RunningServer {
  /** Where the server listens, e.g. `http://127.0.0.1:8080`. */
  readonly url: string;
  /** The public base URL advertised in `/.well-known/ucp`. */
  readonly baseUrl: string;
  readonly port: number;
  /** Graceful stop: no new connections, in-flight requests finish, then the store is closed. */
  close(): Promise<void>;
  /**
   * Resolves once this instance answers from data generation `generation` or newer (the number
   * an import or inventory batch reports). Instances sharing a PostgreSQL store see each other's
   * writes when the change notification arrives; this waits for that moment without polling.
   */
  caughtUp(generation: number): Promise<void>;
}

export interface StdioServerOptions extends ServerOptions {
  /** Base URL for the business profile used in negotiation; default `http://localhost`. */
  baseUrl?: string;
  /** Default process.stdin / process.stdout. */
  stdin?: Readable;
  stdout?: Writable;
}

export interface StdioServer {
  /** Resolves when the client closes the session. */
  readonly closed: Promise<void>;
  close(): Promise<void>;
}

/** Starts the HTTP server. Throws ConfigError for bad options (message says what to change). */
export async function startServer(options: StartServerOptions = {}): Promise<RunningServer> {
  return (await start(options, listenUcpHttp)).running;
}

/**
 * @internal The server `startServer` would start, with nothing bound: requests reach it only
 * through `listener`, called in-process (test/support/in-process-server.ts registers it for
 * injected requests). `port` is only written into its URLs.
 */
export async function startServerInProcess(
  options: StartServerOptions & { port: number; hosting?: Hosting },
): Promise<RunningServer & { listener: RequestListener }> {
  const hosting = options.hosting;
  const { running, listening } = await start(options, (parts, at) =>
    Promise.resolve(attachUcpHttp(parts, { ...at, ...(hosting === undefined ? {} : { hosting }) })),
  );
  return { ...running, listener: listening.listener };
}

async function start<T extends ListeningUcp>(
  options: StartServerOptions,
  bind: (parts: UcpAppParts, at: { host: string; port: number; baseUrl?: string }) => Promise<T>,
): Promise<{ running: RunningServer; listening: T }> {
  const host = options.host ?? DEFAULT_HOST;
  const port = options.port ?? DEFAULT_PORT;
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new ConfigError(`--port must be an integer from 0 to 65535, got ${port}`);
  if (options.allowLoopbackProfiles === true && !isLoopbackHost(host)) {
    throw new ConfigError(
      `--allow-loopback-profiles is only honoured when the server listens on a loopback address (127.0.0.1, ::1, localhost); it listens on ${host}. Remove the flag, or listen on 127.0.0.1.`,
    );
  }
  if (options.baseUrl === undefined && !isLoopbackHost(host)) {
    // The default base URL is http://<host>:<port>: fine for a server only this machine reaches,
    // but a reachable one would publish http endpoints, which UCP forbids (seed 002).
    throw new ConfigError(
      `--host ${host} makes the server reachable from other machines, so its profile must publish https endpoints; pass the public https origin your TLS-terminating proxy serves, e.g. --base-url https://stores.example.com, or listen on 127.0.0.1.`,
    );
  }
  const baseUrl = options.baseUrl === undefined ? undefined : normaliseBaseUrl(options.baseUrl);
  const config = await resolveConfig(options.config);
  const logger = options.logger ?? createLogger({ level: config.logLevel, destination: 'stdout' });
  const runtime = await openRuntime(options, config, logger);
  try {
    const listening = await bind(runtime.parts, { host, port, ...(baseUrl === undefined ? {} : { baseUrl }) });
    logger.info(
      { url: listening.url, baseUrl: listening.baseUrl, capabilities: config.capabilities, data: runtime.source },
      `UCP Location business server listening on ${listening.url} (profile at ${listening.baseUrl}/.well-known/ucp)`,
    );
    let closing: Promise<void> | undefined;
    const running: RunningServer = {
      url: listening.url,
      baseUrl: listening.baseUrl,
      port: listening.port,
      caughtUp: (generation) => runtime.caughtUp(generation),
      close: () =>
        (closing ??= (async () => {
          await listening.http.close(options.shutdownGraceMs ?? 10_000);
          await runtime.close();
          logger.info('UCP Location business server stopped');
          logger.flush?.();
        })()),
    };
    return { running, listening };
  } catch (err) {
    await runtime.close();
    if (errorCodeOf(err) === 'EADDRINUSE') {
      throw new ConfigError(`Port ${port} on ${host} is already in use; choose another with --port (0 picks a free one).`, { cause: err });
    }
    if (errorCodeOf(err) === 'EADDRNOTAVAIL') {
      throw new ConfigError(`Cannot listen on ${host}: no such local address; use --host 127.0.0.1 or 0.0.0.0.`, { cause: err });
    }
    throw err;
  }
}

/** Serves MCP over stdio (one session); logs go to stderr. */
export async function startStdioServer(options: StdioServerOptions = {}): Promise<StdioServer> {
  const config = await resolveConfig(options.config);
  if (!config.transports.includes('mcp')) {
    throw new ConfigError(
      `--stdio serves MCP, but the configuration key "transports" is ${JSON.stringify(config.transports)}; add "mcp" to it, or serve over HTTP without --stdio.`,
    );
  }
  const logger = options.logger ?? createLogger({ level: config.logLevel, destination: 'stderr' });
  const runtime = await openRuntime(options, config, logger);
  const app = buildUcpApp(runtime.parts, normaliseBaseUrl(options.baseUrl ?? 'http://localhost'));
  const session = await serveStdio(app.mcp, {
    maxLineBytes: config.maxBodyBytes,
    ...(options.stdin === undefined ? {} : { stdin: options.stdin }),
    ...(options.stdout === undefined ? {} : { stdout: options.stdout }),
  });
  logger.info({ capabilities: config.capabilities, data: runtime.source }, 'UCP Location MCP server on stdio');
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closing ??= (async () => {
      await session.close();
      await runtime.close();
    })());
  void session.closed.then(() => runtime.close());
  return { closed: session.closed, close };
}

async function resolveConfig(config: ServerConfig | string | undefined): Promise<ServerConfig> {
  if (config === undefined) return DEFAULT_CONFIG;
  return typeof config === 'string' ? loadConfigFile(config) : config;
}

interface Runtime {
  parts: UcpAppParts;
  /** For the start-up log line: where the data came from. */
  source: string;
  close(): Promise<void>;
  caughtUp(generation: number): Promise<void>;
}

const VALIDATORS: RequestValidators = {
  search: validateSearchRequest,
  lookup: validateLookupRequest,
  toolArguments: (tool, args) => validateToolArguments(tool, args),
  // This Business implements no extension, so a negotiated one (never, today) disables the check.
  unknownMembers: (operation, request, extensions) => unknownRequestMemberReport(operation, request, extensions),
};

/** How many amenity ids the tool descriptions and schema examples may name. */
const AMENITY_EXAMPLES = 30;

async function openRuntime(options: ServerOptions, config: ServerConfig, logger: Logger): Promise<Runtime> {
  const data = await withIndex(await openStore(options, logger), config, logger, options.db, options.instruments);
  let shared: SharedState | undefined;
  let closed = false;
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    await shared?.close();
    if (data.owned) await data.store.close();
  };
  try {
    if (options.redis !== undefined) {
      // Loaded only when asked for, so a single-node server never loads ioredis.
      const { connectSharedState } = await import('./shared-state/index.js');
      shared = await connectSharedState(options.redis, { logger, cacheEntries: config.profileFetch.cacheEntries });
      logger.info(
        { redis: shared.link.display, connected: shared.link.usable },
        'rate limits, discovery budget and profile cache shared through Redis',
      );
    }
    const rateLimitBackend = options.rateLimitBackend ?? shared?.rateLimitBackend;
    let cursorSecret = config.cursorSecret;
    if (cursorSecret === undefined) {
      cursorSecret = randomBytes(32).toString('hex');
      logger.info(
        'cursorSecret is not configured: pagination cursors are sealed with a per-process key (they stop working after a restart, and across instances)',
      );
    }
    const service: LocationOperations = new LocationService(data.store, {
      limits: config.limits,
      cursorSecret,
      ...(config.dataLanguage === undefined ? {} : { defaultLanguage: config.dataLanguage }),
      ...(options.now === undefined ? {} : { now: options.now }),
    });
    const fromFiles = await loadTrustedProfiles(config.trustedPlatformProfiles);
    let trusted = withTrustedFiles(config.trustedPlatforms, fromFiles);
    if (data.demo) trusted = withDemoPlatform(trusted, logger);
    const guidance: CallerGuidance = {
      // The demo's example profile is public (seed 000), so it is announced with the files' URLs.
      profileUrls: [...fromFiles.map((t) => t.url), ...(data.demo ? [DEMO_PLATFORM_PROFILE_URL] : [])],
      amenityIds: (await data.store.amenityIds?.(AMENITY_EXAMPLES)) ?? [],
    };
    announceTrustedProfiles(fromFiles, config, logger);
    const profileSource = new PlatformProfileResolver({
      allowLoopback: options.allowLoopbackProfiles === true,
      trusted,
      fetcherOptions: {
        totalTimeoutMs: config.profileFetch.timeoutMs,
        maxBodyBytes: config.profileFetch.maxBytes,
        cacheEntries: config.profileFetch.cacheEntries,
        // `rateLimits.enabled: false` turns off every budget, the discovery budget included.
        ...(config.rateLimits.enabled ? {} : { newOriginRate: null }),
        onBackgroundError: (error, url) => logger.warn({ reason: error.reason, url }, 'background refresh of a platform profile failed'),
        ...(options.resolveHost === undefined ? {} : { resolve: options.resolveHost }),
        ...(options.profileCa === undefined ? {} : { ca: options.profileCa }),
        ...(rateLimitBackend === undefined ? {} : { rateLimitBackend }),
        ...(shared === undefined ? {} : { cache: shared.cache }),
      },
    });
    const signingKeys = config.signatures.signingKey === undefined ? undefined : await loadSigningKeyFile(config.signatures.signingKey);
    if (signingKeys !== undefined) {
      // The kid only: the key file holds a private part, which is never logged.
      logger.info(
        { kid: signingKeys.signing.kid, published: signingKeys.published.map((k) => k.kid) },
        `answers are signed (RFC 9421) with key ${signingKeys.signing.kid}; the profile publishes ${signingKeys.published.length} key(s)`,
      );
    }
    logger.info({ verify: config.signatures.verify }, `request signatures: ${config.signatures.verify}`);
    const limiter = config.rateLimits.enabled
      ? new BudgetLimiter(config.rateLimits, rateLimitBackend === undefined ? {} : { backend: rateLimitBackend })
      : UNLIMITED;
    const parts: UcpAppParts = {
      service,
      validate: VALIDATORS,
      toolSchemas: mcpToolSchemas(),
      profileSource,
      limiter,
      config,
      logger,
      serverInfo: { name: 'ucp-location', version: packageVersion() },
      readiness: () => storeReadiness(data.store),
      guidance,
      ...(signingKeys === undefined ? {} : { signingKeys }),
      ...(options.now === undefined ? {} : { now: options.now }),
    };
    // An in-memory index follows other instances' writes through notifications, so it may lag;
    // a store read directly is always current (each request reads the database).
    const caughtUp = async (generation: number): Promise<void> => data.store.caughtUp?.(generation);
    return { parts: options.instruments?.decorate(parts, data.store) ?? parts, source: data.description, close, caughtUp };
  } catch (err) {
    await close();
    throw err;
  }
}

/**
 * `/readyz`: a store with its own check (PostgreSQL: reachable and migrated) answers for itself;
 * any other store is ready when it answers a cheap query.
 */
async function storeReadiness(store: LocationStore): Promise<Readiness> {
  if (store.readiness !== undefined) return store.readiness();
  try {
    await store.generation();
    return { ready: true, reason: 'ok' };
  } catch (err) {
    return { ready: false, reason: 'error', detail: err instanceof Error ? err.message : String(err) };
  }
}

/** `trustedPlatforms` plus the profiles read from files; one URL may not name two documents. */
function withTrustedFiles(trusted: Record<string, UcpProfile>, files: readonly TrustedProfile[]): Record<string, UcpProfile> {
  if (files.length === 0) return trusted;
  const out = { ...trusted };
  const configured = new Set(Object.keys(trusted).flatMap((url) => (URL.canParse(url) ? [new URL(url).href] : [])));
  for (const t of files) {
    if (configured.has(new URL(t.url).href)) {
      throw new ConfigError(
        `The platform profile URL ${t.url} is given twice: in "trustedPlatforms" and for the file ${t.file} (${TRUST_FLAG} / "trustedPlatformProfiles"); keep one.`,
      );
    }
    out[t.url] = t.profile;
  }
  return out;
}

/**
 * The start-up lines an operator copies into an MCP host: which profile URL to send, per file.
 * A profile that cannot negotiate with this Business (wrong release, missing capability, dropped
 * entries) is worth a warning now rather than a refusal on every call.
 */
function announceTrustedProfiles(files: readonly TrustedProfile[], config: ServerConfig, logger: Logger): void {
  for (const t of files) {
    logger.info(
      { profile: t.url, file: t.file, derived: t.derived },
      `MCP hosts: send meta["ucp-agent"].profile = ${t.url} (trusted platform profile ${t.file}; REST: UCP-Agent: profile="${t.url}")`,
    );
    for (const r of t.rejected) {
      logger.warn(
        { file: t.file, pointer: r.pointer, reason: r.reason },
        `trusted platform profile ${t.file}: entry ${r.name} was dropped`,
      );
    }
    if (t.profile.ucp.version !== UCP_VERSION) {
      logger.warn(
        { file: t.file, version: t.profile.ucp.version },
        `trusted platform profile ${t.file} declares UCP ${t.profile.ucp.version}; this business speaks ${UCP_VERSION}, so calls with it get version_unsupported`,
      );
    }
    const missing = config.capabilities.filter((c) => (t.profile.ucp.capabilities?.[c] ?? []).length === 0);
    if (missing.length > 0) {
      logger.warn(
        { file: t.file, missing },
        `trusted platform profile ${t.file} does not list ${missing.join(' or ')}; calls of that capability with it get capabilities_incompatible`,
      );
    }
  }
}

function withDemoPlatform(trusted: Record<string, UcpProfile>, logger: Logger): Record<string, UcpProfile> {
  if (trusted[DEMO_PLATFORM_PROFILE_URL] !== undefined) return trusted;
  const profile = JSON.parse(readFileSync(DEMO_PLATFORM_PROFILE, 'utf8')) as UcpProfile;
  logger.info({ profile: DEMO_PLATFORM_PROFILE_URL }, 'demo mode: the seed example platform profile is pre-approved');
  return { ...trusted, [DEMO_PLATFORM_PROFILE_URL]: profile };
}

interface OpenedStore {
  store: LocationStore;
  owned: boolean;
  description: string;
  /** The bundled demo dataset is being served. */
  demo: boolean;
}

async function openStore(options: ServerOptions, logger: Logger): Promise<OpenedStore> {
  const sources = [options.store !== undefined, options.db !== undefined, options.data !== undefined && options.data.length > 0].filter(
    Boolean,
  );
  if (sources.length > 1) throw new ConfigError('Give one data source: a store, --db <file> or --data <file...>, not several.');
  if (options.store !== undefined) return { store: options.store, owned: false, description: `${options.store.kind} store`, demo: false };
  if (options.db !== undefined && /^postgres(ql)?:\/\//i.test(options.db)) {
    // Loaded only for this store, so an SQLite deployment never loads `pg`.
    const { PostgresLocationStore, redactUrl } = await import('./store/postgres/index.js');
    const store = await PostgresLocationStore.open(options.db, { logger, ...options.postgres });
    return { store, owned: true, description: redactUrl(options.db), demo: false };
  }
  if (options.db !== undefined) {
    if (!existsSync(options.db)) {
      throw new ConfigError(
        `The store file ${options.db} does not exist. Create it with: ucp-location import --db ${options.db} <file.ndjson>`,
      );
    }
    return { store: await SqliteLocationStore.open(options.db, { readonly: true }), owned: true, description: options.db, demo: false };
  }
  if (options.data !== undefined && options.data.length > 0) {
    logger.info({ files: options.data }, 'importing data files into a temporary store');
    const store = await SqliteLocationStore.open(':memory:');
    try {
      const report = await importFiles(store, options.data);
      logger.info({ locations: report.locations, public: report.publicLocations }, 'data imported');
    } catch (err) {
      await store.close();
      throw err;
    }
    return { store, owned: true, description: options.data.join(', '), demo: false };
  }
  return { store: await openDemo(options.now?.() ?? Date.now(), logger), owned: true, description: 'demo dataset', demo: true };
}

/**
 * The bundled demo in a temporary store, as a newcomer should meet it: its records with the
 * coming holidays from `now` (demo-holidays.ts; the file has no dates that could go stale), and
 * its availability feed applied, so what the demo says about an item is what its feed says.
 */
async function openDemo(now: number, logger: Logger): Promise<LocationStore> {
  if (!existsSync(DEMO_DATASET))
    throw new ConfigError(`No data source given and the demo dataset is missing at ${DEMO_DATASET}; pass --db or --data.`);
  const store = await SqliteLocationStore.open(':memory:');
  try {
    async function* records(): AsyncGenerator<LocationRecord> {
      for await (const record of readRecords([DEMO_DATASET])) yield withComingHolidays(record, now);
    }
    const report = await store.replaceAll(records());
    const feed = existsSync(DEMO_INVENTORY) ? await applyInventoryFile(store, DEMO_INVENTORY) : undefined;
    logger.info(
      {
        locations: report.locations,
        public: report.publicLocations,
        inventoryRows: feed?.applied ?? 0,
        holidaysFrom: new Date(now).toISOString().slice(0, 10),
      },
      'demo dataset imported, with its inventory feed and the coming holidays',
    );
    return store;
  } catch (err) {
    await store.close();
    throw err;
  }
}

/**
 * With `index: memory`, put an in-memory index in front of a store the server opened (loaded
 * from the store's index file, or built, here, before anything listens, so no call ever meets an
 * index that is not ready).
 */
async function withIndex(
  data: OpenedStore,
  config: ServerConfig,
  logger: Logger,
  storeFile: string | undefined,
  instruments: ServerInstruments | undefined,
): Promise<OpenedStore> {
  if (config.index !== 'memory' || !data.owned || data.store.exportIndex === undefined) return data;
  const { IndexedLocationStore, logIndexFileEvent } = await import('./store/memory-index/index.js');
  const started = performance.now();
  let store: Awaited<ReturnType<typeof IndexedLocationStore.open>> | undefined;
  try {
    store = await IndexedLocationStore.open(data.store, {
      onError: (err) => logger.warn({ err }, 'rebuilding the in-memory index failed; the previous one keeps answering'),
      onSwap: () => {
        if (store !== undefined) instruments?.indexResident?.(store.residentBytes);
      },
      indexFiles: await indexFileHomeFor(data.store, storeFile),
      onIndexFile: (event) => logIndexFileEvent(logger, event),
    });
  } catch (err) {
    await data.store.close();
    throw err;
  }
  const ms = Math.round(performance.now() - started);
  logger.info({ locations: store.index.size, ms }, 'in-memory index ready');
  instruments?.indexLoaded({ locations: store.index.size, ms, bytes: store.residentBytes });
  return { ...data, store };
}

/**
 * Where a store keeps the index files of its datasets (docs/deployment.md#sizing): beside an
 * SQLite store file, or in a PostgreSQL store's schema; undefined for an in-memory store.
 * `storeFile`: the SQLite file the store was opened from. `pg` is loaded only for PostgreSQL.
 */
export async function indexFileHomeFor(store: LocationStore, storeFile?: string): Promise<IndexFileHome | undefined> {
  if (store.kind === 'postgres') {
    const { PostgresLocationStore, PostgresIndexFileHome } = await import('./store/postgres/index.js');
    return store instanceof PostgresLocationStore ? PostgresIndexFileHome.open(store.indexFileAccess()) : undefined;
  }
  if (store.kind !== 'sqlite' || storeFile === undefined || storeFile === ':memory:' || storeFile === '') return undefined;
  const { DiskIndexFileHome, indexFilePathFor } = await import('./store/memory-index/index.js');
  return new DiskIndexFileHome(indexFilePathFor(storeFile));
}

let version: string | undefined;

function packageVersion(): string {
  version ??= (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  return version;
}
