/**
 * `npm run bench`: datasets at several sizes, the query mix against every contender side by side,
 * import rate and peak RSS, end-to-end MCP vs a bare server doing the same search, and the report (bench/results/latest.*).
 * See docs/benchmarks.md. Run `npm run bench -- --help` for options.
 */
import type * as PostgresStoreModule from '../src/store/postgres/index.js';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { cpus, freemem, loadavg, totalmem } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { SqliteLocationStore } from '../src/store/sqlite/index.js';
import { DiskIndexFileHome, IndexedLocationStore, indexFilePathFor, loadIndexFile, publishIndex } from '../src/store/memory-index/index.js';
import type { SearchRequest } from '../src/domain/requests.js';
import type { LocationStore } from '../src/store/store.js';
import { importFiles } from '../src/data/import.js';
import { REPO_ROOT, startChild, stopAllChildren } from './lib/children.js';
import { EngineContender, ReferenceEngine } from './lib/contenders/engine.js';
import { KdFloor } from './lib/contenders/floor.js';
import { NaiveScan } from './lib/contenders/naive.js';
import { connectPg, loadPostgis, PostgisContender, postgisSchema, vacuumSchema } from './lib/contenders/postgis.js';
import { ensureDataset, GENERATOR_VERSION } from './lib/dataset.js';
import { runEndToEnd } from './lib/e2e.js';
import { measureQuery, perInstanceMedians } from './lib/measure.js';
import { parseOptions, USAGE, type BenchOptions } from './lib/options.js';
import { keepMainThreadProfile, profileContender, topInclusive, topSelfTime, type CpuProfile } from './lib/profile.js';
import { HEADLINE_QUERY, makeInstances, QUERIES } from './lib/queries.js';
import {
  computeRatios,
  E2E_SMALL_SIZE,
  renderMarkdown,
  sizeLabel,
  writeResults,
  type BenchResults,
  type ImportRow,
  type LatencyRow,
  type MatchRow,
  type SetupRow,
} from './lib/report.js';
import type { ImportChildReport } from './import-child.js';
import type { Contender, Instance, Reference } from './lib/types.js';

const CONTENDERS: BenchResults['contenders'] = [
  {
    name: 'engine-sqlite',
    description:
      'our LocationService over the in-memory index of the SQLite store (the serve default), in-process; every answer is checked against the same service over the SQLite store itself (R*Tree + FTS5)',
  },
  {
    name: 'engine-postgres',
    description: 'our LocationService over the in-memory index loaded from the PostgreSQL store (the serve default), same process',
  },
  {
    name: 'naive',
    description:
      'every Location in memory, each query a competent linear scan: bounding-box reject, then our exact predicates (Karney distance, hours evaluator, amenity keys, coverage) and our ranking; no index',
  },
  {
    name: 'floor',
    description:
      'kdbush + geokdbush around(): the spatial candidate set only (radius widened 1% for sphere vs ellipsoid), checked to be a superset whose exact filter equals our result',
  },
  {
    name: 'postgis',
    description:
      'hand-written SQL on PostgreSQL + PostGIS over the Unix socket: ST_DWithin on geography with GiST, amenity arrays filtered on the GiST candidates, opening hours by a SQL function over pre-expanded weekly/exception tables, keyset paging; JIT and parallel query off for these short queries',
  },
];

const started = performance.now();

function log(message: string): void {
  const s = Math.round((performance.now() - started) / 1000);
  process.stderr.write(`[${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}] ${message}\n`);
}

function machine(): string {
  const c = cpus();
  return `${c[0]?.model.trim() ?? 'unknown CPU'}, ${c.length} cores, ${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM, Node ${process.version}, ${process.platform}/${process.arch}`;
}

