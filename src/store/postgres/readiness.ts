/**
 * The PostgreSQL store's readiness check (`LocationStore.readiness`, behind `/readyz`): the
 * database answers and its schema is the one this release needs. While the store is in an
 * outage the check doubles as the outage probe, so a quiet instance still recovers.
 */
import type { PoolClient } from 'pg';
import { causeMessage } from '../../errors.js';
import type { StoreReadiness } from '../store.js';
import { isUnavailable } from './connection.js';
import { schemaMismatch, schemaStatus } from './migrations.js';
import type { PgStoreContext } from './read-path.js';

/** Never throws. `closed`: the store was closed (not ready, and no connection is tried). */
export async function checkReadiness(ctx: PgStoreContext, closed: boolean): Promise<StoreReadiness> {
  if (closed) return { ready: false, reason: 'closed', detail: 'store closed' };
  const { guard, settings } = ctx;
  if (guard.down) {
    try {
      guard.enter();
    } catch {
      return { ready: false, reason: 'unreachable', detail: `PostgreSQL unreachable: ${guard.reason}` };
    }
  }
  let client: PoolClient | null = null;
  try {
    client = await ctx.pool.connect();
    const status = await schemaStatus(client, settings.schema);
    guard.succeeded();
    const mismatch = schemaMismatch(status, settings.schema, settings.display);
    if (mismatch !== null) return { ready: false, reason: 'schema', detail: mismatch.message };
    return { ready: true, reason: 'ok', detail: `PostgreSQL schema ${settings.schema} at migration ${status.current}` };
  } catch (cause) {
    if (isUnavailable(cause)) {
      guard.failed(cause);
      return { ready: false, reason: 'unreachable', detail: `PostgreSQL unreachable: ${causeMessage(cause)}` };
    }
    guard.settled();
    return { ready: false, reason: 'error', detail: `PostgreSQL check failed: ${causeMessage(cause)}` };
  } finally {
    client?.release();
  }
}
