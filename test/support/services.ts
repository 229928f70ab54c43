/**
 * Optional services some suites need (PostgreSQL with PostGIS, a `redis-server` binary, the
 * PostgreSQL server binaries for throw-away clusters). The global setup probes them once per run
 * and hands the verdicts to every test file, so a suite whose service is missing is skipped with
 * a reason — and, under `UCP_TEST_REQUIRE_SERVICES=1` (what CI sets), fails the run instead.
 *
 * A fresh machine of our kind has PostgreSQL and Redis running but no PostGIS: `npm test` must
 * still pass there, and say loudly what it did not run.
 */
import { describe, inject } from 'vitest';

export type ServiceName = 'postgis' | 'redis' | 'pgCluster' | 'chromium';

/** `null` when the service is usable; otherwise why not and how to get it. */
export type ServiceVerdicts = Record<ServiceName, string | null>;

declare module 'vitest' {
  export interface ProvidedContext {
    services: ServiceVerdicts;
  }
}

export const SERVICE_LABELS: Record<ServiceName, string> = {
  postgis: 'PostgreSQL with PostGIS',
  redis: 'redis-server',
  pgCluster: 'PostgreSQL server binaries (initdb, pg_ctl) with PostGIS',
  chromium: 'chromium (the browser the console suites drive)',
};

/** Why `names` cannot all be used in this run (first missing one), or `null` when they can. */
export function missingService(...names: ServiceName[]): string | null {
  const verdicts = inject('services');
  for (const name of names) {
    const why = verdicts[name];
    if (why !== null) return `${SERVICE_LABELS[name]} missing: ${why}`;
  }
  return null;
}

/**
 * `describe` that runs only when every named service is usable; otherwise the whole block —
 * hooks included, so no database is created — is skipped and its title says why.
 */
export function describeWith(names: ServiceName[], title: string, body: () => void): void {
  const missing = missingService(...names);
  if (missing === null) describe(title, body);
  else describe.skip(`${title} [skipped: ${missing}]`, body);
}
