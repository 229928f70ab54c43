/**
 * Connection settings for the PostgreSQL store: parsing a `postgres://` URL (with our own
 * `schema` parameter), building the `pg` pool configuration, and telling "the database is
 * unreachable right now" (→ ServiceUnavailableError, HTTP 503 / JSON-RPC -32000) apart from
 * every other failure (→ StoreError).
 */
import type { PoolConfig } from 'pg';
import { ConfigError } from '../../errors.js';

/** Unquoted PostgreSQL identifier we accept as a schema name (no quoting games in DDL). */
const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

export interface PostgresStoreOptions {
  /** Schema holding the store's tables; default `ucp_location` (or the URL's `?schema=`). */
  schema?: string;
  /** Largest number of pooled connections per process. Default 10. */
  poolMax?: number;
  /** Server-side limit per read statement, ms. Default 5000. */
  statementTimeoutMs?: number;
  /** How long to wait for a pooled connection (and for a new TCP/TLS connection), ms. Default 2000. */
  connectTimeoutMs?: number;
  /** Idle pooled connections are closed after this long, ms. Default 30000. */
  idleTimeoutMs?: number;
  /**
   * After the database was found unreachable, requests fail at once (no connection attempt) for
   * this long, ms, then one request probes again. Also the `retry_after` hint. Default 1000.
   */
  outageProbeMs?: number;
  /** Seconds reported as `retry_after` while the database is unreachable. Default 2. */
  retryAfterSeconds?: number;
  /** Name used for import records in DataValidationError issues. Default 'records'. */
  recordsLabel?: string;
  /** `application_name` shown in pg_stat_activity. Default 'ucp-location'. */
  applicationName?: string;
  /** Receives connection-state changes (outage begins / ends, listener reconnects). */
  logger?: StoreLogger;
  /**
   * Listen for change notifications (LISTEN/NOTIFY) so cached per-dataset state is dropped as
   * soon as any process commits. Default true; false makes every `generation()` a query.
   */
  listen?: boolean;
  /**
   * Listen through the process's one notification connection to this database
   * (notification-hub.ts), shared with every other store opened so, instead of dedicated
   * connections of its own. For processes holding many stores (a multi-tenant `serve`). Default false.
   */
  sharedNotifications?: boolean;
}

/** The subset of a pino logger the store uses. */
export interface StoreLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface ResolvedPostgresSettings {
  /** The connection string with our own parameters removed (safe to hand to `pg`). */
  connectionString: string;
  schema: string;
  poolMax: number;
  statementTimeoutMs: number;
  connectTimeoutMs: number;
  idleTimeoutMs: number;
  outageProbeMs: number;
  retryAfterSeconds: number;
  recordsLabel: string;
  applicationName: string;
  listen: boolean;
  /** For messages: the URL without password. */
  display: string;
}

export const DEFAULT_SCHEMA = 'ucp_location';

/** True for `postgres://` and `postgresql://` URLs. */
export function isPostgresUrl(value: string): boolean {
  return /^postgres(ql)?:\/\//i.test(value);
}

/** The URL with its password replaced by `***` (for logs and error messages). */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password !== '') u.password = '***';
    return u.toString();
  } catch {
    return '<unparseable PostgreSQL URL>';
  }
}

function positiveInt(name: string, value: number | undefined, fallback: number, min = 1): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < min)
    throw new ConfigError(`PostgreSQL store option ${name} must be an integer >= ${min}; got ${String(value)}`);
  return value;
}

/**
 * Our own URL parameters (removed before the URL reaches `pg`), so an operator can tune a
 * deployment from `--store` alone: `schema`, `pool_max`, `statement_timeout_ms`,
 * `connect_timeout_ms`. Explicit options win over the URL.
 */
const URL_PARAMS = [
  ['pool_max', 'poolMax'],
  ['statement_timeout_ms', 'statementTimeoutMs'],
  ['connect_timeout_ms', 'connectTimeoutMs'],
] as const;

function urlNumber(parsed: URL, name: (typeof URL_PARAMS)[number][0]): number | undefined {
  const raw = parsed.searchParams.get(name);
  parsed.searchParams.delete(name);
  if (raw === null) return undefined;
  if (!/^\d+$/.test(raw)) throw new ConfigError(`PostgreSQL URL parameter ${name} must be a positive integer; got ${JSON.stringify(raw)}`);
  return Number(raw);
}

/**
 * Validate the URL and options. The URL may carry `?schema=name` and the tuning parameters
 * above; explicit options win. Throws ConfigError with the reason (never echoing a password).
 */
