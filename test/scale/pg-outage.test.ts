/**
 * PostgreSQL outage under light load, on a throw-away cluster started for this file (never the
 * machine's main cluster). While the database is down every request is answered at once with
 * 503 + Retry-After (REST) or -32000 + data.retry_after (MCP) — never a hang, never a 500 (R-G7);
 * `/healthz` stays 200 and `/readyz` turns 503. When the database returns, the instance recovers
 * without a restart: zero failures after recovery, and no data lost.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { parseConfig } from '../../src/config.js';
import { createLogger } from '../../src/logging.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { postJson, rawRequest } from '../../src/transport/test-support/raw-http.js';
import { openBinding } from '../e2e/support/bindings.js';
import { startPlatforms, testResolver, type Platforms } from '../e2e/support/platform.js';
import { FIXTURE } from '../e2e/support/store.js';
import { buildPostgresStoreIn } from './support/e2e-store.js';
import { ThrowawayPostgres } from './support/pg-cluster.js';
import { describeWith } from '../support/services.js';
import { withSchema } from './support/pg.js';
import { PostgresLocationStore } from '../../src/store/postgres/index.js';

interface Sample {
  phase: string;
  status: number;
  ms: number;
  retryAfter: string | undefined;
  code: string | undefined;
}

let cluster: ThrowawayPostgres;
let url: string;
let platforms: Platforms;
let server: RunningServer;
const logLines: string[] = [];

const FIXTURE_IDS = [
  'loc_valley_grocers',
  'loc_downtown',
  'loc_harbor_market',
  'loc_ferry_coffee',
  'loc_oakland_hardware',
  'loc_berkeley_books',
  'loc_no_geo',
];

beforeAll(async () => {
  cluster = await ThrowawayPostgres.create();
  url = withSchema(cluster.url, 'outage');
  await buildPostgresStoreIn(url, FIXTURE);
  // One item only this test knows, applied before the outage: it must survive it.
  const writer = await PostgresLocationStore.open(url, { poolMax: 1 });
  await writer.applyInventory([{ line: 1, location_id: 'loc_downtown', item_id: 'sku-outage-proof', available: true }]);
  await writer.close();
  platforms = await startPlatforms();
  const sink = { write: (line: string) => void logLines.push(line) } as unknown as NodeJS.WritableStream;
  server = await startServer({
    host: '127.0.0.1',
    port: 0,
    db: url,
    allowLoopbackProfiles: true,
    resolveHost: testResolver,
    logger: createLogger({ level: 'info', destination: sink }),
    config: parseConfig({ rateLimits: { enabled: false }, cursorSecret: 'outage-cursor-secret-0123456789abcdef0123456' }),
  });
}, 120_000);

afterAll(async () => {
  await server?.close();
  await platforms?.close();
  await cluster?.destroy();
});

/**
 * `workers` concurrent clients sending `count` REST searches and lookups in all. A phase is a
 * number of requests, not a stretch of time: a busy machine makes it take longer, never smaller.
 */
async function load(phase: string, count: number, workers = 4): Promise<Sample[]> {
  const samples: Sample[] = [];
  let sent = 0;
  const requests = [
    { path: 'search', body: { query: 'grocery store' } },
    { path: 'search', body: { distance: { center: { latitude: 37.7955, longitude: -122.3937 }, max: 5000 } } },
    { path: 'lookup', body: { ids: FIXTURE_IDS } },
  ];
  await Promise.all(
    Array.from({ length: workers }, async (_, w) => {
      for (let i = w; sent < count; i++) {
        sent += 1;
        const r = requests[i % requests.length] as (typeof requests)[number];
        const started = performance.now();
        const res = await postJson(`${server.url}/ucp/locations/${r.path}`, r.body, { 'ucp-agent': `profile="${platforms.good}"` });
        const body = res.json as { messages?: { code?: string }[] } | undefined;
        const retry = res.headers['retry-after'];
        samples.push({
          phase,
          status: res.status,
          ms: performance.now() - started,
          retryAfter: typeof retry === 'string' ? retry : undefined,
          code: body?.messages?.[0]?.code,
        });
      }
    }),
  );
  return samples;
}

