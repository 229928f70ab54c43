/**
 * The results of one run and how they are written: `latest.json` (everything, machine-readable),
 * `latest.md` (tables for people) and `latency-vs-size.svg` (the chart).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CellStatus } from './measure.js';
import { GROWTH_QUERY, HEADLINE_QUERY } from './queries.js';
import { latencyChart, sizeLabel, type Panel } from './svg.js';

export interface LatencyRow {
  size: number;
  query: string;
  contender: string;
  status: CellStatus;
  reason?: string;
  n?: number;
  p50?: number;
  p99?: number;
  mean?: number;
  /**
   * Median time (ms) per query instance index, over this contender's samples of it: ratios pair
   * two contenders on the instances both measured (a fast contender cycles through every instance,
   * a slow one may reach only the first few).
   */
  perInstance?: Record<string, number>;
}

/** How big the answers were: the reference result length over the instances that were run. */
export interface MatchRow {
  size: number;
  query: string;
  /** Instances whose reference answer was computed. */
  instances: number;
  /** Median / largest number of matching Locations (search: whole result; browse ≤ 100; lookup: Locations returned). */
  median: number;
  max: number;
}

export interface ImportRow {
  size: number;
  records: number;
  seconds: number;
  locationsPerSecond: number;
  maxRssMiB: number;
  /** CPU seconds the import process used (seconds ≫ cpuSeconds means it waited for a busy machine). */
  cpuSeconds: number;
  phases: Record<string, number>;
}

export interface E2eTarget {
  requestsPerSecond: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  requests: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  maxRssMiB?: number;
  /** From spawning the server process to its first listening line, s (MCP target: `serve` as a user starts it). */
  readySeconds?: number;
  /** Server process CPU time per answered request, ms (Linux /proc; absent elsewhere). */
  cpuMsPerRequest?: number;
}

export interface E2eResult {
  size: number;
  connections: number;
  secondsPerTarget: number;
  mcp: E2eTarget;
  /** A bare node:http server calling the same search in-process (bench/e2e-server.ts `direct`). */
  direct: E2eTarget;
  /** Null when the run is valid; otherwise why the comparison does not count. */
  failure: string | null;
}

export interface SetupRow {
  size: number;
  datasetBytes: number;
  naiveLoadSeconds: number;
  postgisLoadSeconds?: number;
  enginePostgresImportSeconds?: number;
  /** Building the in-memory index of the SQLite store. */
  indexBuildSeconds?: number;
  /** Writing that index as the store's index file (what `import` does after the records). */
  indexFileWriteSeconds?: number;
  /** Loading the index file back into a ready index (what `serve` does at start instead of building). */
  indexFileLoadSeconds?: number;
  indexFileBytes?: number;
}

export interface ProfileSummary {
  query: string;
  size: number;
  contender: string;
  file: string;
  /** Top functions by self time (share of busy samples). */
  top: { fn: string; where: string; selfPercent: number }[];
  /** Our code and libraries by inclusive time (share of busy samples). */
  inclusive: { fn: string; where: string; selfPercent: number }[];
  postgisPlan?: string;
  /** A separate, profiled import (node --cpu-prof in the import child), not the timed one. */
  import?: {
    file: string;
    records: number;
    top: { fn: string; where: string; selfPercent: number }[];
    inclusive: { fn: string; where: string; selfPercent: number }[];
  };
  /** The MCP server under end-to-end load (node --cpu-prof in the server child). */
  server?: {
    file: string;
    top: { fn: string; where: string; selfPercent: number }[];
    inclusive: { fn: string; where: string; selfPercent: number }[];
  };
}

export interface Ratio {
  value: number | null;
  target: string;
  met: boolean | null;
  /** How it was computed, from which cells. */
  basis: string;
}

export interface BenchResults {
  machine: string;
  generatedAt: string;
  /** `git rev-parse HEAD` of the measured code (`-dirty` with uncommitted changes). */
  commit?: string;
  mode: 'quick' | 'full' | 'custom';
  command: string;
  seed: string;
  sizes: number[];
  settings: { budgetSecondsPerCell: number; instancesPerQuery: number; e2eSeconds: number; connections: number };
  ratios: Record<string, Ratio>;
  queries: { name: string; label: string }[];
  contenders: { name: string; description: string }[];
  latency: LatencyRow[];
  matches: MatchRow[];
  imports: ImportRow[];
  setup: SetupRow[];
  e2e: E2eResult | { skipped: string } | null;
  /**
   * The same end-to-end run at E2E_SMALL_SIZE when the largest size is above it (null otherwise;
   * absent in results written before #31): what one call costs where a search is cheap.
   */
  e2eSmall?: E2eResult | { skipped: string } | null;
  profile: ProfileSummary | null;
  notes: string[];
}

