/**
 * Child process of the tenants benchmark (bench/tenants.ts): one business server, or one
 * multi-tenant server, in a process of its own so the parent's load generator and measurements do
 * not share its event loop or its memory (the parent reads this process's RSS from /proc).
 *
 *   node --import tsx bench/tenants-server.ts single <store.db>
 *   node --import tsx bench/tenants-server.ts tenants <dir> <budget-bytes>
 *   node --import tsx bench/tenants-server.ts postgres <postgres-url> <redis-url> <budget-bytes>
 *
 * Protocol (stdout lines prefixed `BENCH `): {"url": …} once listening; SIGTERM stops it.
 */
import { DEFAULT_CONFIG, type ServerConfig } from '../src/config.js';
import { createLogger } from '../src/logging.js';
import { startServer } from '../src/server.js';
import { PostgresTenantCatalog } from '../src/store/postgres/index.js';
import { catalogTenants, startTenantServers } from '../src/tenants/index.js';
import { BENCH_CURSOR_SECRET } from './lib/contenders/engine.js';
import { BENCH_PLATFORM_URL, benchPlatformProfile } from './lib/platform.js';

function say(value: unknown): void {
  process.stdout.write(`BENCH ${JSON.stringify(value)}\n`);
}

/** What every tenant (and the single business) is configured with: the bench Platform trusted, no abuse budgets. */
export function benchTenantConfig(): Record<string, unknown> {
  return {
    trustedPlatforms: { [BENCH_PLATFORM_URL]: benchPlatformProfile() },
    rateLimits: { enabled: false },
  };
}

async function main(): Promise<void> {
  const [mode, where, third, fourth] = process.argv.slice(2);
  // Errors only (a tenant that cannot start), on stderr, which the harness passes through.
  const logger = createLogger({ level: 'error', destination: 'stderr', format: 'json' });
  let running: { url: string; close(): Promise<void> };
  if (mode === 'single' && where !== undefined) {
    const config: ServerConfig = {
      ...DEFAULT_CONFIG,
      logLevel: 'silent',
      cursorSecret: BENCH_CURSOR_SECRET,
      trustedPlatforms: { [BENCH_PLATFORM_URL]: benchPlatformProfile() },
      rateLimits: { ...DEFAULT_CONFIG.rateLimits, enabled: false },
    };
    const server = await startServer({ host: '127.0.0.1', port: 0, db: where, config, logger, shutdownGraceMs: 1000 });
    running = server;
  } else if (mode === 'tenants' && where !== undefined && third !== undefined) {
    running = await startTenantServers({
      tenants: where,
      indexMemoryBytes: Number(third),
      host: '127.0.0.1',
      port: 0,
      logger,
      cursorSecret: BENCH_CURSOR_SECRET,
      shutdownGraceMs: 1000,
    });
  } else if (mode === 'postgres' && where !== undefined && third !== undefined && fourth !== undefined) {
    running = await startTenantServers({
      source: catalogTenants(PostgresTenantCatalog.at(where)),
      redis: third,
      indexMemoryBytes: Number(fourth),
      host: '127.0.0.1',
      port: 0,
      logger,
      cursorSecret: BENCH_CURSOR_SECRET,
      shutdownGraceMs: 1000,
    });
  } else {
    process.stderr.write('usage: tenants-server.ts single <db> | tenants <dir> <budget> | postgres <url> <redis> <budget>\n');
    process.exit(2);
  }
  process.once('SIGTERM', () => {
    void running.close().finally(() => process.exit(0));
  });
  say({ url: running.url });
}

if (process.argv[1]?.endsWith('tenants-server.ts') === true) {
  main().catch((error: unknown) => {
    process.stderr.write(`tenants server failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  });
}
