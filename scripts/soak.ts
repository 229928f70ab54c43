/**
 * Soak test of the business server: `npm run soak -- [--duration 300] [--connections 100] [--json]`.
 *
 * Starts `ucp-location serve` on the demo data as a child process (loopback, a free port, rate
 * limits off, the demo Platform profile pre-approved so nothing is fetched) and keeps `connections`
 * keep-alive connections busy for `duration` seconds with a rotation of valid calls over both
 * bindings: MCP `tools/call` and REST, searches by free text, distance, opening hours and
 * amenities, and lookups. Every 10 s it prints the interval's requests/s, latency p50/p99, errors
 * and the server's resident memory (RSS); at the end a summary (`--json`: one JSON object on stdout
 * for programs, progress lines on stderr).
 *
 * Verdict: any network error, timeout or non-2xx answer is a failure; so is RSS growth of more than
 * `--max-rss-growth` percent (default 10) after the warm-up (the first 20% of the run, when the
 * JIT, caches and pools settle): the median of once-a-second readings over the last 20% of the
 * run against the median over the 20% right after the warm-up. Exit 0 = passed, 1 = failed, 2 = usage.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { freePort } from '../bench/lib/free-port.js';

import { DEMO_PLATFORM_PROFILE_URL } from '../src/server.js';
import { percentile, soakVerdict } from './soak-verdict.js';
import type { SoakSummary } from './soak-verdict.js';

const REPO = fileURLToPath(new URL('../', import.meta.url));
const USAGE = 'usage: npm run soak -- [--duration <seconds>] [--connections <n>] [--max-rss-growth <percent>] [--json]';
const REPORT_EVERY_S = 10;
/** autocannon's result, as its callback receives it. */
type LoadResult = Parameters<Parameters<typeof autocannon>[1]>[1];
const WARM_UP_SHARE = 0.2;

// ───────────────────────── the calls ─────────────────────────

/** A Tuesday noon in New York, a week ahead: a valid instant with its offset, stable across runs. */
const OPEN_AT = '2026-12-08T12:00:00-05:00';
const NEW_YORK = { latitude: 40.7128, longitude: -74.006 };

const SEARCHES: readonly Record<string, unknown>[] = [
  { query: 'grocery store', pagination: { limit: 5 } },
  { distance: { center: NEW_YORK, max: 25_000 } },
  { distance: { center: NEW_YORK, max: 50_000 }, filters: { hours: { open_at: OPEN_AT } } },
  { filters: { amenities: ['dev.ucp.amenity.wi_fi'] }, pagination: { limit: 5 } },
  { query: 'bakery', filters: { amenities: ['dev.ucp.amenity.parking'], hours: { open_at: OPEN_AT } } },
];
const LOOKUPS: readonly Record<string, unknown>[] = [
  { ids: ['loc_downtown'] },
  { ids: ['loc_valley_grocers', 'loc_new_york_east_village'] },
];

interface Call {
  method: 'POST';
  path: string;
  headers: Record<string, string>;
  body: string;
}

function mcpCall(tool: 'search_locations' | 'lookup_locations', location: Record<string, unknown>, id: number): Call {
  const meta = { 'ucp-agent': { profile: DEMO_PLATFORM_PROFILE_URL } };
  return {
    method: 'POST',
    path: '/ucp/mcp',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: tool, arguments: { meta, location } } }),
  };
}

function restCall(operation: 'search' | 'lookup', location: Record<string, unknown>): Call {
  return {
    method: 'POST',
    path: `/ucp/locations/${operation}`,
    headers: { 'content-type': 'application/json', 'ucp-agent': `profile="${DEMO_PLATFORM_PROFILE_URL}"` },
    body: JSON.stringify(location),
  };
}

/** Both bindings, interleaved, so every connection exercises all of them. */
function rotation(): Call[] {
  const calls: Call[] = [];
  let id = 1;
  for (const search of SEARCHES) calls.push(mcpCall('search_locations', search, id++), restCall('search', search));
  for (const lookup of LOOKUPS) calls.push(restCall('lookup', lookup), mcpCall('lookup_locations', lookup, id++));
  return calls;
}

// ───────────────────────── the server ─────────────────────────

