/**
 * `npm run bench:tenants`: many tenants on one process, indexes on demand (#34).
 *
 *  1. 1,000 tenants × 200 Locations in a tenants directory (SQLite stores, each with its index
 *     file, as `import --tenants --tenant` leaves them), served by one `serve --tenants
 *     --index-memory` process; beside it, in the same run, a single-business `serve --db` over one
 *     of the same stores. Requests alternate between the two, so both see the same machine.
 *     - hot: p50 of the same search at one started tenant vs the single business (target ≤ 1.5×);
 *     - cold: the first answer of tenants not started (evicted long before), each asked once;
 *     - memory: RSS sampled while every tenant is asked once in random order (which fills the
 *       budget and evicts), against the process's RSS before any tenant started plus the budget.
 *  2. The same tenants in a PostgreSQL store's catalog, served by two `serve --multi-tenant`
 *     instances sharing Redis: hot p50 and cold first answers at each (skipped, and said so, when
 *     PostgreSQL with PostGIS or Redis is missing).
 *
 * Results go under `tenants` in bench/results/latest.json (every other key kept) and into the
 * generated section of docs/benchmarks.md. Traffic stays on loopback. Children are stopped by pid.
 *
 *   npm run bench:tenants -- [--tenants 1000] [--locations 200] [--budget-mib 64] [--requests 2000]
 *                            [--cold 100] [--no-postgres] [--pg-url postgres://…] [--redis redis://…]
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { SqliteLocationStore } from '../src/store/sqlite/index.js';
import { DiskIndexFileHome, indexFilePathFor, refreshIndexFile } from '../src/store/memory-index/index.js';
import { PostgresIndexFileHome, PostgresLocationStore, PostgresTenantCatalog } from '../src/store/postgres/index.js';
import { TenantRegistry } from '../src/tenants/index.js';
import type { LocationRecord } from '../src/domain/location.js';
import { REPO_ROOT, startChild, stopAllChildren, stopChild, type BenchChild } from './lib/children.js';
import { GENERATOR_VERSION, generateRecord } from './lib/dataset.js';
import { BENCH_PLATFORM_URL } from './lib/platform.js';
import { Rng } from './lib/rng.js';
import { quantile } from './lib/stats.js';
import { benchTenantConfig } from './tenants-server.js';

const { values } = parseArgs({
  options: {
    tenants: { type: 'string', default: '1000' },
    locations: { type: 'string', default: '200' },
    'budget-mib': { type: 'string', default: '64' },
    requests: { type: 'string', default: '2000' },
    cold: { type: 'string', default: '100' },
    'max-old-space-mib': { type: 'string', default: '256' },
    'max-semi-space-mib': { type: 'string', default: '4' },
    'no-postgres': { type: 'boolean', default: false },
    'pg-url': { type: 'string', default: process.env['UCP_TEST_PG_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test' },
    redis: { type: 'string', default: 'redis://127.0.0.1:6379' },
    'cache-dir': { type: 'string', default: process.env['UCP_BENCH_CACHE'] ?? join(tmpdir(), 'ucp-location-bench') },
    out: { type: 'string', default: join(REPO_ROOT, 'bench/results') },
  },
});
const TENANTS = Number(values.tenants);
const LOCATIONS = Number(values.locations);
const BUDGET = Math.round(Number(values['budget-mib']) * 2 ** 20);
const REQUESTS = Number(values.requests);
const COLD = Number(values.cold);
const SEED = 'ucp-bench-tenants-1';

function log(text: string): void {
  process.stderr.write(`[bench:tenants] ${text}\n`);
}

const domainOf = (t: number): string => `brand-${String(t).padStart(4, '0')}.bench.example`;
const recordsOf = (t: number): LocationRecord[] => Array.from({ length: LOCATIONS }, (_, i) => generateRecord(SEED, t * LOCATIONS + i));

/** The search asked of a tenant: 10 km around its first Location with a position. */
function searchOf(records: readonly LocationRecord[]): string {
  const geo = records.find((r) => r.geo !== undefined)?.geo ?? { latitude: 0, longitude: 0 };
  return JSON.stringify({
    filters: { geo: { latitude: geo.latitude, longitude: geo.longitude, radius_m: 10_000 } },
    pagination: { limit: 10 },
  });
}