function find(rows: readonly LatencyRow[], size: number, query: string, contender: string): LatencyRow | undefined {
  return rows.find((r) => r.size === size && r.query === query && r.contender === contender);
}

function median(values: number[]): number {
  const v = [...values].sort((a, b) => a - b);
  const mid = (v.length - 1) / 2;
  return ((v[Math.floor(mid)] as number) + (v[Math.ceil(mid)] as number)) / 2;
}

/**
 * `a ÷ b` over the same query instances: the median over the instances both contenders measured
 * of each one's per-instance median. Null when either cell failed or they share no instance.
 */
export function pairedRatio(a: LatencyRow | undefined, b: LatencyRow | undefined): { value: number; instances: number } | null {
  if (a?.status !== 'ok' || b?.status !== 'ok' || a.perInstance === undefined || b.perInstance === undefined) return null;
  const common = Object.keys(a.perInstance).filter((i) => b.perInstance?.[i] !== undefined);
  if (common.length === 0) return null;
  const x = median(common.map((i) => a.perInstance?.[i] as number));
  const y = median(common.map((i) => b.perInstance?.[i] as number));
  return y === 0 ? null : { value: x / y, instances: common.length };
}

/** A ratio with a target; `informative` ones are reported, never "met". */
function ratio(value: number | null, target: string, test: ((v: number) => boolean) | null, basis: string): Ratio {
  return { value, target: test === null ? 'informative' : target, met: value === null || test === null ? null : test(value), basis };
}

function paired(
  latency: readonly LatencyRow[],
  a: [size: number, query: string, contender: string],
  b: [size: number, query: string, contender: string],
  target: string,
  test: ((v: number) => boolean) | null,
  what: string,
): Ratio {
  const r = pairedRatio(find(latency, ...a), find(latency, ...b));
  const basis = `${what}; median over the ${r === null ? '' : `${r.instances} `}query instances both measured of per-instance p50s`;
  return ratio(r === null ? null : r.value, target, test, basis);
}

export { sizeLabel };

/** The dataset size of the small-dataset end-to-end key (`mcp_vs_direct_100k`): most businesses have fewer Locations. */
export const E2E_SMALL_SIZE = 100_000;