function summary(samples: Sample[]): string {
  const ms = samples.map((s) => s.ms).sort((x, y) => x - y);
  const pct = (p: number): string => (ms[Math.min(ms.length - 1, Math.floor((p / 100) * ms.length))] ?? 0).toFixed(1);
  const statuses: Record<number, number> = {};
  for (const s of samples) statuses[s.status] = (statuses[s.status] ?? 0) + 1;
  return `${samples[0]?.phase ?? '?'}: ${samples.length} requests ${JSON.stringify(statuses)} p50 ${pct(50)} ms p99 ${pct(99)} ms max ${pct(100)} ms`;
}

async function ready(): Promise<number> {
  return (await rawRequest(`${server.url}/readyz`)).status;
}

describeWith(['pgCluster'], 'PostgreSQL outage under load (R-G7)', () => {
  it('answers fast 503s with retry_after while the database is down and recovers by itself, losing nothing', async () => {
    // Warm up (profile fetch, first connections) so the phases measure steady state.
    await load('warm-up', 5, 1);
    const before = await load('before', 40);
    expect(before.length).toBeGreaterThan(0);
    expect(before.every((s) => s.status === 200)).toBe(true);
    const lookupBefore = await postJson(
      `${server.url}/ucp/locations/lookup`,
      { ids: FIXTURE_IDS },
      { 'ucp-agent': `profile="${platforms.good}"` },
    );

    await cluster.stop();
    const during = await load('outage', 16);
    expect(during.length).toBe(16);
    for (const s of during) {
      expect(s.status).toBe(503);
      expect(s.code).toBe('service_unavailable');
      expect(Number(s.retryAfter)).toBeGreaterThanOrEqual(1);
      // Never a hang: far below the connect timeout, let alone a client's patience.
      expect(s.ms).toBeLessThan(5000);
    }
    // MCP: JSON-RPC -32000 with data.retry_after; probes: live but not ready.
    const mcp = await openBinding('mcp-raw', server.url);
    const outcome = await mcp.call('search', { query: 'grocery store' }, platforms.good);
    expect(outcome).toMatchObject({ ok: false, httpStatus: 503, rpcCode: -32000 });
    if (!outcome.ok) expect(outcome.retryAfter).toBeGreaterThanOrEqual(1);
    expect((await rawRequest(`${server.url}/healthz`)).status).toBe(200);
    const notReady = await rawRequest(`${server.url}/readyz`);
    expect(notReady.status).toBe(503);
    expect(notReady.json).toEqual({ status: 'not_ready', store: 'unreachable' });
    expect(notReady.headers['retry-after']).toBeDefined();

    await cluster.start();
    // Ready again by itself: asked every 100 ms for as long as it takes (the test's timeout is
    // the deadline; a busy machine only makes the wait longer).
    while ((await ready()) !== 200) await new Promise((r) => setTimeout(r, 100));
    const after = await load('after', 40);
    expect(after.length).toBeGreaterThan(0);
    expect(after.filter((s) => s.status !== 200)).toEqual([]);

    // No data lost: the same lookup answer, and the pre-outage inventory still applies.
    const lookupAfter = await postJson(
      `${server.url}/ucp/locations/lookup`,
      { ids: FIXTURE_IDS },
      { 'ucp-agent': `profile="${platforms.good}"` },
    );
    expect(lookupAfter.json).toEqual(lookupBefore.json);
    const items = await postJson(
      `${server.url}/ucp/locations/search`,
      { filters: { items: ['sku-outage-proof'] } },
      { 'ucp-agent': `profile="${platforms.good}"` },
    );
    expect((items.json as { locations: { id: string }[] }).locations.map((l) => l.id)).toEqual(['loc_downtown']);

    // The outage was logged once when it began and once when it ended (not per request).
    const messages = logLines.map((l) => (JSON.parse(l) as { msg: string }).msg);
    expect(messages.filter((m) => m.startsWith('PostgreSQL unreachable'))).toHaveLength(1);
    expect(messages.filter((m) => m.startsWith('PostgreSQL reachable again'))).toHaveLength(1);

    // Measurements for the report (not asserted beyond "no hang").
    console.log([summary(before), summary(during), summary(after)].join('\n'));
  });

  it('keeps every answer 2xx or 503 + Retry-After across a PostgreSQL restart under MCP and REST load, and recovers by itself', async () => {
    const samples: (Sample & { at: number; binding: string })[] = [];
    let stop = false;
    // The phases end on what the load saw, not on a clock: each sample wakes the one waiter.
    let waiter: { done: () => boolean; resolve: () => void } | undefined;
    const seen = (done: () => boolean): Promise<void> =>
      new Promise((resolve) => {
        if (done()) resolve();
        else waiter = { done, resolve };
      });
    const recorded = (): void => {
      if (waiter?.done() !== true) return;
      waiter.resolve();
      waiter = undefined;
    };
    const bodies = [
      { binding: 'rest', path: '/ucp/locations/search', body: { query: 'grocery store' } },
      { binding: 'mcp', path: '/ucp/mcp', body: { query: 'coffee' } },
      { binding: 'rest', path: '/ucp/locations/lookup', body: { ids: FIXTURE_IDS } },
      { binding: 'mcp', path: '/ucp/mcp', body: { distance: { center: { latitude: 37.7955, longitude: -122.3937 }, max: 5000 } } },
    ];
    const load8 = Promise.all(
      Array.from({ length: 8 }, async (_, w) => {
        for (let i = w; !stop; i++) {
          const r = bodies[i % bodies.length] as (typeof bodies)[number];
          const started = performance.now();
          const res =
            r.binding === 'rest'
              ? await postJson(`${server.url}${r.path}`, r.body, { 'ucp-agent': `profile="${platforms.good}"` })
              : await postJson(`${server.url}${r.path}`, {
                  jsonrpc: '2.0',
                  id: i,
                  method: 'tools/call',
                  params: { name: 'search_locations', arguments: { meta: { 'ucp-agent': { profile: platforms.good } }, location: r.body } },
                });
          const body = res.json as { messages?: { code?: string }[]; error?: { code?: number; data?: { retry_after?: number } } };
          const retry =
            res.headers['retry-after'] ?? (body?.error?.data?.retry_after === undefined ? undefined : String(body.error.data.retry_after));
          samples.push({
            phase: 'restart',
            binding: r.binding,
            status: res.status,
            ms: performance.now() - started,
            at: Date.now(),
            retryAfter: typeof retry === 'string' ? retry : undefined,
            code: r.binding === 'rest' ? body?.messages?.[0]?.code : body?.error?.code === undefined ? undefined : String(body.error.code),
          });
          recorded();
        }
      }),
    );
    await seen(() => samples.length >= 40); // the load is running
    const restartBegan = Date.now();
    await cluster.stop();
    await new Promise((r) => setTimeout(r, 500)); // a short outage, as a restart has
    await cluster.start();
    const restarted = Date.now();
    // Recovered: the last 40 answers all came after the restart, and all succeeded.
    await seen(() => samples.length >= 40 && samples.slice(-40).every((s) => s.at > restarted && s.status === 200));
    stop = true;
    await load8;

    const failures = samples.filter((s) => s.status !== 200);
    // R-G7: the only failure a restart may cause is 503 with a retry hint (REST Retry-After, MCP -32000 + data.retry_after).
    for (const s of failures) {
      expect(s.status, JSON.stringify(s)).toBe(503);
      expect(Number(s.retryAfter), JSON.stringify(s)).toBeGreaterThanOrEqual(1);
      expect(s.code, JSON.stringify(s)).toBe(s.binding === 'rest' ? 'service_unavailable' : '-32000');
    }
    const lastFailure = Math.max(restartBegan, ...failures.map((s) => s.at));
    const recoveryMs = lastFailure - restarted;
    // Recovered without a server restart: everything after the last failure succeeded, and well before the run ended.
    expect(samples.filter((s) => s.at > lastFailure).length).toBeGreaterThan(20);
    expect(recoveryMs).toBeLessThan(3000);
    const outageMs = restarted - restartBegan;
    console.log(
      `restart under load: ${samples.length} calls (${samples.filter((s) => s.binding === 'mcp').length} MCP), ${failures.length} × 503 + Retry-After, 0 other failures; ` +
        `database down ${outageMs} ms (stop + start), last 503 ${Math.max(0, recoveryMs)} ms after the restart completed`,
    );
  });
});