/** The tenants directory, made once per generator version, seed and shape (cached). */
async function tenantsDir(cacheDir: string): Promise<string> {
  const dir = join(cacheDir, `tenants-v${GENERATOR_VERSION}-${TENANTS}x${LOCATIONS}`);
  const done = join(dir, '.complete');
  if (existsSync(done)) return dir;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const configFile = join(dir, '.tenant-config.json');
  writeFileSync(configFile, JSON.stringify(benchTenantConfig()));
  const registry = new TenantRegistry(dir);
  for (let t = 0; t < TENANTS; t++) {
    const tenant = await registry.add(domainOf(t), { configFile });
    const store = await SqliteLocationStore.open(tenant.storeFile);
    try {
      await store.replaceAll(recordsOf(t));
      await refreshIndexFile(store, new DiskIndexFileHome(indexFilePathFor(tenant.storeFile)));
    } finally {
      await store.close();
    }
    if ((t + 1) % 100 === 0) log(`tenants directory: ${t + 1}/${TENANTS}`);
  }
  writeFileSync(done, new Date().toISOString());
  return dir;
}

const agent = new Agent({ keepAlive: true, maxSockets: 4 });

/** One REST search at `host` through `url`; resolves with milliseconds from send to the last byte. */
function ask(url: string, host: string, body: string): Promise<number> {
  const target = new URL('/ucp/locations/search', url);
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request(
      target,
      {
        method: 'POST',
        agent,
        headers: {
          host,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'ucp-agent': `profile="${BENCH_PLATFORM_URL}"`,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const ms = performance.now() - started;
          if (res.statusCode !== 200)
            reject(new Error(`${host}: HTTP ${res.statusCode}: ${Buffer.concat(chunks).toString().slice(0, 300)}`));
          else resolve(ms);
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

function rssMiB(pid: number | undefined, field: 'VmRSS' | 'VmHWM' = 'VmRSS'): number {
  const status = readFileSync(`/proc/${pid ?? 0}/status`, 'utf8');
  const kib = Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? Number.NaN);
  return kib / 1024;
}

/**
 * Every server child runs with V8's old space capped (docs/deployment.md recommends it beside
 * --index-memory): without a cap V8 lets garbage grow the heap far past what is live before it
 * collects, and the RSS shows the heap's size rather than what the tenants hold.
 */
async function serverChild(args: string[]): Promise<{ child: BenchChild; url: string }> {
  // glibc would otherwise raise its mmap threshold after the first freed index buffer and keep
  // later ones in arenas it never returns (docs/deployment.md: many tenants).
  process.env['MALLOC_MMAP_THRESHOLD_'] ??= '131072';
  const child = startChild('bench/tenants-server.ts', args, [
    `--max-old-space-size=${values['max-old-space-mib']}`,
    `--max-semi-space-size=${values['max-semi-space-mib']}`,
  ]);
  const hello = await child.next();
  if (typeof hello['url'] !== 'string') throw new Error(`the server did not report its URL: ${JSON.stringify(hello)}`);
  return { child, url: hello['url'] };
}

interface Figures {
  n: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

function round(x: number, digits = 3): number {
  return Number(x.toFixed(digits));
}

/** Milliseconds, rounded to `digits`. */
function figures(samples: readonly number[], digits = 3): Figures {
  const sorted = [...samples].sort((a, b) => a - b);
  const q = (x: number): number => round(quantile(sorted, x), digits);
  return { n: sorted.length, p50: q(0.5), p95: q(0.95), p99: q(0.99), max: round(sorted[sorted.length - 1] ?? Number.NaN, digits) };
}

/** `rounds` requests at each target, alternating, after `warm` each; the latencies of each. */
async function alternate(targets: ReadonlyArray<() => Promise<number>>, rounds: number, warm = 200): Promise<Figures[]> {
  for (let i = 0; i < warm; i++) for (const t of targets) await t();
  const samples = targets.map((): number[] => []);
  for (let i = 0; i < rounds; i++) {
    for (const [k, target] of targets.entries()) samples[k]?.push(await target());
  }
  return samples.map((x) => figures(x));
}

/** Two `serve --multi-tenant` instances over the catalog, sharing Redis: hot p50 and cold first answers at each. */
async function postgresPart(
  url: string,
  order: readonly string[],
  bodies: ReadonlyMap<string, string>,
  hot: string,
  hotBody: string,
  singleUrl: string,
): Promise<Record<string, unknown>> {
  const one = await serverChild(['postgres', url, values.redis, String(BUDGET)]);
  const two = await serverChild(['postgres', url, values.redis, String(BUDGET)]);
  const instances = [one, two];
  try {
    // The same tenants at both instances, a quarter of them, so each instance loads and evicts.
    const sweep = order.slice(0, Math.ceil(TENANTS / 4));
    for (const d of sweep) for (const s of instances) await ask(s.url, d, bodies.get(d) ?? '{}');
    const lat = await alternate(
      [() => ask(singleUrl, new URL(singleUrl).host, hotBody), ...instances.map((s) => () => ask(s.url, hot, hotBody))],
      Math.ceil(REQUESTS / 2),
    );
    const untouched = order.slice(sweep.length, sweep.length + COLD);
    const colds: Figures[] = [];
    for (const s of instances) colds.push(await coldAnswers(s.url, untouched, bodies));
    return {
      instances: 2,
      redis: true,
      singleSqlite: lat[0],
      hot: lat.slice(1),
      coldFirstAnswerMs: colds,
      rssMiB: instances.map((s) => round(rssMiB(s.child.process.pid), 1)),
    };
  } finally {
    for (const s of instances) await stopChild(s.child.process, 10_000);
  }
}

/** The PostgreSQL catalog of the same tenants (cached in its own schema; made once, as `tenant add` + `import --tenant`). */
async function postgresCatalog(pgUrl: string): Promise<{ url: string } | { skipped: string }> {
  const probe = new pg.Client({ connectionString: pgUrl });
  try {
    await probe.connect();
    const ext = await probe.query("SELECT 1 FROM pg_available_extensions WHERE name = 'postgis'");
    if ((ext.rowCount ?? 0) === 0) return { skipped: 'PostgreSQL has no PostGIS extension available' };
  } catch (error) {
    return { skipped: `PostgreSQL unreachable at ${pgUrl}: ${error instanceof Error ? error.message : String(error)}` };
  } finally {
    await probe.end().catch(() => undefined);
  }
  const u = new URL(pgUrl);
  u.searchParams.set('schema', `bench_tenants_v${GENERATOR_VERSION}_${TENANTS}x${LOCATIONS}`);
  const url = u.toString();
  const catalog = PostgresTenantCatalog.at(url);
  const listed = await catalog.list();
  const present = new Set(listed.filter((t) => t.hasData).map((t) => t.domain));
  for (let t = 0; t < TENANTS; t++) {
    const domain = domainOf(t);
    if (present.has(domain)) continue;
    if (listed.some((x) => x.domain === domain)) await catalog.remove(domain);
    const tenant = await catalog.add(domain, { config: benchTenantConfig() });
    const store = await PostgresLocationStore.open(catalog.storeUrl(tenant), { poolMax: 1, listen: false });
    try {
      await store.replaceAll(recordsOf(t));
      const home = await PostgresIndexFileHome.open(store.indexFileAccess());
      try {
        await refreshIndexFile(store, home);
      } finally {
        await home.close();
      }
    } finally {
      await store.close();
    }
    if ((t + 1) % 50 === 0) log(`PostgreSQL catalog: ${t + 1}/${TENANTS}`);
  }
  return { url };
}

async function redisReachable(url: string): Promise<string | null> {
  const { Redis } = await import('ioredis');
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  try {
    await client.connect();
    await client.ping();
    return null;
  } catch (error) {
    return `Redis unreachable at ${url}: ${error instanceof Error ? error.message : String(error)}`;
  } finally {
    client.disconnect();
  }
}

async function coldAnswers(url: string, domains: readonly string[], bodies: ReadonlyMap<string, string>): Promise<Figures> {
  const samples: number[] = [];
  for (const d of domains) samples.push(await ask(url, d, bodies.get(d) ?? '{}'));
  return figures(samples, 1);
}

async function main(): Promise<void> {
  const started = Date.now();
  const cacheDir = values['cache-dir'];
  mkdirSync(cacheDir, { recursive: true });
  mkdirSync(values.out, { recursive: true });
  log(`${TENANTS} tenants × ${LOCATIONS} Locations, index budget ${values['budget-mib']} MiB`);
  const dir = await tenantsDir(cacheDir);
  const bodies = new Map<string, string>();
  for (let t = 0; t < TENANTS; t++) bodies.set(domainOf(t), searchOf(recordsOf(t)));
  const hot = domainOf(0);
  const hotBody = bodies.get(hot) ?? '{}';
  const rng = new Rng(`${SEED}/order`);
  const order = Array.from({ length: TENANTS }, (_, t) => domainOf(t));
  for (let i = order.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    const a = order[i] ?? '';
    order[i] = order[j] ?? '';
    order[j] = a;
  }

  const single = await serverChild(['single', new TenantRegistry(dir).paths(hot).storeFile]);
  const multi = await serverChild(['tenants', dir, String(BUDGET)]);
  const idleRss = rssMiB(multi.child.process.pid);
  // The base: the process with its code paths loaded, i.e. once its first tenant has answered.
  await ask(multi.url, hot, hotBody);
  const baseRss = rssMiB(multi.child.process.pid);
  log(`servers up; multi-tenant RSS ${idleRss.toFixed(1)} MiB before any tenant, ${baseRss.toFixed(1)} MiB after the first`);

  // Every tenant once, in random order (the budget fills, then the least recently used are stopped).
  let peakRss = baseRss;
  const firstEver: number[] = [];
  for (const [i, d] of order.entries()) {
    firstEver.push(await ask(multi.url, d, bodies.get(d) ?? '{}'));
    if (i % 25 === 0) peakRss = Math.max(peakRss, rssMiB(multi.child.process.pid));
  }
  peakRss = Math.max(peakRss, rssMiB(multi.child.process.pid));
  log(`swept ${order.length} tenants; peak RSS ${peakRss.toFixed(1)} MiB`);

  const [singleLat = figures([]), hotLat = figures([])] = await alternate(
    [() => ask(single.url, new URL(single.url).host, hotBody), () => ask(multi.url, hot, hotBody)],
    REQUESTS,
  );
  log(`hot p50 ${hotLat.p50.toFixed(3)} ms vs single ${singleLat.p50.toFixed(3)} ms`);
  // Cold: the tenants asked first in the sweep, stopped since (least recently used), each asked once more.
  const cold = await coldAnswers(multi.url, order.slice(0, COLD), bodies);
  peakRss = Math.max(peakRss, rssMiB(multi.child.process.pid));
  const hwm = rssMiB(multi.child.process.pid, 'VmHWM');
  log(`cold first answers p50 ${cold.p50.toFixed(1)} ms, p95 ${cold.p95.toFixed(1)} ms, max ${cold.max.toFixed(1)} ms`);
  const singleRss = rssMiB(single.child.process.pid);
  await stopChild(multi.child.process, 10_000);

  let postgres: Record<string, unknown>;
  const pgCatalog = values['no-postgres'] ? { skipped: '--no-postgres' } : await postgresCatalog(values['pg-url']);
  const redisProblem = 'skipped' in pgCatalog ? null : await redisReachable(values.redis);
  if ('skipped' in pgCatalog || redisProblem !== null) {
    postgres = { skipped: 'skipped' in pgCatalog ? pgCatalog.skipped : redisProblem };
    log(`PostgreSQL part skipped: ${String(postgres['skipped'])}`);
  } else {
    postgres = await postgresPart(pgCatalog.url, order, bodies, hot, hotBody, single.url).catch((error: unknown) => {
      log(`PostgreSQL part failed: ${error instanceof Error ? error.message : String(error)}`);
      return { failed: error instanceof Error ? error.message : String(error) };
    });
  }
  await stopChild(single.child.process, 10_000);

  const hotRatio = hotLat.p50 / singleLat.p50;
  const results = {
    generatedAt: new Date().toISOString(),
    command: `npm run bench:tenants${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`,
    machine: `${cpus()[0]?.model.split(' ').slice(0, 2).join(' ') ?? 'cpu'}, ${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM, Node ${process.version}`,
    loadAverage1m: round(loadavg()[0] ?? 0, 2),
    seconds: Math.round((Date.now() - started) / 1000),
    tenants: TENANTS,
    locationsPerTenant: LOCATIONS,
    indexMemoryMiB: Number(values['budget-mib']),
    maxOldSpaceMiB: Number(values['max-old-space-mib']),
    maxSemiSpaceMiB: Number(values['max-semi-space-mib']),
    query: 'search: 10 km around the tenant’s first Location, 10 results (REST)',
    singleTenant: singleLat,
    hotTenant: hotLat,
    coldFirstAnswerMs: cold,
    firstEverAnswerMs: figures(firstEver, 1),
    rssMiB: {
      beforeAnyTenant: round(idleRss, 1),
      base: round(baseRss, 1),
      peak: round(peakRss, 1),
      highWaterMark: round(hwm, 1),
      budget: round(BUDGET / 2 ** 20, 1),
      singleBusiness: round(singleRss, 1),
    },
    targets: {
      hot_vs_single_p50: { value: round(hotRatio, 2), target: '≤ 1.5', met: hotRatio <= 1.5 },
      cold_first_answer_p95_ms: { value: cold.p95, target: '≤ 100', met: cold.p95 <= 100 },
      peak_rss_mib: {
        value: round(peakRss, 1),
        target: `≤ base ${round(baseRss, 1)} + budget ${round(BUDGET / 2 ** 20, 1)}`,
        met: peakRss <= baseRss + BUDGET / 2 ** 20,
      },
    },
    postgres,
  };
  const file = join(values.out, 'latest.json');
  const latest: Record<string, unknown> = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>) : {};
  latest['tenants'] = results;
  writeFileSync(file, `${JSON.stringify(latest, null, 2)}\n`);
  // The page shows the committed results only: a run written elsewhere (--out) leaves it alone.
  if (values.out === join(REPO_ROOT, 'bench/results')) {
    const page = join(REPO_ROOT, 'docs/benchmarks.md');
    writeFileSync(page, replaceTenantsSection(readFileSync(page, 'utf8'), renderTenants(results)));
  }
  log(`results under "tenants" in ${file}`);
  process.stdout.write(`${JSON.stringify(results.targets)}\n`);
}

export const TENANTS_START = '<!-- bench-tenants:start (generated by `npm run bench:tenants`; do not edit) -->';
export const TENANTS_END = '<!-- bench-tenants:end -->';

function replaceTenantsSection(page: string, body: string): string {
  const start = page.indexOf(TENANTS_START);
  const end = page.indexOf(TENANTS_END);
  if (start < 0 || end < start) throw new Error(`docs/benchmarks.md has no ${TENANTS_START} … ${TENANTS_END} section`);
  return `${page.slice(0, start + TENANTS_START.length)}\n${body}\n${page.slice(end)}`;
}

function renderTenants(r: {
  tenants: number;
  locationsPerTenant: number;
  indexMemoryMiB: number;
  machine: string;
  loadAverage1m: number;
  singleTenant: Figures | undefined;
  hotTenant: Figures | undefined;
  coldFirstAnswerMs: { p50: number; p95: number; max: number; n: number };
  rssMiB: { beforeAnyTenant: number; base: number; peak: number; budget: number; singleBusiness: number };
  targets: Record<string, { value: number; target: string; met: boolean }>;
  postgres: Record<string, unknown>;
}): string {
  const yes = (m: boolean): string => (m ? 'met' : '**not met**');
  const lines = [
    `${r.tenants.toLocaleString('en-US')} tenants × ${r.locationsPerTenant} Locations, \`--index-memory ${r.indexMemoryMiB}\`, on ${r.machine} (load average ${r.loadAverage1m} at the end).`,
    '',
    '| figure | value | target | |',
    '|---|---|---|---|',
    `| hot tenant p50 vs single business p50 (same run, alternating) | ${r.hotTenant?.p50} ms vs ${r.singleTenant?.p50} ms = ${r.targets['hot_vs_single_p50']?.value}× | ≤ 1.5× | ${yes(r.targets['hot_vs_single_p50']?.met ?? false)} |`,
    `| cold tenant's first answer (${r.coldFirstAnswerMs.n} tenants evicted earlier) | p50 ${r.coldFirstAnswerMs.p50} ms, p95 ${r.coldFirstAnswerMs.p95} ms, max ${r.coldFirstAnswerMs.max} ms | p95 ≤ 100 ms | ${yes(r.targets['cold_first_answer_p95_ms']?.met ?? false)} |`,
    `| peak RSS while every tenant is asked once | ${r.rssMiB.peak} MiB | ≤ base ${r.rssMiB.base} + budget ${r.rssMiB.budget} MiB | ${yes(r.targets['peak_rss_mib']?.met ?? false)} |`,
    '',
    `The base is the multi-tenant process's RSS once its first tenant answered (${r.rssMiB.beforeAnyTenant} MiB before: the first start loads the server's code paths); the single-business process measured ${r.rssMiB.singleBusiness} MiB.`,
  ];
  const p = r.postgres;
  if (typeof p['skipped'] === 'string') lines.push('', `Two instances over PostgreSQL + Redis: skipped (${p['skipped']}).`);
  else if (typeof p['failed'] === 'string') lines.push('', `Two instances over PostgreSQL + Redis: **failed** (${p['failed']}).`);
  else {
    const hot = (p['hot'] as Array<{ p50: number }>).map((h) => `${h.p50} ms`).join(' and ');
    const cold = (p['coldFirstAnswerMs'] as Array<{ p50: number; p95: number }>).map((c) => `p50 ${c.p50} / p95 ${c.p95} ms`).join('; ');
    lines.push(
      '',
      `Two \`serve --store postgres://… --multi-tenant --redis …\` instances over the same catalog: hot p50 ${hot} (single business over SQLite in the same run: ${(p['singleSqlite'] as { p50: number }).p50} ms); cold first answers ${cold}; RSS ${(p['rssMiB'] as number[]).join(' and ')} MiB.`,
    );
  }
  return lines.join('\n');
}

main()
  .catch(async (error: unknown) => {
    process.stderr.write(`bench:tenants failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  })
  .finally(async () => {
    agent.destroy();
    await stopAllChildren();
  });