export function resolveSettings(url: string, options: PostgresStoreOptions = {}): ResolvedPostgresSettings {
  if (!isPostgresUrl(url)) {
    throw new ConfigError(`Not a PostgreSQL URL: expected postgres://user@host:5432/database, got ${JSON.stringify(redactUrl(url))}`);
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch (cause) {
    throw new ConfigError(`The PostgreSQL URL ${redactUrl(url)} cannot be parsed; expected postgres://user:password@host:5432/database`, {
      cause,
    });
  }
  const fromUrl = parsed.searchParams.get('schema');
  parsed.searchParams.delete('schema');
  const tuned: Partial<Record<(typeof URL_PARAMS)[number][1], number>> = {};
  for (const [param, option] of URL_PARAMS) {
    const v = urlNumber(parsed, param);
    if (v !== undefined) tuned[option] = v;
  }
  const schema = options.schema ?? fromUrl ?? DEFAULT_SCHEMA;
  if (!IDENTIFIER.test(schema)) {
    throw new ConfigError(
      `PostgreSQL schema name ${JSON.stringify(schema)} is not allowed: use lower-case letters, digits and _ (start with a letter or _; at most 63 characters).`,
    );
  }
  const statementTimeoutMs = positiveInt('statementTimeoutMs', options.statementTimeoutMs ?? tuned.statementTimeoutMs, 5000);
  return {
    connectionString: parsed.toString(),
    schema,
    poolMax: positiveInt('poolMax', options.poolMax ?? tuned.poolMax, 10),
    statementTimeoutMs,
    connectTimeoutMs: positiveInt('connectTimeoutMs', options.connectTimeoutMs ?? tuned.connectTimeoutMs, 2000),
    idleTimeoutMs: positiveInt('idleTimeoutMs', options.idleTimeoutMs, 30_000),
    outageProbeMs: positiveInt('outageProbeMs', options.outageProbeMs, 1000),
    retryAfterSeconds: positiveInt('retryAfterSeconds', options.retryAfterSeconds, 2),
    recordsLabel: options.recordsLabel ?? 'records',
    applicationName: options.applicationName ?? 'ucp-location',
    listen: options.listen ?? true,
    display: redactUrl(parsed.toString()),
  };
}

/**
 * `pg` pool configuration. `search_path` puts our schema first and keeps `public` (where the
 * PostGIS and pg_trgm functions normally live); it is set as a startup parameter so even the
 * first statement on a fresh connection sees it. The client-side read timeout backs up the
 * server-side statement timeout when the network silently drops packets.
 */
export function poolConfig(s: ResolvedPostgresSettings, extensionSchemas: readonly string[] = []): PoolConfig {
  const path = [s.schema, ...extensionSchemas.filter((x) => x !== s.schema && x !== 'public'), 'public'];
  return {
    connectionString: s.connectionString,
    max: s.poolMax,
    idleTimeoutMillis: s.idleTimeoutMs,
    connectionTimeoutMillis: s.connectTimeoutMs,
    statement_timeout: s.statementTimeoutMs,
    query_timeout: s.statementTimeoutMs + 2000,
    application_name: s.applicationName,
    // Our fuzzy vocabulary look-up relies on a low trigram-similarity threshold (see text-search.ts).
    options: `-c search_path=${path.join(',')} -c pg_trgm.similarity_threshold=0.05`,
    keepAlive: true,
  };
}

/** Node socket error codes meaning "cannot reach the server". */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'ECONNABORTED',
]);

/** SQLSTATEs meaning "the server cannot serve right now, retry later". */
const UNAVAILABLE_SQLSTATES = new Set([
  '57P01', // admin_shutdown (server stopping or restarting)
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up, in recovery)
  '53300', // too_many_connections
  '53400', // configuration_limit_exceeded
  '57014', // query_canceled: our statement timeout fired (overload)
  '55P03', // lock_not_available (lock_timeout)
  '40001', // serialization_failure
  '40P01', // deadlock_detected
]);

/** Messages `pg` uses for client-side connection failures (they carry no code). */
const UNAVAILABLE_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Query read timeout|not queryable|connection error|Connection ended|read ECONNRESET|server closed the connection/i;

/**
 * True when the connection itself was lost or could not be made (as opposed to a statement
 * that timed out): retrying once on a fresh connection is then worthwhile.
 */
export function isConnectionLoss(error: unknown): boolean {
  if (!isUnavailable(error)) return false;
  const code = field(error, 'code');
  return !(typeof code === 'string' && ['57014', '55P03', '40001', '40P01', '53300', '53400'].includes(code));
}

/** A property of a thrown value of unknown shape (`pg` errors, Node system errors, AggregateError). */
function field(error: unknown, name: 'code' | 'message' | 'errors'): unknown {
  if (typeof error !== 'object' || error === null) return undefined;
  const value: unknown = Reflect.get(error, name);
  return value;
}

/** True when `error` says the database is (temporarily) unreachable or overloaded. */
export function isUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = field(error, 'code');
  if (typeof code === 'string') {
    if (NETWORK_CODES.has(code) || UNAVAILABLE_SQLSTATES.has(code) || code.startsWith('08')) return true;
  }
  const message = field(error, 'message');
  if (typeof message === 'string' && UNAVAILABLE_MESSAGES.test(message)) return true;
  // AggregateError from dual-stack connects (::1 and 127.0.0.1 both refused).
  const errors = field(error, 'errors');
  return Array.isArray(errors) && errors.some((e) => isUnavailable(e));
}
