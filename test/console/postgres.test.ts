/** The console over a PostgreSQL store: the same read model and explanations through the same port. */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { geodesicDistanceMeters } from '../../src/domain/geodesy.js';
import { startConsole, type RunningConsole } from '../../src/console/server.js';
import { PostgresLocationStore } from '../../src/store/postgres/index.js';
import { postJson, rawRequest } from '../../src/transport/test-support/raw-http.js';
import { buildPostgresStore } from '../scale/support/e2e-store.js';
import { describeWith } from '../support/services.js';
import { DEMO, demoRecords } from './support.js';

const API = { 'x-ucp-console': '1' };

describeWith(['postgis'], 'operator console on PostgreSQL', () => {
  let built: { path: string; dispose(): Promise<void> };
  let store: PostgresLocationStore;
  let running: RunningConsole;

  beforeAll(async () => {
    built = await buildPostgresStore(DEMO);
    store = await PostgresLocationStore.open(built.path, { poolMax: 2 });
    running = await startConsole({ store, port: 0 });
  }, 60_000);

  afterAll(async () => {
    await running?.close();
    await store?.close();
    await built?.dispose();
  });

  it('shows every public Location and counts the private ones', async () => {
    const records = demoRecords();
    const publicIds = records.filter((r) => r.visibility !== 'private').map((r) => r.id);
    const map = (await rawRequest(`${running.url}api/map`, { headers: API })).json as { locations: { id: string }[] };
    expect(map.locations.map((l) => l.id).sort()).toEqual([...publicIds].sort());
    const overview = (await rawRequest(`${running.url}api/overview`, { headers: API })).json as {
      counts: { public: number; private: number };
    };
    expect(overview.counts).toMatchObject({ public: publicIds.length, private: records.length - publicIds.length });
  });

  it('explains a distance miss with the engine’s geodesic distance (R-S4)', async () => {
    const subject = demoRecords().find((r) => r.visibility !== 'private' && r.geo !== undefined)!;
    const center = { latitude: subject.geo!.latitude + 0.05, longitude: subject.geo!.longitude };
    const res = await postJson(`${running.url}api/explain`, { request: { distance: { center, max: 10 } }, id: subject.id }, API);
    const distanceMeters = geodesicDistanceMeters(center, subject.geo!);
    expect(res.json).toMatchObject({ matched: false, verdicts: [{ predicate: 'distance', pass: false, distanceMeters, maxMeters: 10 }] });
  });
});
