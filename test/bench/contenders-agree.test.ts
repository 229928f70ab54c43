/**
 * The contenders answer the same questions the same way. On a small generated dataset imported
 * through our real pipeline, the naive scan, the kd-tree floor (superset + exact filter) and —
 * when a PostgreSQL with PostGIS is reachable — the PostGIS SQL must agree with the engine's
 * reference answer on every instance of every query kind they support. This is the check the
 * harness applies to every timed answer, exercised here on fixed data so a semantic drift in any
 * contender (or in the engine) shows up in `npm test`, not only in a benchmark run.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importFiles } from '../../src/data/import.js';
import { SqliteLocationStore } from '../../src/store/sqlite/index.js';
import { compareOutput } from '../../bench/lib/check.js';
import { EngineContender, ReferenceEngine } from '../../bench/lib/contenders/engine.js';
import { KdFloor } from '../../bench/lib/contenders/floor.js';
import { NaiveScan } from '../../bench/lib/contenders/naive.js';
import { connectPg, loadPostgis, PostgisContender } from '../../bench/lib/contenders/postgis.js';
import { ensureDataset } from '../../bench/lib/dataset.js';
import { makeInstances, QUERIES } from '../../bench/lib/queries.js';
import type { Contender, Instance } from '../../bench/lib/types.js';
import { createTestDatabase, type TestDatabase } from '../scale/support/pg.js';
import { missingService } from '../support/services.js';

const SIZE = 1500;
const SEED = 'agree-test';
const INSTANCES = 10;

let dir: string;
let store: SqliteLocationStore;
let reference: ReferenceEngine;
let engine: EngineContender;
let naive: NaiveScan;
let floor: KdFloor;
let postgis: PostgisContender | string;
let database: TestDatabase | undefined;
const schema = 'bench_postgis_test';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'bench-agree-'));
  const dataset = await ensureDataset(dir, SEED, SIZE);
  store = await SqliteLocationStore.open(join(dir, 'store.db'));
  await importFiles(store, [dataset.path]);
  reference = new ReferenceEngine(store);
  engine = new EngineContender('engine-sqlite', store);
  naive = await NaiveScan.load(dataset.path);
  floor = new KdFloor(naive.points());
  // A throw-away database on the loopback cluster (UCP_TEST_PG_URL), like the other PostgreSQL tests.
  const missing = missingService('postgis');
  if (missing !== null) postgis = missing;
  else {
    database = await createTestDatabase('ucp_bench');
    const client = await connectPg(database.url);
    if (typeof client === 'string') throw new Error(client);
    await loadPostgis(client, schema, dataset.path, 'agree-test');
    postgis = await PostgisContender.open(client, schema);
  }
}, 180_000);

afterAll(async () => {
  if (postgis !== undefined && typeof postgis !== 'string') await postgis.close();
  await database?.drop();
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function disagreements(contender: Contender, kinds: readonly (typeof QUERIES)[number][]): Promise<string[]> {
  const out: string[] = [];
  for (const query of kinds) {
    if (contender.unsupported(query) !== null) continue;
    for (const [i, instance] of makeInstances(query, SEED, SIZE, INSTANCES).entries()) {
      const r = contender.run(instance);
      const output = r instanceof Promise ? await r : r;
      const verdict = compareOutput(instance, output, await reference.answer(instance), (ids) =>
        naive.exactAmong((instance as Extract<Instance, { op: 'search' }>).request, ids),
      );
      if (verdict !== null) out.push(`${query.name}#${i}: ${verdict}`);
    }
  }
  return out;
}

describe('bench contenders agree with the engine', () => {
  it('the paged engine returns the prefix of its own unpaged answer, on every kind', async () => {
    expect(await disagreements(engine, QUERIES)).toEqual([]);
  });

  it('the naive scan gives the same ids in the same order (R-S4 distance, R-S6 hours, R-S7 amenities, R-L1 lookup)', async () => {
    expect(await disagreements(naive, QUERIES)).toEqual([]);
  });

  it('the floor returns a superset whose exact filter is the engine result (R-S4)', async () => {
    expect(await disagreements(floor, QUERIES)).toEqual([]);
  });

  it('PostGIS SQL gives the same answers, hours evaluated in SQL (skipped without PostgreSQL)', async (ctx) => {
    if (typeof postgis === 'string') {
      ctx.skip(postgis);
      return;
    }
    expect(await disagreements(postgis, QUERIES)).toEqual([]);
  });

  it('skips only the kinds it cannot compare, with a reason', () => {
    const text = QUERIES.filter((q) => q.text);
    expect(text.length).toBeGreaterThan(0);
    for (const q of text) expect(naive.unsupported(q)).toMatch(/bm25/);
    for (const q of QUERIES.filter((x) => !x.floor)) expect(floor.unsupported(q)).toMatch(/radius index/);
  });
});
