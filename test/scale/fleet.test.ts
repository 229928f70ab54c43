/**
 * Two business instances on different loopback ports sharing one PostgreSQL store and one Redis
 * (started for this file): they behave as one service. An inventory batch applied through the
 * CLI (another process) or a replaced dataset is visible to both once its change notification
 * has reached them (R-S8 data freshness; each instance answers from its in-memory index, which
 * follows LISTEN/NOTIFY — `caughtUp` is the event the test waits on, never a sleep), a cursor issued by one pages on the other (R-S9, shared cursor secret), the
 * rate limits trip across both (R-P2), and a Platform profile fetched by one serves the other
 * from the shared cache (R-G2).
 */
import { writeFileSync } from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { parseConfig } from '../../src/config.js';
import { createLogger } from '../../src/logging.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { PostgresLocationStore } from '../../src/store/postgres/index.js';
import { runCli } from '../client/support/cli.js';
import { openBinding, type Binding, type Outcome } from '../e2e/support/bindings.js';
import { startPlatforms, testResolver, type Platforms } from '../e2e/support/platform.js';
import { FIXTURE } from '../e2e/support/store.js';
import { createTestDatabase, withSchema, type TestDatabase } from './support/pg.js';
import { ThrowawayRedis } from './support/redis.js';
import { buildPostgresStoreIn } from './support/e2e-store.js';
import { describeWith, type ServiceName } from '../support/services.js';

const NEEDS: ServiceName[] = ['postgis', 'redis'];

const SECRET = 'fleet-cursor-secret-0123456789abcdef0123456789';
/** Per-profile budget: small, so a test can spend it across both instances. */
const PER_PROFILE = 6;

let db: TestDatabase;
let url: string;
let redis: ThrowawayRedis;
let platforms: Platforms;
let a: RunningServer;
let b: RunningServer;
let scratch: string;

function start(): Promise<RunningServer> {
  return startServer({
    host: '127.0.0.1',
    port: 0,
    db: url,
    redis: redis.url,
    allowLoopbackProfiles: true,
    resolveHost: testResolver,
    logger: createLogger({ level: process.env['E2E_LOG'] === undefined ? 'silent' : 'info', destination: 'stderr' }),
    config: parseConfig({
      cursorSecret: SECRET,
      limits: { defaultPageSize: 2 },
      rateLimits: {
        perIp: { limit: 10_000, windowSeconds: 60 },
        perProfile: { limit: PER_PROFILE, windowSeconds: 600 },
        itemSearch: { limit: 100, windowSeconds: 600 },
      },
    }),
  });
}

beforeAll(async () => {
  db = await createTestDatabase('ucp_fleet');
  url = withSchema(db.url, 'fleet');
  await buildPostgresStoreIn(url, FIXTURE);
  redis = await ThrowawayRedis.start();
  platforms = await startPlatforms();
  [a, b] = await Promise.all([start(), start()]);
  scratch = mkdtempSync(join(tmpdir(), 'ucp-fleet-'));
});

afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
  await platforms?.close();
  await redis?.stop();
  await db?.drop();
  if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
});

function ok(outcome: Outcome): Record<string, unknown> {
  if (!outcome.ok) throw new Error(`expected success, got ${outcome.httpStatus} ${outcome.message}`);
  return outcome.payload;
}

const ids = (payload: Record<string, unknown>): string[] => (payload['locations'] as { id: string }[]).map((l) => l.id);