/** The ratios of the issue (`ratios.<key>.value`), each from cells measured side by side in this run. */
export function computeRatios(
  latency: readonly LatencyRow[],
  imports: readonly ImportRow[],
  e2e: BenchResults['e2e'],
  sizes: readonly number[],
  setups: readonly SetupRow[] = [],
  e2eSmall: BenchResults['e2eSmall'] = null,
): Record<string, Ratio> {
  const largest = Math.max(...sizes);
  const smallest = Math.min(...sizes);
  const at = sizeLabel(largest);
  const growthSizes: [number, number] | null = sizes.includes(10_000) && sizes.includes(1_000_000) ? [1_000_000, 10_000] : null;
  const growth = (query: string, target: string, test: (v: number) => boolean, key: string): Ratio => {
    const [big, small] = growthSizes ?? [largest, smallest];
    const r = paired(
      latency,
      [big, query, 'engine-sqlite'],
      [small, query, 'engine-sqlite'],
      target,
      test,
      `engine-sqlite ${query} @ ${sizeLabel(big)} / @ ${sizeLabel(small)} (centres do not depend on the size: instance i is the same request at both sizes)`,
    );
    if (growthSizes === null) {
      r.target = 'informative';
      r.met = null;
      r.basis += ` — ${key} needs 10k and 1M in --sizes`;
    }
    return r;
  };
  const out: Record<string, Ratio> = {
    engine_vs_floor: paired(
      latency,
      [largest, HEADLINE_QUERY, 'engine-sqlite'],
      [largest, HEADLINE_QUERY, 'floor'],
      '<= 2',
      (v) => v <= 2,
      `engine-sqlite / floor, ${HEADLINE_QUERY} @ ${at}`,
    ),
    engine_vs_postgis: paired(
      latency,
      [largest, HEADLINE_QUERY, 'postgis'],
      [largest, HEADLINE_QUERY, 'engine-sqlite'],
      '>= 10',
      (v) => v >= 10,
      `postgis / engine-sqlite, ${HEADLINE_QUERY} @ ${at}`,
    ),
    growth_10k_1m: growth(GROWTH_QUERY, '<= 2', (v) => v <= 2, 'growth_10k_1m'),
    text_growth_10k_1m: growth('text', '<= 3', (v) => v <= 3, 'text_growth_10k_1m'),
    engine_postgres_vs_sqlite: paired(
      latency,
      [largest, HEADLINE_QUERY, 'engine-postgres'],
      [largest, HEADLINE_QUERY, 'engine-sqlite'],
      '<= 1.5',
      (v) => v <= 1.5,
      `engine-postgres / engine-sqlite, ${HEADLINE_QUERY} @ ${at}`,
    ),
    engine_vs_naive: paired(
      latency,
      [largest, HEADLINE_QUERY, 'naive'],
      [largest, HEADLINE_QUERY, 'engine-sqlite'],
      'informative',
      null,
      `naive (bounding-box reject, then exact geodesic) / engine-sqlite, ${HEADLINE_QUERY} @ ${at}`,
    ),
  };
  const imp = imports.find((r) => r.size === largest);
  out['import_rate'] = ratio(
    imp === undefined ? null : imp.locationsPerSecond,
    '>= 50000 loc/s',
    largest >= 1_000_000 ? (v) => v >= 50_000 : null,
    `locations/s through importFiles into SQLite @ ${at}${largest >= 1_000_000 ? '' : ' (the target is for 1M)'}, peak RSS ${imp === undefined ? '?' : `${imp.maxRssMiB.toFixed(0)} MiB`}`,
  );
  const e2eOk = e2e !== null && 'mcp' in e2e && e2e.failure === null ? e2e : null;
  out['mcp_vs_direct'] = ratio(
    e2eOk === null ? null : e2eOk.mcp.requestsPerSecond / e2eOk.direct.requestsPerSecond,
    '>= 0.7',
    (v) => v >= 0.7,
    e2e !== null && 'mcp' in e2e
      ? `MCP tools/call search_locations req/s / req/s of a bare node:http server calling the same search in-process (UCP payload sent once), ${e2e.connections} connections @ ${sizeLabel(e2e.size)}, pre-approved profile; a plain tools/call bypasses the SDK's per-request Server, transport and zod parses (other MCP methods still go through the SDK)${e2e.failure === null ? '' : ` — not counted: ${e2e.failure}`}`
      : 'end-to-end not run',
  );
  out['mcp_vs_direct_100k'] = smallCallRatio(e2e, e2eSmall);
  out['mcp_vs_direct_cpu'] = ratio(
    e2eOk !== null && e2eOk.mcp.cpuMsPerRequest !== undefined && e2eOk.direct.cpuMsPerRequest !== undefined && e2eOk.mcp.cpuMsPerRequest > 0
      ? e2eOk.direct.cpuMsPerRequest / e2eOk.mcp.cpuMsPerRequest
      : null,
    'informative',
    null,
    'direct server CPU per request / MCP server CPU per request (the throughput ratio a machine with a free core per server would show)',
  );
  Object.assign(out, serveRatios(e2e, setups, largest));
  return out;
}

/**
 * `mcp_vs_direct_100k`: MCP req/s over direct req/s on the 100k store, from whichever end-to-end
 * run was at that size (the largest size's, or the extra one when the largest is above 100k).
 */
function smallCallRatio(e2e: BenchResults['e2e'], e2eSmall: BenchResults['e2eSmall']): Ratio {
  const runs = [e2e, e2eSmall ?? null].filter((r): r is E2eResult => r !== null && 'mcp' in r && r.size === E2E_SMALL_SIZE);
  const run = runs[0];
  const at = sizeLabel(E2E_SMALL_SIZE);
  if (run === undefined) {
    const skipped = [e2e, e2eSmall ?? null].find((r): r is { skipped: string } => r !== null && 'skipped' in r);
    return ratio(
      null,
      '>= 0.6',
      (v) => v >= 0.6,
      `end-to-end not run @ ${at}${skipped === undefined ? ` (needs ${at} in --sizes)` : `: ${skipped.skipped}`}`,
    );
  }
  const cpu =
    run.mcp.cpuMsPerRequest !== undefined && run.direct.cpuMsPerRequest !== undefined
      ? `; server CPU per request MCP ${run.mcp.cpuMsPerRequest.toFixed(3)} ms, direct ${run.direct.cpuMsPerRequest.toFixed(3)} ms`
      : '';
  return ratio(
    run.failure === null ? run.mcp.requestsPerSecond / run.direct.requestsPerSecond : null,
    '>= 0.6',
    (v) => v >= 0.6,
    `MCP tools/call search_locations req/s / req/s of the bare node:http server calling the same search in-process, ${run.connections} connections @ ${at}, ${HEADLINE_QUERY} mix, ABBA order${cpu}${run.failure === null ? '' : ` — not counted: ${run.failure}`}`,
  );
}

