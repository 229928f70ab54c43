/**
 * `ucp-location serve`: the business server over HTTP (profile, MCP, REST) or MCP over stdio.
 *
 * Exit status: 0 after a graceful stop (SIGINT/SIGTERM, or the stdio client hanging up);
 * 1 the data was rejected or the server failed; 2 usage error (bad option, config, port in use).
 * Logs go to stdout, or to stderr with --stdio (stdout carries the protocol): readable lines when
 * that stream is a terminal, JSON lines (pino) otherwise; --log-format or UCP_LOG_FORMAT force either.
 */
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { ConfigError, DataValidationError, StoreError } from '../../errors.js';
import { createLogger, LOG_FORMAT_ENV, LOG_LEVELS, parseLogFormat } from '../../logging.js';
import type { LogFormat, Logger } from '../../logging.js';
import type { MetricsServer, ServerMetrics } from '../../metrics/index.js';
import {
  DEFAULT_CONFIG,
  DEFAULT_HOST,
  DEFAULT_PORT,
  loadConfigFile,
  SIGNATURE_VERIFICATIONS,
  startServer,
  startStdioServer,
} from '../../server.js';
import type { ServerConfig } from '../../server.js';

import { loadTrustedProfiles, parseTrustSpec } from '../../trusted-profiles.js';
import { isOneOf } from '../../protocol/guards.js';
import { CURSOR_SECRET_ENV, isClusterWorker, leaveCluster, parseWorkers, superviseWorkers } from './serve-cluster.js';

const EXIT_OK = 0;
const EXIT_FAILED = 1;
const EXIT_USAGE = 2;

interface ServeOptions {
  host: string;
  port: string;
  baseUrl?: string;
  db?: string;
  store?: string;
  redis?: string;
  workers?: string;
  data?: string[];
  config?: string;
  allowLoopbackProfiles?: boolean;
  stdio?: boolean;
  logLevel?: string;
  logFormat?: string;
  trustPlatformProfile?: string[];
  tenants?: string;
  multiTenant?: boolean;
  indexMemory?: string;
  trustProxy?: boolean;
  metricsPort?: string;
  signingKey?: string;
  verifySignatures?: string;
}

export function registerServeCommand(program: Command): void {
  program
    .command('serve')
    .description('Run the business server: /.well-known/ucp, MCP at /ucp/mcp, REST at /ucp/locations/{search,lookup}')
    .option('--host <address>', 'address to listen on', DEFAULT_HOST)
    .option(
      '--port <number>',
      'port to listen on (0 = any free port); default $PORT, else 8080',
      process.env['PORT'] ?? String(DEFAULT_PORT),
    )
    .option('--base-url <url>', 'public origin written into the profile (default http://<host>:<port>)')
    .option('--db <file>', 'SQLite store made with `ucp-location import` (opened read-only)')
    .option('--store <url>', 'store to serve: a postgres:// URL (run `ucp-location migrate` first) or an SQLite file; same as --db')
    .option('--redis <url>', 'redis:// URL: share rate limits, discovery budget and profile cache across instances')
    .option('--workers <n>', 'run n server processes on the same port (node:cluster); share --redis between them for fleet-wide limits')
    .option('--data <files...>', 'data files (NDJSON, GeoJSON, CSV) imported into a temporary store at start')
    .option('--config <file>', 'JSON configuration file (see docs/configuration.md)')
    .option('--allow-loopback-profiles', 'accept http://127.0.0.1 platform profiles (local development; needs a loopback --host)')
    .option(
      '--trust-platform-profile <file[=url]>',
      'pre-approve the platform profile in <file> (e.g. from `platform-profile init`) under <url>, or under a URL printed at start; repeatable',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option(
      '--signing-key <jwk-file>',
      'private JWK (or JWK Set) file: publish its public keys in the profile keys[] and sign every answer (RFC 9421); see docs/signatures.md',
    )
    .option(
      '--verify-signatures <mode>',
      `request signatures: ${SIGNATURE_VERIFICATIONS.join(', ')} (default if-present: verify those sent, serve unsigned callers as unverified)`,
    )
    .option('--stdio', 'serve MCP over stdin/stdout instead of HTTP (logs go to stderr)')
    .option(
      '--tenants <dir>',
      'serve every business of a tenants directory (`ucp-location tenant add`), each at its own domain, chosen by the Host header',
    )
    .option(
      '--multi-tenant',
      'with --store <postgres-url>: serve every tenant of that store (`tenant add --store`), each at its own domain, chosen by the Host header; tenants added, imported or removed by any instance are followed at once',
    )
    .option(
      '--index-memory <MiB>',
      'with --tenants or --multi-tenant: start a tenant (its index and its server) on its first request and keep the started tenants within this many MiB, stopping the least recently used',
    )
    .option(
      '--trust-proxy',
      'with --tenants or --multi-tenant: behind a reverse proxy, route by X-Forwarded-Host and charge per-address budgets to X-Forwarded-For',
    )
    .option(
      '--metrics-port <port>',
      'serve Prometheus metrics at http://<host>:<port>/metrics (no Host check, no token: keep it off public interfaces)',
    )
    .option('--log-level <level>', `override the configured log level (${LOG_LEVELS.join(', ')})`)
    .option('--log-format <format>', `json or pretty (default: $${LOG_FORMAT_ENV}, else pretty on a terminal and json otherwise)`)
    .action(async (options: ServeOptions) => {
      process.exitCode = await serve(options);
    });
}

/** `--index-memory <MiB>` in bytes, checked; undefined when not given. */
function parseIndexMemory(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const mib = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value) || !(mib > 0) || mib > 1024 * 1024) {
    throw new ConfigError(`--index-memory is a size in MiB greater than 0 (e.g. 256), got ${JSON.stringify(value)}`);
  }
  return Math.round(mib * 1024 * 1024);
}

