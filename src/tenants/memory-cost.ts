/**
 * What a started tenant costs the process, as `--index-memory` counts it.
 *
 * Measured, not derived (bench/tenants.ts checks the result against the process's RSS):
 *  - all tenants started and kept (60 × 200 Locations, V8 and glibc set as docs/deployment.md
 *    recommends, after a forced collection): RSS grew 1.43 MB per tenant, of which the index is
 *    1.10 MB (3.25 × its 337 KB file, index-file-loader.ts); the rest, its server (two SQLite
 *    connections with their caches and mapped pages, its service, its transports), is
 *    TENANT_SERVER_RESIDENT_BYTES;
 *  - 1,000 tenants asked in turn under budgets of 32 and 64 MiB (tenants started and stopped all
 *    along, no forced collection): peak RSS grew 1.41 times what those two counted, plus 8.6 MiB
 *    whatever the budget — the garbage a collecting runtime lets build up before it collects, in
 *    proportion to what is live, and what starting and stopping tenants costs at all.
 * So each tenant is counted at its bytes times RSS_PER_COUNTED_BYTE, and a part of the budget
 * (CHURN_RESERVE_BYTES) is set aside before any tenant: the budget then bounds the RSS tenants add.
 */

/** A started tenant's server, beside its index, bytes. */
export const TENANT_SERVER_RESIDENT_BYTES = 352 * 1024;

/** Peak RSS per byte of what tenants hold, while tenants start and stop (measured 1.41). */
export const RSS_PER_COUNTED_BYTE = 1.45;

/** Set aside from the budget for what churn costs whatever is held (measured 8.6 MiB), bytes. */
export const CHURN_RESERVE_BYTES = 12 * 1024 * 1024;

/** What a started tenant whose index holds `indexBytes` is counted for against the budget. */
export function tenantCost(indexBytes: number): number {
  return Math.round((indexBytes + TENANT_SERVER_RESIDENT_BYTES) * RSS_PER_COUNTED_BYTE);
}

/** The part of an `--index-memory` budget the tenants' costs may fill (a quarter at most is set aside). */
export function tenantsShare(budgetBytes: number): number {
  return budgetBytes - Math.min(CHURN_RESERVE_BYTES, Math.floor(budgetBytes / 4));
}