/** The index-file keys of #30: how soon and how small `serve` is at 1M when it loads the index file. */
function serveRatios(e2e: BenchResults['e2e'], setups: readonly SetupRow[], largest: number): Record<string, Ratio> {
  const run = e2e !== null && 'mcp' in e2e ? e2e : null;
  const at1m = run !== null && run.size >= 1_000_000;
  const where = run === null ? 'end-to-end not run' : `@ ${sizeLabel(run.size)}${at1m ? '' : ' (the target is for 1M)'}`;
  const setup = setups.find((r) => r.size === largest);
  return {
    serve_ready_1m_s: ratio(
      run?.mcp.readySeconds ?? null,
      '<= 15',
      at1m ? (v) => v <= 15 : null,
      `seconds from spawning the MCP server process (startServer over the SQLite store, index: memory) to its listening line, with the store's index file present ${where}`,
    ),
    serve_rss_1m_mib: ratio(
      run?.mcp.maxRssMiB ?? null,
      '<= 1536',
      at1m ? (v) => v <= 1536 : null,
      `peak RSS (getrusage maxrss, file-backed pages included) of the MCP server process through start and the e2e load, MiB ${where}`,
    ),
    index_file_load_1m_s: ratio(
      setup?.indexFileLoadSeconds ?? null,
      'informative',
      null,
      setup?.indexFileLoadSeconds === undefined
        ? 'index file not measured'
        : `seconds to load the SQLite store's index file (${((setup.indexFileBytes ?? 0) / 2 ** 20).toFixed(0)} MiB) into a ready index @ ${sizeLabel(largest)}, vs ${setup.indexBuildSeconds?.toFixed(1) ?? '?'} s to build it from the store`,
    ),
  };
}

function fmtMs(v: number | undefined): string {
  if (v === undefined || !Number.isFinite(v)) return '–';
  if (v >= 100) return v.toFixed(0);
  if (v >= 10) return v.toFixed(1);
  if (v >= 1) return v.toFixed(2);
  return v.toFixed(3);
}

function fmtRatio(v: number | null): string {
  if (v === null) return 'n/a';
  return v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2);
}