/** `--metrics-port`, checked; undefined when not given. */
function parseMetricsPort(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65_535)
    throw new ConfigError(`--metrics-port must be an integer from 0 to 65535, got ${JSON.stringify(value)}`);
  return port;
}

async function startMetrics(
  host: string,
  port: number,
  logger: Logger,
): Promise<{ registry: ServerMetrics; server: MetricsServer; singleTenant: string }> {
  // Loaded only when asked for, so a server without metrics never loads prom-client.
  const { ServerMetrics, SINGLE_TENANT, startMetricsServer } = await import('../../metrics/index.js');
  const registry = new ServerMetrics();
  const server = await startMetricsServer(registry, { host, port });
  logger.info({ url: server.url }, `Prometheus metrics at ${server.url}`);
  return { registry, server, singleTenant: SINGLE_TENANT };
}

/**
 * `serve --tenants <dir>`: process-wide flags (--host, --port, --allow-loopback-profiles,
 * --redis, logging, metrics) apply to every tenant; the rest of a business's settings are its
 * own configuration, so the flags that set them for a single business are refused here.
 */
async function serveTenants(
  options: ServeOptions,
  common: { port: number; logFormat: LogFormat | undefined; logLevel: string | undefined; metricsPort: number | undefined },
): Promise<number> {
  const multi = options.multiTenant === true;
  if (multi && options.tenants !== undefined) {
    throw new ConfigError('Give --tenants <dir> (SQLite tenants) or --store <postgres-url> --multi-tenant, not both.');
  }
  if (multi && (options.store === undefined || !/^postgres(ql)?:\/\//i.test(options.store))) {
    throw new ConfigError(
      '--multi-tenant serves the tenants of a PostgreSQL store: give --store postgres://… (tenants added with `tenant add --store`).',
    );
  }
  const perBusiness = [
    ['--db', options.db],
    ['--store', multi ? undefined : options.store],
    ['--data', options.data],
    ['--base-url', options.baseUrl],
    ['--config', options.config],
    ['--trust-platform-profile', options.trustPlatformProfile],
    ['--workers', options.workers],
    ['--stdio', options.stdio],
  ] as const;
  const given = perBusiness.filter(([, value]) => value !== undefined).map(([flag]) => flag);
  if (given.length > 0) {
    throw new ConfigError(
      `${given.join(', ')} set one business's own settings; with --tenants each tenant has its own (tenant add --config, import --tenant). Drop ${given.length === 1 ? 'it' : 'them'}.`,
    );
  }
  const logLevel = common.logLevel;
  if (logLevel !== undefined && !isOneOf(LOG_LEVELS, logLevel)) {
    throw new ConfigError(`--log-level must be one of ${LOG_LEVELS.join(', ')}, got ${JSON.stringify(logLevel)}`);
  }
  const logger = createLogger({ level: logLevel ?? 'info', destination: 'stdout', format: common.logFormat });
  let pendingSignal: NodeJS.Signals | undefined;
  let onSignal = (signal: NodeJS.Signals): void => void (pendingSignal = signal);
  const relay = (signal: NodeJS.Signals): void => onSignal(signal);
  process.once('SIGINT', relay);
  process.once('SIGTERM', relay);
  const indexMemoryBytes = parseIndexMemory(options.indexMemory);
  const metrics = common.metricsPort === undefined ? undefined : await startMetrics(options.host, common.metricsPort, logger);
  const cursorSecret = process.env[CURSOR_SECRET_ENV];
  let running;
  try {
    const { catalogTenants, startTenantServers } = await import('../../tenants/index.js');
    // Loaded only for a PostgreSQL store, so directory tenants never load `pg`.
    const source =
      multi && options.store !== undefined
        ? catalogTenants((await import('../../store/postgres/index.js')).PostgresTenantCatalog.at(options.store))
        : undefined;
    running = await startTenantServers({
      ...(source === undefined ? { tenants: options.tenants ?? '' } : { source }),
      ...(indexMemoryBytes === undefined ? {} : { indexMemoryBytes }),
      host: options.host,
      port: common.port,
      logger,
      ...(logLevel === undefined ? {} : { logLevel }),
      ...(cursorSecret === undefined || cursorSecret === '' ? {} : { cursorSecret }),
      allowLoopbackProfiles: options.allowLoopbackProfiles === true,
      trustProxy: options.trustProxy === true,
      ...(options.redis === undefined ? {} : { redis: options.redis }),
      ...(metrics === undefined ? {} : { metrics: metrics.registry }),
    });
  } catch (err) {
    await metrics?.server.close();
    throw err;
  }
  const server = running;
  await new Promise<void>((resolve) => {
    const stop = (signal: NodeJS.Signals): void => {
      logger.info({ signal }, 'shutting down: finishing in-flight requests');
      process.once(signal, () => process.exit(EXIT_FAILED));
      void server
        .close()
        .then(() => metrics?.server.close())
        .then(() => resolve());
    };
    if (pendingSignal !== undefined) stop(pendingSignal);
    else onSignal = stop;
  });
  return EXIT_OK;
}

async function serve(options: ServeOptions): Promise<number> {
  const errorStream = process.stderr;
  try {
    const port = Number(options.port);
    if (!/^\d+$/.test(options.port) || port > 65_535)
      throw new ConfigError(`--port (or PORT) must be an integer from 0 to 65535, got ${JSON.stringify(options.port)}`);
    const logFormat = parseLogFormat(options.logFormat, '--log-format');
    let config: ServerConfig | undefined = options.config === undefined ? undefined : await loadConfigFile(options.config);
    const logLevel = options.logLevel;
    if (logLevel !== undefined) {
      if (!isOneOf(LOG_LEVELS, logLevel)) {
        throw new ConfigError(`--log-level must be one of ${LOG_LEVELS.join(', ')}, got ${JSON.stringify(logLevel)}`);
      }
      config = { ...(config ?? DEFAULT_CONFIG), logLevel };
    }
    if (options.trustPlatformProfile !== undefined && options.trustPlatformProfile.length > 0) {
      // Files named on the command line are relative to where the command runs.
      const files = options.trustPlatformProfile.map(parseTrustSpec).map((t) => ({ ...t, file: resolve(t.file) }));
      const base = config ?? DEFAULT_CONFIG;
      config = { ...base, trustedPlatformProfiles: [...base.trustedPlatformProfiles, ...files] };
    }
    if (
      (options.tenants !== undefined || options.multiTenant === true) &&
      (options.signingKey !== undefined || options.verifySignatures !== undefined)
    ) {
      throw new ConfigError(
        "--signing-key and --verify-signatures set one business's signatures; with --tenants, set `signatures` in each tenant's config instead.",
      );
    }
    const verify = options.verifySignatures;
    if (verify !== undefined && !isOneOf(SIGNATURE_VERIFICATIONS, verify)) {
      throw new ConfigError(`--verify-signatures must be one of ${SIGNATURE_VERIFICATIONS.join(', ')}, got ${JSON.stringify(verify)}`);
    }
    if (options.signingKey !== undefined || verify !== undefined) {
      const base = config ?? DEFAULT_CONFIG;
      config = {
        ...base,
        signatures: {
          // A key file named on the command line is relative to where the command runs.
          signingKey: options.signingKey === undefined ? base.signatures.signingKey : resolve(options.signingKey),
          verify: verify ?? base.signatures.verify,
        },
      };
    }
    const metricsPort = parseMetricsPort(options.metricsPort);
    if (options.tenants !== undefined || options.multiTenant === true)
      return await serveTenants(options, { port, logFormat, logLevel, metricsPort });
    if (options.indexMemory !== undefined) {
      throw new ConfigError(
        '--index-memory bounds the indexes of many tenants (--tenants, or --store <postgres-url> --multi-tenant); a single business holds its one index.',
      );
    }
    if (options.trustProxy === true) {
      throw new ConfigError(
        '--trust-proxy applies to --tenants (routing by X-Forwarded-Host); a single business is served as it is reached.',
      );
    }
    if (options.store !== undefined && options.db !== undefined)
      throw new ConfigError('Give either --store or --db (they are the same option), not both.');
    const db = options.store ?? options.db;
    const workers = parseWorkers(options.workers);
    if (workers > 1 && options.stdio === true)
      throw new ConfigError('--workers applies to the HTTP server; --stdio serves one client in one process.');
    if (isClusterWorker() && (config ?? DEFAULT_CONFIG).cursorSecret === undefined && process.env[CURSOR_SECRET_ENV] !== undefined) {
      // Every worker signs cursors with the secret the primary chose, so they page across workers.
      config = { ...(config ?? DEFAULT_CONFIG), cursorSecret: process.env[CURSOR_SECRET_ENV] };
    }
    if (metricsPort !== undefined && (workers > 1 || options.stdio === true)) {
      throw new ConfigError('--metrics-port serves one HTTP process; it cannot be combined with --workers or --stdio.');
    }
    if (workers > 1 && !isClusterWorker()) {
      // Refuse a bad profile file once, here, rather than in every worker that keeps restarting.
      await loadTrustedProfiles(config?.trustedPlatformProfiles ?? []);
      const supervisor = createLogger({ level: config?.logLevel ?? 'info', destination: 'stdout', format: logFormat });
      return await superviseWorkers(workers, { cursorSecret: config?.cursorSecret, logger: supervisor });
    }
    const common = {
      ...(config === undefined ? {} : { config }),
      ...(db === undefined ? {} : { db }),
      ...(options.redis === undefined ? {} : { redis: options.redis }),
      ...(options.data === undefined ? {} : { data: options.data }),
      allowLoopbackProfiles: options.allowLoopbackProfiles === true,
    };
    const logger = createLogger({
      level: config?.logLevel ?? 'info',
      destination: options.stdio === true ? 'stderr' : 'stdout',
      format: logFormat,
    });

    if (options.stdio === true) {
      const session = await startStdioServer({ ...common, logger, ...(options.baseUrl === undefined ? {} : { baseUrl: options.baseUrl }) });
      const stop = (): void => void session.close();
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      await session.closed;
      await session.close();
      return EXIT_OK;
    }

    // Signals are caught from before the server starts: one that arrives while it is starting (or
    // right after "listening" is logged) still stops it gracefully, removing a temporary demo store.
    let pendingSignal: NodeJS.Signals | undefined;
    let onSignal = (signal: NodeJS.Signals): void => void (pendingSignal = signal);
    const relay = (signal: NodeJS.Signals): void => onSignal(signal);
    process.once('SIGINT', relay);
    process.once('SIGTERM', relay);
    const metrics = metricsPort === undefined ? undefined : await startMetrics(options.host, metricsPort, logger);
    const server = await startServer({
      ...common,
      ...(metrics === undefined ? {} : { instruments: metrics.registry.forTenant(metrics.singleTenant) }),
      logger,
      host: options.host,
      port,
      ...(options.baseUrl === undefined ? {} : { baseUrl: options.baseUrl }),
    });
    await new Promise<void>((resolve) => {
      const stop = (signal: NodeJS.Signals): void => {
        logger.info({ signal }, 'shutting down: finishing in-flight requests');
        // A second signal means "now": skip the grace period.
        process.once(signal, () => process.exit(EXIT_FAILED));
        void server
          .close()
          .then(() => metrics?.server.close())
          .then(() => {
            leaveCluster();
            resolve();
          });
      };
      if (pendingSignal !== undefined) stop(pendingSignal);
      else onSignal = stop;
    });
    return EXIT_OK;
  } catch (error) {
    if (error instanceof ConfigError) {
      errorStream.write(`ucp-location serve: ${error.message}\n`);
      return EXIT_USAGE;
    }
    if (error instanceof DataValidationError || error instanceof StoreError) {
      errorStream.write(`ucp-location serve: ${error.message}\n`);
      return EXIT_FAILED;
    }
    throw error;
  }
}