describeWith(NEEDS, 'two instances, one PostgreSQL store, one Redis', () => {
  let restA: Binding;
  let restB: Binding;
  let mcpB: Binding;
  beforeAll(async () => {
    expect(a.port).not.toBe(b.port);
    restA = await openBinding('rest', a.url);
    restB = await openBinding('rest', b.url);
    mcpB = await openBinding('mcp-sdk', b.url);
  });
  afterAll(async () => {
    await Promise.all([restA?.close(), restB?.close(), mcpB?.close()]);
  });

  /** Wait until both instances answer from `generation` (their change notification arrived). */
  async function bothAt(generation: number): Promise<void> {
    expect(Number.isInteger(generation)).toBe(true);
    await Promise.all([a.caughtUp(generation), b.caughtUp(generation)]);
  }

  it('an inventory batch applied through the CLI is visible on both instances once notified (R-S8)', async () => {
    const profile = platforms.fresh('inventory');
    const search = { filters: { items: ['sku-fleet-kombucha'] } };
    const before = ok(await restB.call('search', search, profile));
    expect(ids(before)).toEqual([]);
    expect(before['messages']).toEqual([expect.objectContaining({ code: 'item_not_found' })]);

    const feed = join(scratch, 'feed.csv');
    writeFileSync(
      feed,
      'location_id,item_id,available\nloc_harbor_market,sku-fleet-kombucha,true\nloc_downtown,sku-fleet-kombucha,false\n',
    );
    const run = await runCli(['inventory', '--store', url, feed, '--json']);
    expect(run.code, run.stderr).toBe(0);
    const applied = JSON.parse(run.stdout) as { generation: number };
    expect(applied).toMatchObject({ ok: true, applied: 2 });
    await bothAt(applied.generation);

    for (const binding of [restA, restB, mcpB]) {
      expect(ids(ok(await binding.call('search', search, profile)))).toEqual(['loc_harbor_market']);
    }
    // And back: marked unavailable through a third instance (another pool), seen by both.
    const writer = await PostgresLocationStore.open(url, { poolMax: 1 });
    try {
      const back = await writer.applyInventory([
        { line: 1, location_id: 'loc_harbor_market', item_id: 'sku-fleet-kombucha', available: false },
      ]);
      await bothAt(back.generation);
    } finally {
      await writer.close();
    }
    for (const binding of [restA, restB]) {
      const after = ok(await binding.call('search', search, profile));
      expect(ids(after)).toEqual([]);
      expect(after['messages']).toBeUndefined(); // known item, just not available anywhere
    }
  });

  it('a cursor issued by one instance pages on the other, and both give the same pages (R-S9)', async () => {
    const profile = platforms.fresh('paging');
    const request = { query: 'grocery store', pagination: { limit: 1 } };
    const first = ok(await restA.call('search', request, profile));
    const cursor = (first['pagination'] as { cursor?: string }).cursor;
    expect(cursor).toBeDefined();
    const onB = ok(await restB.call('search', { ...request, pagination: { limit: 1, cursor } }, profile));
    const onA = ok(await restA.call('search', { ...request, pagination: { limit: 1, cursor } }, profile));
    expect(onB).toEqual(onA);
    expect(ids(onB)).toHaveLength(1);
    expect(ids(onB)).not.toEqual(ids(first));
  });

  it('the per-profile rate limit trips across both instances: the budget is shared, not doubled (R-P2)', async () => {
    const profile = platforms.fresh('budget');
    const outcomes: Outcome[] = [];
    for (let i = 0; i < PER_PROFILE + 2; i++)
      outcomes.push(await (i % 2 === 0 ? restA : restB).call('lookup', { ids: ['loc_downtown'] }, profile));
    expect(outcomes.slice(0, PER_PROFILE).every((o) => o.ok)).toBe(true);
    for (const o of outcomes.slice(PER_PROFILE)) {
      expect(o.ok).toBe(false);
      if (o.ok) continue;
      expect(o.httpStatus).toBe(429);
      expect(o.retryAfter).toBeGreaterThan(0);
    }
    // MCP on the other instance is refused too (-32000 with retry_after).
    const mcp = await mcpB.call('lookup', { ids: ['loc_downtown'] }, profile);
    expect(mcp).toMatchObject({ ok: false, rpcCode: -32000 });
    if (!mcp.ok) expect(mcp.retryAfter).toBeGreaterThan(0);
  });

  it('a platform profile fetched by one instance is served to the other from the shared cache (R-G2)', async () => {
    const profile = platforms.fresh('cache');
    const before = platforms.hits().main;
    ok(await restA.call('lookup', { ids: ['loc_downtown'] }, profile));
    expect(platforms.hits().main).toBe(before + 1);
    ok(await restB.call('lookup', { ids: ['loc_downtown'] }, profile));
    ok(await mcpB.call('lookup', { ids: ['loc_downtown'] }, profile));
    expect(platforms.hits().main).toBe(before + 1);
  });

  it('a dataset replaced through the CLI is what both instances serve once notified (atomic replaceAll)', async () => {
    const profile = platforms.fresh('replace');
    const file = join(scratch, 'replacement.ndjson');
    writeFileSync(
      file,
      `${JSON.stringify({ id: 'loc_fleet_new', name: 'Fleet Newcomer Grocery', geo: { latitude: 37.8, longitude: -122.4 } })}\n`,
    );
    const run = await runCli(['import', '--store', url, file, '--json']);
    expect(run.code, run.stderr).toBe(0);
    await bothAt((JSON.parse(run.stdout) as { generation: number }).generation);
    for (const binding of [restA, restB]) {
      expect(ids(ok(await binding.call('lookup', { ids: ['loc_fleet_new', 'loc_downtown'] }, profile)))).toEqual(['loc_fleet_new']);
      expect(ids(ok(await binding.call('search', { query: 'grocery' }, profile)))).toEqual(['loc_fleet_new']);
    }
  });
});