/** One end-to-end run as a table (or why there is none). */
function e2eSection(lines: string[], run: BenchResults['e2e']): void {
  if (run === null) {
    lines.push('Not run.');
    return;
  }
  if ('skipped' in run) {
    lines.push(`Skipped: ${run.skipped}`);
    return;
  }
  const e = run;
  lines.push(
    `${e.connections} connections, ${e.secondsPerTarget} s per target (ABBA order), store of ${sizeLabel(e.size)} locations, query mix: ${HEADLINE_QUERY}.`,
    '',
  );
  lines.push(
    '| target | req/s | p50 ms | p99 ms | requests | non-2xx | errors | server CPU ms/request | server peak RSS (MiB) |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  );
  for (const [name, t] of [
    ['MCP tools/call search_locations', e.mcp],
    ['direct', e.direct],
  ] as const) {
    lines.push(
      `| ${name} | ${t.requestsPerSecond.toFixed(0)} | ${t.latencyP50Ms.toFixed(1)} | ${t.latencyP99Ms.toFixed(1)} | ${t.requests} | ${t.non2xx} | ${t.errors + t.timeouts} | ${t.cpuMsPerRequest?.toFixed(3) ?? '–'} | ${t.maxRssMiB?.toFixed(0) ?? '–'} |`,
    );
  }
  if (e.failure !== null) lines.push('', `**Not counted:** ${e.failure}`);
}

export function renderMarkdown(r: BenchResults): string {
  const lines: string[] = [];
  const contenders = r.contenders.map((c) => c.name);
  lines.push('# Benchmark results', '');
  lines.push(`- Machine: ${r.machine}`);
  lines.push(`- Run: ${r.generatedAt}, mode \`${r.mode}\`, \`${r.command}\`, seed \`${r.seed}\`, commit \`${r.commit ?? 'not recorded'}\``);
  lines.push(
    `- Per cell: up to ${r.settings.budgetSecondsPerCell} s of calls per contender, ${r.settings.instancesPerQuery} instances per query kind, contenders interleaved round-robin on the same instances`,
  );
  lines.push('- Every timed answer was checked against the engine’s reference answer; a mismatch fails the contender for that cell.', '');
  lines.push('## Headline ratios', '', '| ratio | value | target | met | basis |', '|---|---:|---|---|---|');
  for (const [name, x] of Object.entries(r.ratios)) {
    const value = name === 'import_rate' && x.value !== null ? `${Math.round(x.value)} loc/s` : fmtRatio(x.value);
    lines.push(`| ${name} | ${value} | ${x.target} | ${x.met === null ? 'n/a' : x.met ? 'yes' : '**no**'} | ${x.basis} |`);
  }
  lines.push('');
  for (const size of r.sizes) {
    lines.push(`## Latency @ ${sizeLabel(size)} locations (ms: p50 / p99, n samples)`, '');
    lines.push(`| query | matches (median / max) | ${contenders.join(' | ')} |`, `|---|---:|${contenders.map(() => '---:').join('|')}|`);
    for (const q of r.queries) {
      const m = r.matches.find((x) => x.size === size && x.query === q.name);
      const cells = contenders.map((c) => {
        const row = find(r.latency, size, q.name, c);
        if (row === undefined) return '–';
        if (row.status === 'ok') return `${fmtMs(row.p50)} / ${fmtMs(row.p99)} (${row.n})`;
        return row.status === 'skipped' ? 'n/a' : `**${row.status}**`;
      });
      lines.push(`| ${q.name} | ${m === undefined ? '–' : `${m.median} / ${m.max}`} | ${cells.join(' | ')} |`);
    }
    lines.push('');
  }
  lines.push(
    '## Import (our pipeline: validate, then stream into SQLite; child process)',
    '',
    '| size | records | seconds | locations/s | CPU seconds | peak RSS (MiB) |',
    '|---:|---:|---:|---:|---:|---:|',
  );
  for (const i of r.imports)
    lines.push(
      `| ${sizeLabel(i.size)} | ${i.records} | ${i.seconds.toFixed(1)} | ${Math.round(i.locationsPerSecond)} | ${i.cpuSeconds.toFixed(1)} | ${i.maxRssMiB.toFixed(0)} |`,
    );
  lines.push('');
  lines.push('## End to end (MCP over HTTP vs a bare node:http server calling the same search, autocannon)', '');
  e2eSection(lines, r.e2e);
  if (r.e2eSmall !== undefined && r.e2eSmall !== null) {
    lines.push('', `At ${sizeLabel(E2E_SMALL_SIZE)} (\`mcp_vs_direct_100k\`):`, '');
    e2eSection(lines, r.e2eSmall);
  }
  lines.push('');
  const problems = r.latency.filter((row) => row.status !== 'ok');
  if (problems.length > 0) {
    lines.push('## Contenders not timed', '', '| size | query | contender | status | reason |', '|---:|---|---|---|---|');
    const seen = new Set<string>();
    for (const p of problems) {
      // Skips repeat per size and query; list each distinct reason once per contender.
      const key = p.status === 'skipped' ? `${p.contender}|${p.reason}` : `${p.size}|${p.query}|${p.contender}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const where =
        p.status === 'skipped'
          ? [
              'all',
              r.latency
                .filter((x) => x.contender === p.contender && x.reason === p.reason)
                .map((x) => x.query)
                .filter((q, i, l) => l.indexOf(q) === i)
                .join(', '),
            ]
          : [sizeLabel(p.size), p.query];
      lines.push(`| ${where[0]} | ${where[1]} | ${p.contender} | ${p.status} | ${(p.reason ?? '').replace(/\|/g, '\\|').slice(0, 400)} |`);
    }
    lines.push('');
  }
  if (r.setup.length > 0) {
    lines.push(
      '## Setup (not timed as queries)',
      '',
      '| size | dataset MiB | naive load s | PostGIS load s | engine-postgres import s |',
      '|---:|---:|---:|---:|---:|',
    );
    for (const s of r.setup) {
      lines.push(
        `| ${sizeLabel(s.size)} | ${(s.datasetBytes / 2 ** 20).toFixed(0)} | ${s.naiveLoadSeconds.toFixed(1)} | ${s.postgisLoadSeconds === undefined ? '–' : s.postgisLoadSeconds === 0 ? 'cached' : s.postgisLoadSeconds.toFixed(0)} | ${s.enginePostgresImportSeconds?.toFixed(0) ?? '–'} |`,
      );
    }
    lines.push('');
  }
  if (r.profile !== null) {
    const p = r.profile;
    const table = (title: string, rows: readonly { fn: string; where: string; selfPercent: number }[], head: string): void => {
      lines.push('', title, '', `| ${head} | function | where |`, '|---:|---|---|');
      for (const t of rows) lines.push(`| ${t.selfPercent.toFixed(1)} | \`${t.fn}\` | ${t.where} |`);
    };
    lines.push(
      `## Where the time goes (${p.contender}, ${p.query} @ ${sizeLabel(p.size)}, --cpu-prof)`,
      '',
      `Profile: \`${p.file}\` (open in Chrome DevTools → Performance). Shares are of busy samples.`,
    );
    table('Engine, self time:', p.top, 'self %');
    table('Engine, inclusive time of our code and libraries:', p.inclusive, 'incl. %');
    if (p.import !== undefined) {
      table(`Import of ${p.import.records} records (a separate profiled run, \`${p.import.file}\`), self time:`, p.import.top, 'self %');
      table('Import, inclusive time of our code and libraries:', p.import.inclusive, 'incl. %');
    }
    if (p.server !== undefined) {
      table(`MCP server under end-to-end load (\`${p.server.file}\`), self time:`, p.server.top, 'self %');
      table('MCP server, inclusive time of our code and libraries:', p.server.inclusive, 'incl. %');
    }
    if (p.postgisPlan !== undefined) lines.push('', 'PostGIS plan for one instance (EXPLAIN ANALYZE):', '', '```', p.postgisPlan, '```');
    lines.push('');
  }
  if (r.notes.length > 0) lines.push('## Notes', '', ...r.notes.map((n) => `- ${n}`), '');
  lines.push('## Contenders', '', ...r.contenders.map((c) => `- **${c.name}**: ${c.description}`), '');
  lines.push('## Query kinds', '', ...r.queries.map((q) => `- **${q.name}**: ${q.label}`), '');
  return `${lines.join('\n')}\n`;
}

