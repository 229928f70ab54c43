/** Command-line options of `npm run bench`. */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

export interface BenchOptions {
  mode: 'quick' | 'full' | 'custom';
  sizes: number[];
  /** Time budget per contender per (query, size) cell, seconds. */
  duration: number;
  instances: number;
  e2eSeconds: number;
  connections: number;
  cpuProf: boolean;
  seed: string;
  cacheDir: string;
  outDir: string;
  postgis: boolean;
  pgEngine: boolean;
  /** Largest size the engine-over-PostgreSQL contender runs at (its import takes minutes at 100k+). */
  pgEngineMax: number;
  e2e: boolean;
  pgHost: string;
  pgDatabase: string;
  pgUser: string;
}

export const USAGE = `npm run bench -- [options]

  --quick             10k and 100k only, short budgets (a few minutes)
  --sizes <list>      dataset sizes, e.g. 10k,100k,1m (default 10k,100k,1m)
  --duration <s>      time budget per contender per query kind and size (default 4; quick 1)
  --instances <n>     query instances per kind (default 48; quick 24)
  --e2e-seconds <s>   load time per end-to-end target (default 20; quick 6)
  --connections <n>   end-to-end concurrency (default 64)
  --cpu-prof          profile the engine on the headline query at the largest size (separate pass)
  --seed <text>       dataset and query seed (default ucp-bench-1)
  --cache-dir <dir>   generated datasets and stores (default $UCP_BENCH_CACHE or <tmp>/ucp-location-bench)
  --out <dir>         where latest.json/.md/.svg go (default bench/results)
  --no-postgis        skip the PostGIS contender
  --no-pg-engine      skip the engine over the PostgreSQL store
  --pg-engine-max <n> largest size for the engine over PostgreSQL (default: all sizes; quick 10k),
                      since importing into PostgreSQL takes minutes at 100k and more (cached afterwards)
  --no-e2e            skip the end-to-end HTTP benchmark
  --pg-host <path>    PostgreSQL host or socket directory (default /var/run/postgresql)
  --pg-database <db>  (default test)      --pg-user <user>  (default postgres)
`;

/** "10k" → 10 000, "1m" → 1 000 000, "2500" → 2 500. */
export function parseSize(text: string): number {
  const m = /^(\d+(?:\.\d+)?)([kKmM]?)$/.exec(text.trim());
  if (m === null) throw new Error(`--sizes: ${JSON.stringify(text)} is not a size; use e.g. 10k, 100k, 1m or a plain number`);
  const unit = (m[2] ?? '').toLowerCase();
  const n = Math.round(Number(m[1]) * (unit === 'k' ? 1e3 : unit === 'm' ? 1e6 : 1));
  if (!(n >= 100)) throw new Error(`--sizes: ${text} is too small; the smallest dataset is 100 locations`);
  return n;
}

function positive(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!(n > 0) || !Number.isFinite(n)) throw new Error(`--${name} must be a positive number, got ${JSON.stringify(value)}`);
  return n;
}

export function parseOptions(argv: readonly string[]): BenchOptions | 'help' {
  const { values } = parseArgs({
    args: [...argv],
    strict: true,
    options: {
      help: { type: 'boolean', short: 'h' },
      quick: { type: 'boolean' },
      sizes: { type: 'string' },
      duration: { type: 'string' },
      instances: { type: 'string' },
      'e2e-seconds': { type: 'string' },
      connections: { type: 'string' },
      'cpu-prof': { type: 'boolean' },
      seed: { type: 'string' },
      'cache-dir': { type: 'string' },
      out: { type: 'string' },
      'no-postgis': { type: 'boolean' },
      'no-pg-engine': { type: 'boolean' },
      'pg-engine-max': { type: 'string' },
      'no-e2e': { type: 'boolean' },
      'pg-host': { type: 'string' },
      'pg-database': { type: 'string' },
      'pg-user': { type: 'string' },
    },
  });
  if (values.help === true) return 'help';
  const quick = values.quick === true;
  const sizes =
    values.sizes === undefined ? (quick ? [10_000, 100_000] : [10_000, 100_000, 1_000_000]) : values.sizes.split(',').map(parseSize);
  const unique = [...new Set(sizes)].sort((a, b) => a - b);
  return {
    mode: quick ? 'quick' : values.sizes === undefined && values.duration === undefined ? 'full' : 'custom',
    sizes: unique,
    duration: positive('duration', values.duration, quick ? 1 : 4),
    instances: Math.round(positive('instances', values.instances, quick ? 24 : 48)),
    e2eSeconds: positive('e2e-seconds', values['e2e-seconds'], quick ? 6 : 20),
    connections: Math.round(positive('connections', values.connections, 64)),
    cpuProf: values['cpu-prof'] === true,
    seed: values.seed ?? 'ucp-bench-1',
    cacheDir: values['cache-dir'] ?? process.env['UCP_BENCH_CACHE'] ?? join(tmpdir(), 'ucp-location-bench'),
    outDir: values.out ?? 'bench/results',
    postgis: values['no-postgis'] !== true,
    pgEngine: values['no-pg-engine'] !== true,
    pgEngineMax: values['pg-engine-max'] === undefined ? (quick ? 10_000 : Number.POSITIVE_INFINITY) : parseSize(values['pg-engine-max']),
    e2e: values['no-e2e'] !== true,
    pgHost: values['pg-host'] ?? '/var/run/postgresql',
    pgDatabase: values['pg-database'] ?? 'test',
    pgUser: values['pg-user'] ?? 'postgres',
  };
}