function gc(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

function fmt(ms: number): string {
  return ms >= 100 ? `${ms.toFixed(0)} ms` : ms >= 1 ? `${ms.toFixed(2)} ms` : `${(ms * 1000).toFixed(0)} µs`;
}

async function runImport(size: number, file: string, db: string): Promise<ImportRow> {
  log(`import ${sizeLabel(size)}: importFiles → SQLite in a child process`);
  const child = startChild('bench/import-child.ts', [file, db], ['--max-old-space-size=4096']);
  const report = (await child.next()) as unknown as ImportChildReport;
  await child.exited;
  log(
    `import ${sizeLabel(size)}: ${report.records} records in ${report.seconds.toFixed(1)} s (${report.cpuSeconds.toFixed(1)} CPU s) = ${Math.round(report.locationsPerSecond)} loc/s, peak RSS ${(report.maxRssKiB / 1024).toFixed(0)} MiB`,
  );
  return {
    size,
    records: report.records,
    seconds: report.seconds,
    locationsPerSecond: report.locationsPerSecond,
    maxRssMiB: report.maxRssKiB / 1024,
    cpuSeconds: report.cpuSeconds,
    phases: report.phases,
  };
}

/**
 * The index file `import` writes beside the store, written from the built index and loaded back
 * (what `serve` does at start instead of building). The e2e MCP server then starts from it.
 */
async function measureIndexFile(store: SqliteLocationStore, indexed: IndexedLocationStore, db: string, setup: SetupRow): Promise<void> {
  const home = new DiskIndexFileHome(indexFilePathFor(db));
  const written = performance.now();
  await publishIndex(indexed.index, store, home);
  setup.indexFileWriteSeconds = (performance.now() - written) / 1000;
  setup.indexFileBytes = statSync(home.path).size;
  const loading = performance.now();
  const loaded = await loadIndexFile(store, home);
  setup.indexFileLoadSeconds = (performance.now() - loading) / 1000;
  if ('reason' in loaded) throw new Error(`the index file just written was refused: ${loaded.reason}`);
  log(
    `engine-sqlite ${sizeLabel(setup.size)}: index file ${(setup.indexFileBytes / 2 ** 20).toFixed(0)} MiB written in ${setup.indexFileWriteSeconds.toFixed(1)} s, loaded in ${setup.indexFileLoadSeconds.toFixed(2)} s`,
  );
}

/**
 * `--cpu-prof`: import up to 100k records again in a profiled child (the timed import is never
 * profiled) and keep the main thread's profile.
 */
async function profileImport(o: BenchOptions, largest: number): Promise<NonNullable<BenchResults['profile']>['import']> {
  const records = Math.min(largest, 100_000);
  const dataset = await ensureDataset(o.cacheDir, o.seed, records);
  const dir = mkdtempSync(join(o.cacheDir, 'profiles', 'import-'));
  const db = join(dir, 'store.db');
  log(`cpu profile: import of ${sizeLabel(records)} records (separate run)`);
  const child = startChild(
    'bench/import-child.ts',
    [dataset.path, db],
    ['--max-old-space-size=4096', '--cpu-prof', `--cpu-prof-dir=${dir}`],
  );
  await child.next();
  await child.exited;
  const file = join(o.cacheDir, 'profiles', `import-${records}.cpuprofile`);
  if (!keepMainThreadProfile(dir, file)) return undefined;
  const cpu = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const result = { file, records, top: topSelfTime(cpu), inclusive: topInclusive(cpu) };
  for (const t of result.inclusive.slice(0, 8)) log(`  import incl ${t.selfPercent.toFixed(1)}%  ${t.fn}  ${t.where}`);
  return result;
}

/**
 * Stores of earlier datasets of this size (another seed or generator version) would only take
 * disk space: drop every `bench_engine_<size>_*` schema but the current one.
 */
async function dropStaleEngineSchemas(o: BenchOptions, size: number, keep: string): Promise<void> {
  const client = await connectPg({ host: o.pgHost, user: o.pgUser, database: o.pgDatabase });
  if (typeof client === 'string') return;
  try {
    const rows = await client.query<{ nspname: string }>('SELECT nspname FROM pg_namespace WHERE nspname LIKE $1', [
      `bench\\_engine\\_${size}\\_%`,
    ]);
    for (const { nspname } of rows.rows) {
      if (nspname === keep || !/^bench_engine_\d+_[0-9a-f]{8}$/.test(nspname)) continue;
      log(`engine-postgres: dropping stale schema ${nspname}`);
      await client.query(`DROP SCHEMA ${nspname} CASCADE`);
    }
  } finally {
    await client.end();
  }
}

/** The engine over PostgreSQL, when that adapter is present and a server answers. */
async function openEnginePostgres(
  o: BenchOptions,
  size: number,
  file: string,
  fingerprint: string,
  setup: SetupRow,
): Promise<EngineContender | string> {
  let mod: typeof PostgresStoreModule;
  try {
    mod = await import('../src/store/postgres/index.js');
  } catch (error) {
    return `the PostgreSQL store (src/store/postgres) is not available: ${(error as Error).message}`;
  }
  const schema = `bench_engine_${size}_${fingerprint.slice(0, 8)}`;
  const url = `postgres://${encodeURIComponent(o.pgUser)}@localhost/${encodeURIComponent(o.pgDatabase)}?host=${encodeURIComponent(o.pgHost)}`;
  await dropStaleEngineSchemas(o, size, schema);
  let store: LocationStore;
  try {
    store = await mod.PostgresLocationStore.open(url, {
      schema,
      migrate: true,
      statementTimeoutMs: 600_000,
      applicationName: 'ucp-location-bench',
    });
  } catch (error) {
    return `cannot open the PostgreSQL store: ${(error as Error).message}`;
  }
  const stats = await store.stats();
  if (stats.locations !== size) {
    log(`engine-postgres ${sizeLabel(size)}: importing into schema ${schema} (cached for later runs)`);
    const t0 = performance.now();
    await importFiles(store, [file]);
    setup.enginePostgresImportSeconds = (performance.now() - t0) / 1000;
    log(`engine-postgres ${sizeLabel(size)}: imported in ${setup.enginePostgresImportSeconds.toFixed(0)} s`);
  }
  // Settle the freshly written tables before timing (otherwise autovacuum runs during the queries).
  const admin = await connectPg({ host: o.pgHost, user: o.pgUser, database: o.pgDatabase });
  if (typeof admin !== 'string') {
    try {
      await vacuumSchema(admin, schema);
    } finally {
      await admin.end();
    }
  }
  const t1 = performance.now();
  const indexed = await IndexedLocationStore.open(store);
  log(`engine-postgres ${sizeLabel(size)}: in-memory index loaded from PostgreSQL in ${((performance.now() - t1) / 1000).toFixed(1)} s`);
  return new EngineContender('engine-postgres', indexed);
}

/** The commit this run measured, with `-dirty` when the work tree had uncommitted changes. */
function measuredCommit(): string {
  try {
    const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: REPO_ROOT, encoding: 'utf8' }).trim();
    const dirty =
      execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: REPO_ROOT, encoding: 'utf8' }).trim() !== '';
    return dirty ? `${head}-dirty` : head;
  } catch {
    return 'unknown (not a git checkout)';
  }
}