const CHART_QUERIES = [HEADLINE_QUERY, 'radius-10km', 'serves-point', 'lookup-10'];

export function renderChart(r: BenchResults): string {
  const panels: Panel[] = CHART_QUERIES.map((q) => ({
    title: r.queries.find((x) => x.name === q)?.label ?? q,
    series: r.contenders
      .map((c) => ({
        contender: c.name,
        points: r.sizes
          .map((size) => ({ size, row: find(r.latency, size, q, c.name) }))
          .filter((x): x is { size: number; row: LatencyRow & { p50: number } } => x.row?.status === 'ok' && x.row.p50 !== undefined)
          .map((x) => ({ size: x.size, ms: x.row.p50 })),
      }))
      .filter((s) => s.points.length > 0),
  }));
  return latencyChart('p50 latency vs dataset size (log–log; lower is better)', panels, r.sizes);
}

/**
 * Keys another benchmark writes into the same file (`npm run bench:tenants` owns `tenants`): a
 * search run measures none of them, so it keeps them as they were rather than erasing a committed run.
 */
function keptFromOtherRuns(path: string): Record<string, unknown> {
  // No file yet, or one that does not parse: nothing to keep.
  try {
    const previous: unknown = JSON.parse(readFileSync(path, 'utf8'));
    if (typeof previous !== 'object' || previous === null || !('tenants' in previous)) return {};
    return { tenants: previous.tenants };
  } catch {
    return {};
  }
}

export function writeResults(dir: string, r: BenchResults): { json: string; md: string; svg: string } {
  mkdirSync(dir, { recursive: true });
  const paths = { json: join(dir, 'latest.json'), md: join(dir, 'latest.md'), svg: join(dir, 'latency-vs-size.svg') };
  writeFileSync(paths.json, `${JSON.stringify({ ...r, ...keptFromOtherRuns(paths.json) }, null, 2)}\n`);
  writeFileSync(paths.md, renderMarkdown(r));
  writeFileSync(paths.svg, renderChart(r));
  return paths;
}