async function startServerChild(configFile: string): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'src/cli/main.ts', 'serve', '--host', '127.0.0.1', '--port', String(port), '--config', configFile],
    // The server's own log lines (warn and above) go to our stderr, where a person sees them.
    { cwd: REPO, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`the server exited with status ${child.exitCode} while starting`);
    const up = await fetch(`${url}/.well-known/ucp`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return { url, child };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGTERM');
  throw new Error('the server did not start within 60 s');
}

/**
 * Each call of the rotation once, before the load: a call the server answers with a 2xx but as a
 * failure (an MCP tool error, a JSON-RPC error) would otherwise pass the soak unnoticed.
 */
async function checkEveryCall(url: string): Promise<void> {
  for (const call of rotation()) {
    const res = await fetch(`${url}${call.path}`, { method: call.method, headers: call.headers, body: call.body });
    const answer = (await res.json()) as { result?: { isError?: boolean }; error?: unknown; ucp?: { status?: string } };
    const failed = !res.ok || answer.error !== undefined || answer.result?.isError === true || answer.ucp?.status === 'error';
    if (failed) throw new Error(`a soak call failed before the load (${res.status}): ${call.path} ${call.body}`);
  }
}

/** Resident set size of a process, bytes (Linux /proc; `ps` elsewhere). */
function rssOf(pid: number): number | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status)?.[1];
    return kb === undefined ? undefined : Number(kb) * 1024;
  } catch {
    return undefined;
  }
}

// ───────────────────────── the run ─────────────────────────

interface Options {
  duration: number;
  connections: number;
  maxRssGrowthPct: number;
  json: boolean;
}

function parseOptions(argv: readonly string[]): Options | string {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        duration: { type: 'string', default: '300' },
        connections: { type: 'string', default: '100' },
        'max-rss-growth': { type: 'string', default: '10' },
        json: { type: 'boolean', default: false },
      },
    }));
  } catch (error) {
    return (error as Error).message;
  }
  const duration = Number(values.duration);
  const connections = Number(values.connections);
  const maxRssGrowthPct = Number(values['max-rss-growth']);
  if (!Number.isInteger(duration) || duration < 1) return `--duration must be a whole number of seconds ≥ 1, got ${values.duration}`;
  if (!Number.isInteger(connections) || connections < 1 || connections > 10_000)
    return `--connections must be a whole number from 1 to 10000, got ${values.connections}`;
  if (!Number.isFinite(maxRssGrowthPct) || maxRssGrowthPct < 0)
    return `--max-rss-growth must be a percentage ≥ 0, got ${values['max-rss-growth']}`;
  return { duration, connections, maxRssGrowthPct, json: values.json === true };
}