async function main(): Promise<void> {
  const parsed = parseOptions(process.argv.slice(2));
  if (parsed === 'help') {
    process.stdout.write(USAGE);
    return;
  }
  const o = parsed;
  mkdirSync(o.cacheDir, { recursive: true });
  log(
    `machine: ${machine()}; load average ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}; free ${(freemem() / 2 ** 30).toFixed(1)} GiB`,
  );
  log(`sizes ${o.sizes.map(sizeLabel).join(', ')}; ${o.duration} s per cell; ${o.instances} instances per query; cache ${o.cacheDir}`);

  const latency: LatencyRow[] = [];
  const matches: MatchRow[] = [];
  const imports: ImportRow[] = [];
  const setups: SetupRow[] = [];
  const notes: string[] = [];
  let e2e: BenchResults['e2e'] = null;
  // The small-dataset call cost (#31 mcp_vs_direct_100k): a second end-to-end run at 100k when the largest size is above it.
  let e2eSmall: BenchResults['e2eSmall'] = null;
  let profile: BenchResults['profile'] = null;
  const largest = Math.max(...o.sizes);

  for (const size of o.sizes) {
    log(`━━ ${sizeLabel(size)} locations ━━`);
    const dataset = await ensureDataset(o.cacheDir, o.seed, size, (done, total) =>
      log(`dataset ${sizeLabel(size)}: generated ${done}/${total}`),
    );
    const fingerprint = createHash('sha256').update(`v${GENERATOR_VERSION}|${o.seed}|${size}|${dataset.bytes}`).digest('hex');
    const setup: SetupRow = { size, datasetBytes: dataset.bytes, naiveLoadSeconds: 0 };
    setups.push(setup);
    log(
      `dataset ${sizeLabel(size)}: ${relative(REPO_ROOT, dataset.path).startsWith('..') ? dataset.path : relative(REPO_ROOT, dataset.path)} (${(dataset.bytes / 2 ** 20).toFixed(0)} MiB)`,
    );

    const db = join(o.cacheDir, `store-${size}.db`);
    imports.push(await runImport(size, dataset.path, db));

    const contenders: Contender[] = [];
    const sqlite = await SqliteLocationStore.open(db, { readonly: true });
    // The engine as `serve` runs it: the in-memory index in front of the store. The reference
    // answers come from the same service over the store itself (SQL), an independent path.
    const indexStarted = performance.now();
    const indexed = await IndexedLocationStore.open(sqlite, { closeSource: false });
    setup.indexBuildSeconds = (performance.now() - indexStarted) / 1000;
    log(`engine-sqlite ${sizeLabel(size)}: in-memory index built in ${setup.indexBuildSeconds.toFixed(1)} s`);
    await measureIndexFile(sqlite, indexed, db, setup);
    const engine = new EngineContender('engine-sqlite', indexed);
    const reference = new ReferenceEngine(sqlite);
    contenders.push(engine);

    if (o.pgEngine && size > o.pgEngineMax) {
      const why = `not run above --pg-engine-max ${sizeLabel(o.pgEngineMax)} (importing into PostgreSQL takes minutes at this size; run without --quick or raise --pg-engine-max)`;
      log(`engine-postgres skipped: ${why}`);
      notes.push(`engine-postgres @ ${sizeLabel(size)} ${why}`);
    } else if (o.pgEngine) {
      const pgEngine = await openEnginePostgres(o, size, dataset.path, fingerprint, setup).catch(
        (error: unknown) => `engine-postgres failed to load: ${(error as Error).message}`,
      );
      if (typeof pgEngine === 'string') {
        log(`engine-postgres skipped: ${pgEngine}`);
        notes.push(`engine-postgres @ ${sizeLabel(size)} skipped: ${pgEngine}`);
      } else contenders.push(pgEngine);
    }

    const t0 = performance.now();
    const naive = await NaiveScan.load(dataset.path, (n) => log(`naive ${sizeLabel(size)}: loaded ${n}`));
    setup.naiveLoadSeconds = (performance.now() - t0) / 1000;
    log(`naive ${sizeLabel(size)}: ${naive.size} rows in memory (${setup.naiveLoadSeconds.toFixed(1)} s)`);
    contenders.push(naive);
    contenders.push(new KdFloor(naive.points()));

    if (o.postgis) {
      const client = await connectPg({ host: o.pgHost, user: o.pgUser, database: o.pgDatabase });
      if (typeof client === 'string') {
        log(`postgis skipped: ${client}`);
        notes.push(`postgis @ ${sizeLabel(size)} skipped: ${client}`);
      } else {
        const schema = postgisSchema(size);
        log(`postgis ${sizeLabel(size)}: loading schema ${schema} (reused when unchanged)`);
        setup.postgisLoadSeconds = await loadPostgis(client, schema, dataset.path, fingerprint, (n) =>
          log(`postgis ${sizeLabel(size)}: loaded ${n}`),
        );
        log(
          `postgis ${sizeLabel(size)}: ready (${setup.postgisLoadSeconds === 0 ? 'cached' : `${setup.postgisLoadSeconds.toFixed(0)} s`})`,
        );
        contenders.push(await PostgisContender.open(client, schema));
      }
    }

    let headlineInstances: Instance[] = [];
    let headlineRefs: Map<number, Promise<Reference>> = new Map();
    for (const query of QUERIES) {
      const instances = makeInstances(query, o.seed, size, o.instances);
      const refs = new Map<number, Promise<Reference>>();
      const referenceOf = (i: number): Promise<Reference> => {
        let r = refs.get(i);
        if (r === undefined) {
          r = reference.answer(instances[i] as Instance);
          refs.set(i, r);
        }
        return r;
      };
      if (query.name === HEADLINE_QUERY) {
        headlineInstances = instances;
        headlineRefs = refs;
      }
      gc();
      const cells = await measureQuery(query, size, instances, contenders, {
        budgetMs: o.duration * 1000,
        minSamples: 5,
        maxSamples: 3000,
        reference: referenceOf,
        exact: (instance, ids) => {
          if (instance.op !== 'search') throw new Error('exact filter is for searches');
          return naive.exactAmong(instance.request, ids);
        },
        onProgress: log,
      });
      const answers = await Promise.all(refs.values());
      const lengths = answers.map((a) => (a.op === 'search' ? a.ids.length : a.entries.length)).sort((a, b) => a - b);
      if (lengths.length > 0) {
        matches.push({
          size,
          query: query.name,
          instances: lengths.length,
          median: lengths[Math.floor((lengths.length - 1) / 2)] as number,
          max: lengths[lengths.length - 1] as number,
        });
      }
      const parts: string[] = [];
      for (const c of cells) {
        const row: LatencyRow = { size, query: query.name, contender: c.contender, status: c.status };
        if (c.reason !== undefined) row.reason = c.reason;
        if (c.summary !== undefined) {
          Object.assign(row, { n: c.summary.n, p50: c.summary.p50, p99: c.summary.p99, mean: c.summary.mean });
          row.perInstance = perInstanceMedians(c);
        }
        latency.push(row);
        if (c.status === 'ok' && c.summary !== undefined) parts.push(`${c.contender} ${fmt(c.summary.p50)} (n=${c.summary.n})`);
        else if (c.status !== 'skipped') parts.push(`${c.contender} ${c.status.toUpperCase()}`);
      }
      log(`${sizeLabel(size)} ${query.name}: ${parts.join(' | ')}`);
    }

    if (size === largest && o.cpuProf) {
      const dir = join(o.cacheDir, 'profiles');
      mkdirSync(dir, { recursive: true });
      const file = join(dir, `engine-sqlite-${HEADLINE_QUERY}-${size}.cpuprofile`);
      log(`cpu profile: engine-sqlite on ${HEADLINE_QUERY} @ ${sizeLabel(size)} for ${Math.max(5, o.duration * 2)} s`);
      const p = await profileContender(engine, headlineInstances, Math.max(5, o.duration * 2), file);
      profile = { query: HEADLINE_QUERY, size, contender: 'engine-sqlite', file, top: p.top, inclusive: p.inclusive };
      const pg = contenders.find((c): c is PostgisContender => c instanceof PostgisContender);
      if (pg !== undefined && headlineInstances[0] !== undefined) profile.postgisPlan = await pg.explain(headlineInstances[0]);
      const imported = await profileImport(o, size);
      if (imported !== undefined) profile.import = imported;
      for (const t of p.top.slice(0, 8)) log(`  self ${t.selfPercent.toFixed(1)}%  ${t.fn}  ${t.where}`);
      for (const t of p.inclusive.slice(0, 8)) log(`  incl ${t.selfPercent.toFixed(1)}%  ${t.fn}  ${t.where}`);
    }

    if ((size === largest || size === E2E_SMALL_SIZE) && o.e2e) {
      const mix: { request: SearchRequest; firstPage: string[] }[] = [];
      for (const [i, inst] of headlineInstances.slice(0, 16).entries()) {
        if (inst.op !== 'search') continue;
        const ref = await (headlineRefs.get(i) ?? reference.answer(inst));
        if (ref.op === 'search') mix.push({ request: inst.request, firstPage: ref.ids.slice(0, 10) });
      }
      log(`e2e @ ${sizeLabel(size)}: MCP vs direct, ${o.connections} connections, ${o.e2eSeconds} s each`);
      let run: BenchResults['e2e'];
      try {
        const serverProfile = o.cpuProf && size === largest ? join(o.cacheDir, 'profiles', `mcp-server-${size}.cpuprofile`) : undefined;
        if (serverProfile !== undefined) mkdirSync(join(o.cacheDir, 'profiles'), { recursive: true });
        const done = await runEndToEnd({
          size,
          dbPath: db,
          mix,
          connections: o.connections,
          seconds: o.e2eSeconds,
          log,
          ...(serverProfile === undefined ? {} : { cpuProfileFile: serverProfile }),
        });
        if (serverProfile !== undefined && profile !== null && existsSync(serverProfile)) {
          const serverCpu = JSON.parse(readFileSync(serverProfile, 'utf8')) as CpuProfile;
          profile.server = { file: serverProfile, top: topSelfTime(serverCpu), inclusive: topInclusive(serverCpu) };
          for (const t of profile.server.inclusive.slice(0, 10)) log(`  server incl ${t.selfPercent.toFixed(1)}%  ${t.fn}  ${t.where}`);
        }
        run = done;
        log(
          `e2e: MCP ${done.mcp.requestsPerSecond.toFixed(0)} req/s, direct ${done.direct.requestsPerSecond.toFixed(0)} req/s${done.failure === null ? '' : ` — NOT COUNTED: ${done.failure}`}`,
        );
      } catch (error) {
        run = { skipped: `end-to-end failed: ${(error as Error).message}` };
        log(`e2e failed: ${(error as Error).message}`);
      }
      if (size === largest) e2e = run;
      else e2eSmall = run;
    }

    for (const c of contenders) await c.close();
    gc();
  }
  if (e2e === null && !o.e2e) e2e = { skipped: '--no-e2e' };

  const results: BenchResults = {
    machine: machine(),
    generatedAt: new Date().toISOString(),
    commit: measuredCommit(),
    mode: o.mode,
    command: `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`,
    seed: o.seed,
    sizes: o.sizes,
    settings: { budgetSecondsPerCell: o.duration, instancesPerQuery: o.instances, e2eSeconds: o.e2eSeconds, connections: o.connections },
    ratios: computeRatios(latency, imports, e2e, o.sizes, setups, e2eSmall),
    queries: QUERIES.map((q) => ({ name: q.name, label: q.label })),
    contenders: CONTENDERS,
    latency,
    matches,
    imports,
    setup: setups,
    e2e,
    e2eSmall,
    profile,
    notes,
  };
  const paths = writeResults(resolve(REPO_ROOT, o.outDir), results);
  process.stderr.write(`\n${renderMarkdown(results).split('\n## Latency')[0]}\n`);
  log(
    `wrote ${Object.values(paths)
      .map((p) => relative(REPO_ROOT, p))
      .join(', ')}`,
  );
  // Stores kept in the cache dir are reused as import targets next time; remove WAL leftovers only.
  for (const size of o.sizes) for (const suffix of ['-wal', '-shm']) rmSync(join(o.cacheDir, `store-${size}.db${suffix}`), { force: true });
}

main()
  .catch((error: unknown) => {
    process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  })
  .finally(() => stopAllChildren());
