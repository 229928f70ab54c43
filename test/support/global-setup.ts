/**
 * Runs once per `vitest` run, before any test file:
 * - probes the optional services (see services.ts) and prints one loud line for each one missing;
 *   under `UCP_TEST_REQUIRE_SERVICES=1` a missing service fails the run before any test starts;
 * - gives the run its own temporary directory (`TMPDIR`) and database-name tag, so that what a
 *   test leaves behind — even one killed half-way — is found, reported and removed at the end.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { PG_ADMIN_URL, RUN_TAG_ENV, dropRunDatabases } from '../scale/support/pg.js';
import { throwawayClusterMissing } from '../scale/support/pg-cluster.js';
import { CHROMIUM } from './browser.js';
import { SERVICE_LABELS, type ServiceName, type ServiceVerdicts } from './services.js';

const INSTALL_HINT: Record<ServiceName, string> = {
  postgis: 'install postgresql-15-postgis-3 (as .ci/run does) or point UCP_TEST_PG_URL at a cluster that has it',
  redis: 'install redis-server (Debian package redis-server)',
  pgCluster: 'install postgresql-15 and postgresql-15-postgis-3, or set UCP_TEST_PG_BIN to a bin directory with initdb',
  chromium: 'install chromium (Debian package chromium, as .ci/run does) or point UCP_TEST_CHROMIUM at a Chromium binary',
};

async function probePostgis(): Promise<string | null> {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 3_000 });
  // An unreachable server emits 'error' on the client as well as rejecting connect().
  client.on('error', () => undefined);
  try {
    await client.connect();
    const { rows } = await client.query<{ n: string }>("SELECT count(*) AS n FROM pg_available_extensions WHERE name = 'postgis'");
    return rows[0]?.n === '1' ? null : `extension "postgis" is not available on ${redact(PG_ADMIN_URL)}`;
  } catch (err) {
    return `no PostgreSQL at ${redact(PG_ADMIN_URL)} (${(err as Error).message})`;
  } finally {
    await client.end().catch(() => undefined);
  }
}

function probeBinary(file: string, args: string[]): string | null {
  try {
    execFileSync(file, args, { stdio: 'ignore', timeout: 10_000 });
    return null;
  } catch (err) {
    return `${file} did not run (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`;
  }
}

function probePgCluster(postgis: string | null): string | null {
  // A throw-away cluster uses the same installed extensions as the machine's cluster.
  return throwawayClusterMissing() ?? (postgis === null ? null : 'PostGIS is missing (see above)');
}

function redact(url: string): string {
  const u = new URL(url);
  u.password = '';
  return u.toString();
}

async function probe(): Promise<ServiceVerdicts> {
  const postgis = await probePostgis();
  return {
    postgis,
    redis: probeBinary('redis-server', ['--version']),
    pgCluster: probePgCluster(postgis),
    chromium: probeBinary(CHROMIUM, ['--version']),
  };
}

function banner(verdicts: ServiceVerdicts): string[] {
  const lines: string[] = [];
  for (const name of Object.keys(verdicts) as ServiceName[]) {
    const why = verdicts[name];
    if (why === null) continue;
    lines.push(`⚠ SKIPPING every suite that needs ${SERVICE_LABELS[name]}: ${why}. To run them: ${INSTALL_HINT[name]}.`);
  }
  if (lines.length > 0) lines.push('  (UCP_TEST_REQUIRE_SERVICES=1 turns a missing service into a failure, as in CI.)');
  return lines;
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const verdicts = await probe();
  const warnings = banner(verdicts);
  if (warnings.length > 0 && process.env['UCP_TEST_REQUIRE_SERVICES'] === '1') {
    throw new Error(`UCP_TEST_REQUIRE_SERVICES=1 and a service is missing:\n${warnings.join('\n')}`);
  }
  for (const line of warnings) console.warn(line);
  project.provide('services', verdicts);

  // Test files run in forks started after this, so they inherit both variables.
  const runTag = `r${process.pid.toString(36)}${Date.now().toString(36).slice(-4)}`;
  process.env[RUN_TAG_ENV] = runTag;
  const previousTmp = process.env['TMPDIR'];
  const runTmp = mkdtempSync(join(tmpdir(), 'ucp-test-run-'));
  // Throw-away PostgreSQL clusters run as the `postgres` user when we are root: it must be able
  // to reach its data directory below this one.
  chmodSync(runTmp, 0o755);
  process.env['TMPDIR'] = runTmp;

  return async () => {
    // tsx keeps its compile cache in TMPDIR (tsx-<uid>): the tool's, not a test's leftover.
    const leftovers = readdirSync(runTmp).filter((f) => !/^tsx-\d+$/.test(f));
    rmSync(runTmp, { recursive: true, force: true });
    if (previousTmp === undefined) delete process.env['TMPDIR'];
    else process.env['TMPDIR'] = previousTmp;
    const dropped = verdicts.postgis === null ? await dropRunDatabases(runTag) : [];
    const leaks = [...leftovers.map((f) => `temporary file ${f}`), ...dropped.map((d) => `database ${d}`)];
    if (leaks.length > 0) {
      console.error(`✗ tests left these behind (now removed): ${leaks.join(', ')}. A test must clean up in afterAll, also when it fails.`);
      process.exitCode = 1;
    }
    for (const line of warnings) console.warn(line);
  };
}