function median(values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

const mb = (bytes: number | undefined): string => (bytes === undefined ? '?' : `${(bytes / 1024 / 1024).toFixed(0)} MB`);

async function soak(options: Options): Promise<SoakSummary> {
  const progress = options.json ? process.stderr : process.stdout;
  const dir = mkdtempSync(join(tmpdir(), 'ucp-soak-'));
  let child: ChildProcess | undefined;
  try {
    const configFile = join(dir, 'ucp-location.json');
    // warn: a log line per call would measure the log sink, not the server.
    writeFileSync(configFile, JSON.stringify({ rateLimits: { enabled: false }, logLevel: 'warn' }));
    const started = await startServerChild(configFile);
    child = started.child;
    const pid = child.pid ?? 0;
    await checkEveryCall(started.url);
    progress.write(`soak: ${options.connections} connections, ${options.duration} s, MCP + REST search/lookup → ${started.url}\n`);

    let interval = { latencies: [] as number[], errors: 0, non2xx: 0 };
    const latencies: number[] = [];
    const rssStart = rssOf(pid);
    // RSS follows the garbage collector's saw-tooth (±30% within seconds), so single readings are
    // compared through medians: once a second, the window after the warm-up against the last one.
    const rssSamples: { at: number; bytes: number }[] = [];
    const startedAt = Date.now();
    let finish!: (outcome: { error: Error | null; result: LoadResult }) => void;
    const finished = new Promise<{ error: Error | null; result: LoadResult }>((resolve) => (finish = resolve));
    const instance = autocannon(
      { url: started.url, connections: options.connections, duration: options.duration, requests: rotation(), timeout: 10 },
      (error, result) => finish({ error, result }),
    );
    instance.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
      interval.latencies.push(ms);
      latencies.push(ms);
      if (status < 200 || status > 299) interval.non2xx++;
    });
    instance.on('reqError', () => interval.errors++);
    const sampler = setInterval(() => {
      const bytes = rssOf(pid);
      if (bytes !== undefined) rssSamples.push({ at: (Date.now() - startedAt) / 1000, bytes });
    }, 1000);
    const report = (): void => {
      const seconds = (Date.now() - startedAt) / 1000;
      const n = interval.latencies.length;
      progress.write(
        `${seconds.toFixed(0).padStart(5)} s  ${(n / REPORT_EVERY_S).toFixed(0).padStart(6)} req/s  p50 ${percentile(interval.latencies, 50)} ms  p99 ${percentile(interval.latencies, 99)} ms  errors ${interval.errors + interval.non2xx}  server RSS ${mb(rssOf(pid))}\n`,
      );
      interval = { latencies: [], errors: 0, non2xx: 0 };
    };
    const reporter = setInterval(report, REPORT_EVERY_S * 1000);
    const { error, result } = await finished;
    if (error !== null) throw error;
    clearInterval(reporter);
    clearInterval(sampler);
    const window = options.duration * WARM_UP_SHARE;
    // A run of a few seconds may have no reading in a window: then the nearest one stands in.
    const rssWarm =
      median(rssSamples.filter((r) => r.at >= window && r.at < 2 * window).map((r) => r.bytes)) ??
      rssSamples.find((r) => r.at >= window)?.bytes;
    const rssEnd =
      median(rssSamples.filter((r) => r.at >= options.duration - window).map((r) => r.bytes)) ?? rssOf(pid) ?? rssSamples.at(-1)?.bytes;
    return {
      durationS: (Date.now() - startedAt) / 1000,
      connections: options.connections,
      calls: result.requests.total,
      requestsPerSecond: Math.round(result.requests.total / options.duration),
      latencyMs: { p50: percentile(latencies, 50), p99: percentile(latencies, 99), max: percentile(latencies, 100) },
      errors: result.errors,
      timeouts: result.timeouts,
      non2xx: result.non2xx,
      rssBytes: { start: rssStart, warm: rssWarm, end: rssEnd },
      warmUpS: Math.round(options.duration * WARM_UP_SHARE * 10) / 10,
      maxRssGrowthPct: options.maxRssGrowthPct,
    };
  } finally {
    if (child !== undefined && child.exitCode === null) {
      const exited = new Promise((resolve) => child?.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<number> {
  const options = parseOptions(process.argv.slice(2));
  if (typeof options === 'string') {
    process.stderr.write(`soak: ${options}\n${USAGE}\n`);
    return 2;
  }
  const summary = await soak(options);
  const verdict = soakVerdict(summary);
  if (options.json) {
    process.stdout.write(`${JSON.stringify({ ...summary, passed: verdict.passed, failures: verdict.failures })}\n`);
  } else {
    const growth = verdict.rssGrowthPct === undefined ? 'unknown' : `${verdict.rssGrowthPct.toFixed(1)}%`;
    process.stdout.write(
      [
        `calls ${summary.calls} in ${summary.durationS.toFixed(0)} s (${summary.requestsPerSecond} req/s), latency p50 ${summary.latencyMs.p50} ms, p99 ${summary.latencyMs.p99} ms, max ${summary.latencyMs.max} ms`,
        `errors ${summary.errors}, timeouts ${summary.timeouts}, non-2xx ${summary.non2xx}`,
        `server RSS: ${mb(summary.rssBytes.start)} at start; median ${mb(summary.rssBytes.warm)} in the ${summary.warmUpS} s after the warm-up, ${mb(summary.rssBytes.end)} in the last ${summary.warmUpS} s (growth ${growth}, limit ${summary.maxRssGrowthPct}%)`,
        verdict.passed ? 'soak: passed' : `soak: FAILED: ${verdict.failures.join('; ')}`,
      ].join('\n') + '\n',
    );
  }
  return verdict.passed ? 0 : 1;
}

process.exitCode = await main();
